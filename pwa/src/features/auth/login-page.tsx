import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { ErrorBox, TextField, useFocusFirstInvalid } from '../../components/form';
import { fieldProblems, problemMessages, type Problem } from '../../lib/error-text';
import { useSession } from '../../lib/session';
import { validateLogin } from '../../lib/validation';
import { usePageHead } from '../../lib/page-head';

export function LoginPage() {
  usePageHead('login');
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  // The cart sends people here to sign in before checkout, and gets them back.
  const from = (useLocation().state as { from?: string } | null)?.from;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [problem, setProblem] = useState<Problem>(null);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);
  const invalid = fieldProblems(problem, t, ['email', 'password']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const codes = validateLogin(email, password);
    if (codes.length > 0) {
      setProblem({ codes });
      setAttempt((n) => n + 1);
      return;
    }
    setSubmitting(true);
    setProblem(null);
    try {
      await login(email.trim(), password);
      navigate(from === paths.cart ? paths.cart : paths.dashboard, { replace: true });
    } catch (error) {
      setProblem({ error });
      setAttempt((n) => n + 1);
      setSubmitting(false);
    }
  };

  return (
    <section className="page narrow auth-page">
      <h1>{t('auth.login_title')}</h1>
      <p className="lead">{t('auth.login_intro')}</p>
      <form ref={formRef} onSubmit={submit} noValidate className="card form">
        <ErrorBox messages={problemMessages(problem, t, 'auth.login_failed')} />
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          error={invalid.email}
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
        <button type="submit" className="button wide" disabled={submitting}>
          {submitting ? t('auth.signing_in') : t('auth.sign_in')}
        </button>
        <p className="form-footer">
          {t('auth.no_account')} <Link to={paths.register}>{t('auth.create_account')}</Link>
        </p>
      </form>
    </section>
  );
}
