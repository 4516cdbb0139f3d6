// The USSD menu as a basic phone shows it (docs/ussd.md): a drawn phone whose
// screen and keypad make the same requests a USSD gateway makes, through
// POST /ussd/try, as the signed-in person's own number (an admin may dial as
// any number). Farmers without a smartphone use exactly these screens.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox } from '../../components/form';
import { api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import './phone-menu.css';

interface Screen {
  text: string;
  end: boolean;
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];

/** A session id of this page's own (not a secret: the server keys sessions by number too). */
const newSession = () => `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export function PhoneMenu({ asAnyNumber, ownNumber }: { asAnyNumber: boolean; ownNumber: string | null }) {
  const { t, i18n } = useTranslation();
  const [session, setSession] = useState<string | null>(null);
  const [answers, setAnswers] = useState<string[]>([]);
  const [screen, setScreen] = useState<Screen | null>(null);
  const [typed, setTyped] = useState('');
  const [number, setNumber] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const inCall = session !== null && screen !== null && !screen.end;

  async function send(id: string, next: string[]) {
    setBusy(true);
    setError(null);
    try {
      const phone = asAnyNumber && number.trim() ? { phone: number.trim() } : {};
      const answer = await api<Screen>('/ussd/try', {
        method: 'POST',
        json: { session_id: id, text: next.join('*'), lang: i18n.language, ...phone },
      });
      setSession(id);
      setScreen(answer);
      setAnswers(next);
      setTyped('');
    } catch (caught) {
      // What was typed stays, to send again.
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (inCall && session) void send(session, [...answers, typed.trim()]);
    else void send(newSession(), []);
  };
  const hangUp = () => {
    setSession(null);
    setScreen(null);
    setAnswers([]);
    setTyped('');
    setError(null);
  };

  return (
    <section className="card phone-menu">
      <h2>{t('phone_menu.title')}</h2>
      <p>{ownNumber ? t('phone_menu.intro', { number: ownNumber }) : t('phone_menu.intro_no_number')}</p>
      <form onSubmit={submit} className="basic-phone">
        {asAnyNumber && (
          <label className="field">
            <span>{t('phone_menu.as_number')}</span>
            <input
              type="tel"
              value={number}
              onChange={(e) => setNumber(e.target.value)}
              placeholder={ownNumber ?? '+243…'}
              disabled={inCall}
              autoComplete="off"
            />
          </label>
        )}
        <div className="basic-phone-screen" role="log" aria-live="polite" aria-label={t('phone_menu.screen')}>
          {screen ? <pre>{screen.text}</pre> : <p>{t('phone_menu.idle')}</p>}
          {screen?.end && <p className="basic-phone-ended">{t('phone_menu.ended')}</p>}
        </div>
        <input
          className="basic-phone-typed"
          aria-label={t('phone_menu.answer')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          disabled={!inCall}
          maxLength={160}
          autoComplete="off"
        />
        <div className="basic-phone-keys" role="group" aria-label={t('phone_menu.keypad')}>
          {KEYS.map((key) => (
            <button type="button" key={key} onClick={() => setTyped((before) => before + key)} disabled={!inCall}>
              {key}
            </button>
          ))}
        </div>
        <div className="basic-phone-calls">
          <button type="submit" className="call" disabled={busy}>
            {inCall ? t('phone_menu.send') : t('phone_menu.dial')}
          </button>
          <button type="button" onClick={() => setTyped((before) => before.slice(0, -1))} disabled={!inCall}>
            {t('phone_menu.delete')}
          </button>
          <button type="button" className="hang-up" onClick={hangUp} disabled={!session}>
            {t('phone_menu.end')}
          </button>
        </div>
      </form>
      <ErrorBox messages={error === null ? [] : errorMessages(error, t, 'phone_menu.failed')} />
    </section>
  );
}
