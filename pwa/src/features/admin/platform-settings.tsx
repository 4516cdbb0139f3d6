// The platform's settings (docs/settings.md): contact details and hours, shipping policy,
// platform fee, payment methods per country, the emails' sender and default language, the
// USSD code the SMS name.
// Admins read them; a super admin changes them; every change is listed with who made it.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField, TextAreaField, TextField, useFormSend } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { COUNTRIES } from '../../lib/account';
import { api } from '../../lib/api';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { keepSettings, type PublicSettings, type Texts } from '../../lib/settings';

const LANGUAGES = ['en', 'fr', 'sw'] as const;

interface Settings extends PublicSettings {
  platform_fee_bp: number;
  email_sender_name: string;
  email_language: (typeof LANGUAGES)[number];
  ussd_code: string;
}

interface Change {
  id: number;
  key: keyof Settings;
  old_value: unknown;
  new_value: unknown;
  changed_by: { id: number; name: string };
  changed_at: string;
}

interface Answer {
  data: Settings;
  changes: Change[];
  can_change: boolean;
  known_operators: Record<string, { id: string; name: string }[]>;
}

const TEXT_FIELDS = ['contact.address', 'contact.hours', 'shipping_policy'].flatMap((f) =>
  LANGUAGES.map((l) => `${f}.${l}`),
);
const FIELDS = [
  ...TEXT_FIELDS,
  'contact.phone',
  'contact.email',
  'fee',
  'platform_fee_bp',
  'email_sender_name',
  'email_language',
  'ussd_code',
  ...COUNTRIES.map((c) => `payments.${c}`),
];

/** "2.5" → 250 hundredths of a percent; null when it is not 0 to 30 with at most two decimals. */
export function feeFromPercent(typed: string): number | null {
  const text = typed.trim().replace(',', '.');
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(text)) return null;
  const bp = Math.round(Number(text) * 100);
  return bp <= 3000 ? bp : null;
}

const percent = (bp: number) => String(bp / 100);

/** Three fields, one per language, for a text of the settings. */
function TextsFields(props: {
  legend: string;
  name: string;
  value: Texts;
  onChange: (value: Texts) => void;
  errors: Record<string, string>;
  long?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="choices">
      <legend>{props.legend}</legend>
      {LANGUAGES.map((lang) => {
        const common = {
          label: t(`training.languages.${lang}`),
          value: props.value[lang],
          error: props.errors[`${props.name}.${lang}`],
          required: !props.long,
        };
        const set = (text: string) => props.onChange({ ...props.value, [lang]: text });
        return props.long ? (
          <TextAreaField key={lang} {...common} rows={4} maxLength={4000} onChange={(e) => set(e.target.value)} />
        ) : (
          <TextField key={lang} {...common} maxLength={200} onChange={(e) => set(e.target.value)} />
        );
      })}
    </fieldset>
  );
}

/** What a change set, in a few words (whole texts are not repeated in the history). */
function changeSummary(change: Change, t: TFunction): string {
  switch (change.key) {
    case 'platform_fee_bp':
      return `${percent(Number(change.old_value ?? 0))} % → ${percent(Number(change.new_value))} %`;
    case 'email_sender_name':
      return `“${String(change.new_value)}”`;
    case 'ussd_code':
      return change.new_value ? String(change.new_value) : t('settings.ussd_code_none');
    case 'email_language':
      return t(`training.languages.${change.new_value as (typeof LANGUAGES)[number]}`);
    default:
      return '';
  }
}

