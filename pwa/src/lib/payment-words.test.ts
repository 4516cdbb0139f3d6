// What the platform says about money, in the reader's language: a payment that did not
// go through and an order part the platform cancelled, never the server's English.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from './i18n';
import { cancelReasonText } from './entities/orders';
import { failureText } from './payments';

const i18n = setupI18n();
beforeAll(async () => {
  await i18n.loadLanguages(['fr', 'sw']);
});

describe('payment and cancellation reasons', () => {
  it('are translated from the provider’s codes, with a general sentence for unknown ones', async () => {
    await i18n.changeLanguage('fr');
    expect(failureText(i18n.t, 'insufficient_funds')).toBe("Pas assez d'argent sur le compte mobile money.");
    expect(failureText(i18n.t, 'payer_not_found')).toMatch(/^Ce numéro n'a pas de compte/);
    expect(failureText(i18n.t, 'something_new')).toBe("L'opérateur n'a pas accepté le paiement.");
    expect(failureText(i18n.t, null)).toBe("L'opérateur n'a pas accepté le paiement.");
    await i18n.changeLanguage('sw');
    expect(failureText(i18n.t, 'declined')).toBe('Imekataliwa kwenye simu inayolipa.');
  });

  it('say why the platform cancelled a part, and keep a person’s own words', async () => {
    await i18n.changeLanguage('fr');
    expect(cancelReasonText(i18n.t, 'payment failed')).toBe("le paiement n'est pas passé");
    expect(i18n.t('orders.cancel_reason', { reason: cancelReasonText(i18n.t, 'payment expired') })).toBe(
      "Annulée : le paiement n'a pas été approuvé à temps",
    );
    await i18n.changeLanguage('sw');
    expect(cancelReasonText(i18n.t, 'payment failed')).toBe('malipo hayakupita');
    expect(cancelReasonText(i18n.t, 'Plus de stock')).toBe('Plus de stock');
  });
});
