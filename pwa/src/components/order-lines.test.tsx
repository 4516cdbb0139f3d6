import { render } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../lib/i18n';
import type { OrderLine } from '../lib/entities/orders';
import { OrderLines } from './order-lines';

const line = (fields: Partial<OrderLine>): OrderLine => ({
  product_id: 1,
  product_uid: 'p1',
  title: 'Avocados',
  title_en: null,
  title_fr: 'Avocats',
  title_sw: null,
  unit: 'piece',
  quantity: 6,
  unit_price_cents: 40,
  line_total_cents: 240,
  ...fields,
});

const i18n = setupI18n();
beforeAll(async () => {
  await i18n.changeLanguage('fr');
});

describe("an order's lines", () => {
  it("name the product in the reader's language and count its unit", async () => {
    const six = render(<OrderLines lines={[line({})]} />);
    expect(six.container.textContent).toContain('Avocats');
    expect(six.container.textContent).toContain('6 pièces ×');
    six.unmount();
    const one = render(<OrderLines lines={[line({ quantity: 1, line_total_cents: 40 })]} />);
    expect(one.container.textContent).toContain('1 pièce ×');
    one.unmount();
    await i18n.changeLanguage('sw');
    // No Kiswahili name: the title the farmer gave.
    const swahili = render(<OrderLines lines={[line({})]} />);
    expect(swahili.container.textContent).toContain('Avocados');
    expect(swahili.container.textContent).toContain('6 vipande ×');
    swahili.unmount();
  });
});
