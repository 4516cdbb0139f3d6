// Prices by SMS (docs/prices.md): the crops a person's number gets each Monday, one
// SMS a week in their language; the same list a basic phone keeps with `SUBSCRIBE`
// and ends with `STOP`. Needs a phone number on the account.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CropOptions, MarketOptions } from '../../components/price-options';
import { ErrorBox, SelectField } from '../../components/form';
import { ApiError, api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import type { Market } from '../../lib/entities/prices';

interface Alerts {
  phone: string;
  data: { crop: string; market: Market | null }[];
  max: number;
}

export function PriceAlerts() {
  const { t } = useTranslation();
  const [alerts, setAlerts] = useState<Alerts | null>(null);
  const [noPhone, setNoPhone] = useState(false);
  const [markets, setMarkets] = useState<Market[]>([]);
  const [choice, setChoice] = useState({ crop: '', market: '' });
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setAlerts(await api<Alerts>('/me/price-alerts'));
      setMarkets((await api<{ data: Market[] }>('/prices/markets')).data);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'phone_required') setNoPhone(true);
      else setProblem(error);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const change = async (method: 'PUT' | 'DELETE', crop: string, market: number | null) => {
    setBusy(true);
    setProblem(null);
    try {
      setAlerts(await api<Alerts>('/me/price-alerts', { method, json: { crop, market_id: market } }));
      if (method === 'PUT') setChoice({ crop: '', market: '' });
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  };
  const follow = (event: FormEvent) => {
    event.preventDefault();
    if (choice.crop) void change('PUT', choice.crop, choice.market ? Number(choice.market) : null);
  };

  return (
    <section className="card" aria-labelledby="price-alerts">
      <h2 id="price-alerts">{t('profile.alerts.title')}</h2>
      <p className="muted">{t('profile.alerts.intro')}</p>
      {noPhone ? (
        <p className="notice">{t('errors.phone_required')}</p>
      ) : (
        <>
          <ErrorBox messages={problem ? errorMessages(problem, t, 'profile.alerts.failed') : []} />
          {alerts && alerts.data.length > 0 && (
            <ul className="list">
              {alerts.data.map((a) => (
                <li key={`${a.crop}-${a.market?.id ?? 0}`} className="list-row">
                  <span>
                    {t(`crops.${a.crop}`, { defaultValue: a.crop })} ·{' '}
                    {a.market ? a.market.name : t('prices.all_markets')}
                  </span>
                  <button
                    type="button"
                    className="button secondary small"
                    disabled={busy}
                    onClick={() => void change('DELETE', a.crop, a.market?.id ?? null)}
                  >
                    {t('profile.alerts.stop')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {alerts && (
            <form className="form" onSubmit={follow} aria-label={t('profile.alerts.follow')}>
              <p className="muted">{t('profile.alerts.to', { phone: alerts.phone })}</p>
              <div className="field-row two">
                <SelectField
                  label={t('prices.crop')}
                  value={choice.crop}
                  onChange={(e) => setChoice((c) => ({ ...c, crop: e.target.value }))}
                >
                  <CropOptions blank={t('prices.choose_crop')} />
                </SelectField>
                <SelectField
                  label={t('prices.market')}
                  value={choice.market}
                  onChange={(e) => setChoice((c) => ({ ...c, market: e.target.value }))}
                >
                  <MarketOptions markets={markets} blank={t('prices.all_markets')} />
                </SelectField>
              </div>
              <div className="actions">
                <button
                  type="submit"
                  className="button secondary"
                  disabled={busy || !choice.crop || alerts.data.length >= alerts.max}
                >
                  {t('profile.alerts.follow')}
                </button>
              </div>
            </form>
          )}
        </>
      )}
    </section>
  );
}