export function PlatformSettings() {
  const { t } = useTranslation();
  const toast = useToast();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [fee, setFee] = useState('');
  const [older, setOlder] = useState<Change[]>([]);
  const [error, setError] = useState<unknown>(null);
  const { problem, busy, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, FIELDS);

  const take = useCallback((next: Answer) => {
    setAnswer(next);
    setDraft(next.data);
    setFee(percent(next.data.platform_fee_bp));
    setOlder([]);
  }, []);
  const load = useCallback(() => {
    api<Answer>('/admin/settings').then((next) => (take(next), setError(null)), setError);
  }, [take]);
  useEffect(load, [load]);

  if (error && !answer) {
    return <LoadFailed title={t('settings.title')} error={error} fallbackKey="settings.load_failed" onRetry={load} />;
  }
  if (!answer || !draft) return <Spinner label={t('common.loading')} />;
  const editable = answer.can_change;
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => setDraft({ ...draft, [key]: value });
  const setContact = (part: Partial<Settings['contact']>) => set('contact', { ...draft.contact, ...part });
  const setPayments = (country: string, part: Partial<Settings['payments'][string]>) =>
    set('payments', { ...draft.payments, [country]: { ...draft.payments[country]!, ...part } });
  const changes = [...answer.changes, ...older];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const bp = feeFromPercent(fee);
    const ok = await send(bp === null ? ['fee_invalid'] : [], async () => {
      const next = await api<Answer>('/admin/settings', { method: 'PATCH', json: { ...draft, platform_fee_bp: bp } });
      take(next);
      keepSettings({
        contact: next.data.contact,
        shipping_policy: next.data.shipping_policy,
        payments: next.data.payments,
        ussd_code: next.data.ussd_code,
      });
    });
    if (ok) toast('success', t('settings.saved'));
  };
  const more = () => {
    const last = changes[changes.length - 1];
    if (!last) return;
    api<Answer>(`/admin/settings?before=${last.id}`).then(
      (page) => setOlder((kept) => [...kept, ...page.changes]),
      () => toast('error', t('settings.load_failed')),
    );
  };

  return (
    <section className="card admin-settings" aria-labelledby="platform-title">
      <h2 id="platform-title">{t('settings.title')}</h2>
      <p className="hint">{editable ? t('settings.intro') : t('settings.read_only')}</p>
      <form ref={form} onSubmit={submit} noValidate className="form">
        <ErrorBox messages={problemMessages(problem, t, 'settings.save_failed')} />
        <fieldset disabled={!editable || busy} className="plain">
          <h3>{t('settings.contact')}</h3>
          <TextsFields
            legend={t('settings.address')}
            name="contact.address"
            value={draft.contact.address}
            onChange={(address) => setContact({ address })}
            errors={invalid}
          />
          <TextsFields
            legend={t('settings.hours')}
            name="contact.hours"
            value={draft.contact.hours}
            onChange={(hours) => setContact({ hours })}
            errors={invalid}
          />
          <TextField
            label={t('settings.phone')}
            type="tel"
            value={draft.contact.phone}
            error={invalid['contact.phone']}
            onChange={(e) => setContact({ phone: e.target.value })}
          />
          <TextField
            label={t('settings.email')}
            type="email"
            value={draft.contact.email}
            error={invalid['contact.email']}
            onChange={(e) => setContact({ email: e.target.value })}
          />

          <h3>{t('settings.orders')}</h3>
          <TextsFields
            legend={t('checkout.shipping_policy')}
            name="shipping_policy"
            value={draft.shipping_policy}
            onChange={(policy) => set('shipping_policy', policy)}
            errors={invalid}
            long
          />
          <TextField
            label={t('settings.fee')}
            hint={t('settings.fee_hint')}
            inputMode="decimal"
            value={fee}
            error={invalid.fee ?? invalid.platform_fee_bp}
            onChange={(e) => setFee(e.target.value)}
          />
          <h3>{t('settings.payments')}</h3>
          {COUNTRIES.map((country) => {
            const chosen = draft.payments[country]!;
            return (
              <fieldset key={country} className="choices">
                <legend>{t(`countries.${country}`)}</legend>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={chosen.cash_on_delivery}
                    onChange={(e) => setPayments(country, { cash_on_delivery: e.target.checked })}
                  />
                  {t('checkout.cash_on_delivery')}
                </label>
                {answer.known_operators[country]?.map((operator) => (
                  <label key={operator.id} className="checkbox">
                    <input
                      type="checkbox"
                      checked={chosen.operators.includes(operator.id)}
                      onChange={(e) =>
                        setPayments(country, {
                          operators: e.target.checked
                            ? [...chosen.operators, operator.id]
                            : chosen.operators.filter((id) => id !== operator.id),
                        })
                      }
                    />
                    {t('settings.mobile_money_with', { operator: operator.name })}
                  </label>
                ))}
                {invalid[`payments.${country}`] && <p className="field-error">{invalid[`payments.${country}`]}</p>}
              </fieldset>
            );
          })}

          <h3>{t('settings.emails')}</h3>
          <TextField
            label={t('settings.sender_name')}
            maxLength={60}
            value={draft.email_sender_name}
            error={invalid.email_sender_name}
            onChange={(e) => set('email_sender_name', e.target.value)}
          />
          <SelectField
            label={t('settings.email_language')}
            value={draft.email_language}
            error={invalid.email_language}
            onChange={(e) => set('email_language', e.target.value as Settings['email_language'])}
          >
            {LANGUAGES.map((lang) => (
              <option key={lang} value={lang}>
                {t(`training.languages.${lang}`)}
              </option>
            ))}
          </SelectField>
          <p className="hint">{t('settings.email_language_hint')}</p>
          <TextField
            label={t('settings.ussd_code')}
            hint={t('settings.ussd_code_hint')}
            inputMode="tel"
            autoComplete="off"
            maxLength={20}
            value={draft.ussd_code}
            error={invalid.ussd_code}
            onChange={(e) => set('ussd_code', e.target.value)}
          />
          {editable && (
            <button type="submit" className="button" disabled={busy}>
              {busy ? t('common.saving') : t('settings.save')}
            </button>
          )}
        </fieldset>
      </form>
      <h3>{t('settings.history')}</h3>
      {changes.length === 0 ? (
        <p className="muted">{t('settings.no_changes')}</p>
      ) : (
        <ul className="rate-history" aria-label={t('settings.history')}>
          {changes.map((change) => (
            <li key={change.id}>
              <strong>{t(`settings.keys.${change.key}`)}</strong> {changeSummary(change, t)}
              <span className="muted">
                {' '}
                {t('admin_settings.set_by', {
                  name: change.changed_by.name,
                  date: formatDate(change.changed_at, 'time'),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {changes.length > 0 && changes.length % 50 === 0 && (
        <button type="button" className="button secondary" onClick={more}>
          {t('settings.older')}
        </button>
      )}
    </section>
  );
}
