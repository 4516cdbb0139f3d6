// The admin's Settings: the platform's settings (platform-settings.tsx, docs/settings.md)
// and the exchange rate (docs/money.md). Prices are in US dollars;
// people in the DRC also see an estimate in Congolese francs at the rate set here,
// with its date. Every rate set is kept, with who set it. Online, like every admin screen.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField, useFormSend } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { api } from '../../lib/api';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import { formatDate, formatDay, localToday } from '../../lib/format';
import { formatFrancs } from '../../lib/entities/francs';
import type { Rate } from '../../lib/entities/rates';
import { PlatformSettings } from './platform-settings';

interface SetRate extends Rate {
  updated_at: string;
  set_by: { id: number; name: string } | null;
}

const today = localToday;

export function AdminSettings() {
  return (
    <>
      <PlatformSettings />
      <ExchangeRate />
    </>
  );
}

function ExchangeRate() {
  const { t } = useTranslation();
  const toast = useToast();
  const [history, setHistory] = useState<SetRate[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [francs, setFrancs] = useState('');
  const [asOf, setAsOf] = useState(today);
  const { problem, busy, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, ['francs_per_usd', 'as_of']);
  const load = useCallback(() => {
    api<{ data: SetRate[] }>('/admin/exchange-rates/CDF').then(
      (answer) => (setHistory(answer.data), setError(null)),
      setError,
    );
  }, []);
  useEffect(load, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await send([], () =>
      api('/admin/exchange-rates/CDF', { method: 'PUT', json: { francs_per_usd: francs.trim(), as_of: asOf } }),
    );
    if (ok) {
      toast('success', t('admin_settings.saved'));
      setFrancs('');
      load();
    }
  };

  if (error && !history) {
    return (
      <LoadFailed
        title={t('admin_settings.rate_title')}
        error={error}
        fallbackKey="admin_settings.load_failed"
        onRetry={load}
      />
    );
  }
  if (!history) return <Spinner label={t('common.loading')} />;
  const current = history[0];
  return (
    <section className="card admin-settings" aria-labelledby="rate-title">
      <h2 id="rate-title">{t('admin_settings.rate_title')}</h2>
      <p>{t('admin_settings.rate_intro')}</p>
      <p className="lead" role="status">
        {current
          ? t('admin_settings.in_use', { francs: formatFrancs(current.francs_per_usd), date: formatDay(current.as_of) })
          : t('admin_settings.none')}
      </p>
      <form ref={form} onSubmit={submit} noValidate className="form">
        <ErrorBox messages={problemMessages(problem, t, 'admin_settings.save_failed')} />
        <TextField
          label={t('admin_settings.francs_per_usd')}
          inputMode="numeric"
          autoComplete="off"
          required
          value={francs}
          error={invalid.francs_per_usd}
          onChange={(e) => setFrancs(e.target.value)}
        />
        <TextField
          label={t('admin_settings.as_of')}
          type="date"
          required
          max={today()}
          value={asOf}
          error={invalid.as_of}
          onChange={(e) => setAsOf(e.target.value)}
        />
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('common.saving') : t('admin_settings.save')}
        </button>
      </form>
      {history.length > 0 && (
        <>
          <h3>{t('admin_settings.history')}</h3>
          <ul className="rate-history">
            {/* Newest first and never reordered: the place in the list is the rate's identity. */}
            {history.map((rate, index) => (
              <li key={index}>
                <strong>{formatFrancs(rate.francs_per_usd)}</strong> · {formatDay(rate.as_of)}
                <span className="muted">
                  {' '}
                  {t('admin_settings.set_by', {
                    name: rate.set_by?.name ?? t('admin_settings.someone'),
                    date: formatDate(rate.updated_at, 'time'),
                  })}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
