import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, returnPath } from '../../lib/paths';
import { ErrorBox, TextField, useFormSend } from '../../components/form';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import { useSession } from '../../lib/session';
import { validateLogin } from '../../lib/validation';
import { usePageHead } from '../../lib/page-head';
import { prepareHome } from '../../lib/app-files';

/** The home's code is asked for once the person begins filling the form (`prepareHome`). */
export function LoginPage() {
  usePageHead('login');
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  // "Sign in to comment / to enrol / to check out" and the guarded pages send people
  // here, and get them back where they were; the server's first screens say where in
  // the address (`?next=`), since a plain link carries no state.
  const [query] = useSearchParams();
  const from = returnPath((useLocation().state as { from?: unknown } | null)?.from ?? query.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { problem, busy, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, ['email', 'phone_number', 'password']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const sending = send(validateLogin(email, password), () => login(email.trim(), password));
    // Pressed in the server's first screen, before the form here had the focus: the home's
    // code comes now, behind the sign-in itself (asked for first, on a link of few connections).
    prepareHome();
    if (await sending) {
      navigate(from ?? paths.dashboard, { replace: true });
    }
  };

  return (
    <section className="page narrow auth-page">
      <h1>{t('auth.login_title')}</h1>
      <p className="lead">{t('auth.login_intro')}</p>
      <form ref={form} onSubmit={submit} onFocus={prepareHome} noValidate className="card form">
        <ErrorBox messages={problemMessages(problem, t, 'auth.login_failed')} />
        <TextField
          label={t('fields.email_or_phone')}
          autoComplete="username"
          required
          value={email}
          error={invalid.email ?? invalid.phone_number}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          error={invalid.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p className="form-aside">
          <Link to={paths.forgotPassword}>{t('auth.forgot_link')}</Link>
        </p>
        <button type="submit" className="button wide" disabled={busy}>
          {busy ? t('auth.signing_in') : t('auth.sign_in')}
        </button>
        <p className="form-footer">
          {t('auth.no_account')} <Link to={paths.register}>{t('auth.create_account')}</Link>
        </p>
      </form>
    </section>
  );
}
