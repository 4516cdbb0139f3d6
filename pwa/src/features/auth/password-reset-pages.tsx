// Forgotten passwords (docs/accounts.md): ask for a link by email or a code by SMS,
// then choose a new password with it. What was typed stays when the server refuses it.
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField, useFormSend } from '../../components/form';
import { CheckIcon } from '../../components/icons';
import { api } from '../../lib/api';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import { usePageHead } from '../../lib/page-head';
import { paths } from '../../lib/paths';
import { checkPassword, looksLikeEmail, typedPhone } from '../../lib/validation';

export function ForgotPasswordPage() {
  usePageHead('forgot_password');
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { problem, busy, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, ['email', 'phone_number']);
  // A phone number gets a code by SMS, typed on the next page.
  const phone = typedPhone(email);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (phone) {
      const ok = await send([], () => api('/password/forgot', { method: 'POST', json: { phone_number: phone } }));
      if (ok) navigate(`${paths.resetPassword}?phone=${encodeURIComponent(phone)}`);
      return;
    }
    const codes = !email.trim() ? ['email_or_phone_required'] : looksLikeEmail(email) ? [] : ['email_invalid'];
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
            label={t('fields.email_or_phone')}
            type="text"
            inputMode="email"
            autoComplete="username"
            required
            value={email}
            error={invalid.email ?? invalid.phone_number}
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
  // After asking for a code by SMS: the number it went to.
  const phone = params.get('phone');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [done, setDone] = useState(false);
  const { problem, busy, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, ['code', 'password', 'password_confirmation', 'token']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const proof = phone ? { phone_number: phone, code: code.trim() } : { token };
    const codes = [...(phone && !code.trim() ? ['code_required'] : []), ...checkPassword(password, confirmation)];
    const ok = await send(codes, () =>
      api('/password/reset', {
        method: 'POST',
        json: { ...proof, password, password_confirmation: confirmation },
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
        {phone && (
          <p className="lead" role="status">
            {t('auth.forgot_texted', { phone })}
          </p>
        )}
        {/* A message the field shows already (a wrong code) is not said twice. */}
        <ErrorBox
          messages={problemMessages(problem, t, 'auth.reset_failed').filter(
            (message) => ![invalid.code, invalid.password, invalid.password_confirmation].includes(message),
          )}
        />
        {(invalid.token || invalid.code || (!token && !phone)) && (
          <p>
            <Link to={paths.forgotPassword}>{phone ? t('auth.reset_ask_code') : t('auth.reset_ask_again')}</Link>
          </p>
        )}
        {phone && (
          <TextField
            label={t('fields.reset_code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            error={invalid.code}
            onChange={(e) => setCode(e.target.value)}
          />
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
        <button type="submit" className="button wide" disabled={busy || (!token && !phone)}>
          {busy ? t('common.saving') : t('auth.reset_save')}
        </button>
      </form>
    </section>
  );
}
