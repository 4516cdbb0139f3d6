// Forgotten passwords (docs/accounts.md): ask for a link by email, then choose a new
// password with it. What was typed stays when the server refuses it.
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField, useFormSend } from '../../components/form';
import { CheckIcon } from '../../components/icons';
import { api } from '../../lib/api';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import { usePageHead } from '../../lib/page-head';
import { paths } from '../../lib/paths';
import { checkPassword, looksLikeEmail } from '../../lib/validation';

export function ForgotPasswordPage() {
  usePageHead('forgot_password');
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { problem, busy, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, ['email']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const codes = !email.trim() ? ['email_required'] : looksLikeEmail(email) ? [] : ['email_invalid'];
    const ok = await send(codes, () => api('/password/forgot', { method: 'POST', json: { email: email.trim() } }));
    if (ok) setSent(true);
  };

  return (
    <section className="page narrow auth-page">
      <h1>{t('auth.forgot_title')}</h1>
      {sent ? (
        <div className="card success-panel" role="status">
          <CheckIcon />
          <p>{t('auth.forgot_sent', { email: email.trim() })}</p>
          <Link to={paths.login} className="button">
            {t('auth.sign_in')}
          </Link>
        </div>
      ) : (
        <form ref={form} onSubmit={submit} noValidate className="card form">
          <p className="lead">{t('auth.forgot_intro')}</p>
          <ErrorBox messages={problemMessages(problem, t, 'auth.forgot_failed')} />
          <TextField
            label={t('fields.email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            value={email}
            error={invalid.email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" className="button wide" disabled={busy}>
            {busy ? t('common.sending') : t('auth.forgot_send')}
          </button>
          <p className="form-footer">
            <Link to={paths.login}>{t('auth.back_to_sign_in')}</Link>
          </p>
        </form>
      )}
    </section>
  );
}

export function ResetPasswordPage() {
  usePageHead('reset_password');
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [done, setDone] = useState(false);
  const { problem, busy, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, ['password', 'password_confirmation', 'token']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await send(checkPassword(password, confirmation), () =>
      api('/password/reset', {
        method: 'POST',
        json: { token, password, password_confirmation: confirmation },
      }),
    );
    if (ok) setDone(true);
  };

  if (done) {
    return (
      <section className="page narrow auth-page">
        <div className="card success-panel" role="status">
          <CheckIcon />
          <h1>{t('auth.reset_done')}</h1>
          <Link to={paths.login} className="button">
            {t('auth.sign_in')}
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section className="page narrow auth-page">
      <h1>{t('auth.reset_title')}</h1>
      <form ref={form} onSubmit={submit} noValidate className="card form">
        <ErrorBox messages={problemMessages(problem, t, 'auth.reset_failed')} />
        {(invalid.token || !token) && (
          <p>
            <Link to={paths.forgotPassword}>{t('auth.reset_ask_again')}</Link>
          </p>
        )}
        <TextField
          label={t('fields.new_password')}
          type="password"
          autoComplete="new-password"
          required
          hint={t('fields.password_hint')}
          value={password}
          error={invalid.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <TextField
          label={t('fields.password_confirmation')}
          type="password"
          autoComplete="new-password"
          required
          value={confirmation}
          error={invalid.password_confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
        />
        <button type="submit" className="button wide" disabled={busy || !token}>
          {busy ? t('common.saving') : t('auth.reset_save')}
        </button>
      </form>
    </section>
  );
}
