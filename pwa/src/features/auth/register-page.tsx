import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { Avatar } from '../../components/avatar';
import { Modal } from '../../components/dialog';
import { ErrorBox, ImagePicker, TextField, useFormSend, useIntoView } from '../../components/form';
import { TermsText } from '../../components/terms-text';
import { CheckIcon } from '../../components/icons';
import { fieldProblems, problemMessages } from '../../lib/error-text';
import { useImagePick } from '../../lib/image-pick';
import { useSession } from '../../lib/session';
import { validateRegistration, type RegistrationValues } from '../../lib/validation';
import { usePageHead } from '../../lib/page-head';
import { PersonFields } from '../../components/person-fields';

/** docs/product.md, Constants: after sign-up the person is taken home after 20 seconds. */
export const REDIRECT_SECONDS = 20;

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'country',
  'password',
  'password_confirmation',
  'terms',
] as const;

const EMPTY: RegistrationValues = {
  first_name: '',
  last_name: '',
  email: '',
  phone_number: '',
  country: '',
  password: '',
  password_confirmation: '',
  terms: false,
};

/**
 * Words with one `<tag>…</tag>` in them (the terms link in "I accept the <terms>terms of
 * use</terms>"), as the text before, inside and after it: the page draws the inside as its
 * own element. (react-i18next's `Trans` does this for any markup, but it and its HTML
 * parser, ~4.5 KB, would come with the app's first code on every first visit.)
 */
function aroundTag(text: string, tag: string): [string, string, string] {
  const [open, close] = [`<${tag}>`, `</${tag}>`];
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  if (start < 0 || end < 0) return [text, '', ''];
  return [text.slice(0, start), text.slice(start + open.length, end), text.slice(end + close.length)];
}

export function RegisterPage() {
  usePageHead('register');
  const { t } = useTranslation();
  const { register } = useSession();
  const [values, setValues] = useState(EMPTY);
  const { problem, setProblem, busy, form: formRef, send } = useFormSend();
  const [showTerms, setShowTerms] = useState(false);
  const invalid = fieldProblems(problem, t, FIELDS);
  const avatar = useImagePick((codes) => setProblem(codes && { codes }));
  const [done, setDone] = useState(false);
  const acceptTerms = aroundTag(t('auth.accept_terms'), 'terms');

  const set = (field: keyof RegistrationValues) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const target = event.target;
    const value = target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value;
    setValues((current) => ({ ...current, [field]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const form = new FormData();
    for (const field of ['first_name', 'last_name', 'email', 'phone_number', 'country'] as const) {
      form.append(`user[${field}]`, values[field].trim());
    }
    // Passwords are sent exactly as typed.
    form.append('user[password]', values.password);
    form.append('user[password_confirmation]', values.password_confirmation);
    if (avatar.file) form.append('user[avatar]', avatar.file);
    if (await send(validateRegistration(values), () => register(form))) {
      setValues(EMPTY);
      avatar.clear();
      setDone(true);
    }
  };

  if (done) return <Registered />;

  return (
    <section className="page narrow auth-page">
      <h1>{t('auth.register_title')}</h1>
      <p className="lead">{t('auth.register_intro')}</p>
      <form ref={formRef} onSubmit={submit} noValidate className="card form">
        <ErrorBox messages={problemMessages(problem, t, 'auth.register_failed')} />
        <PersonFields
          own
          values={values}
          invalid={invalid}
          set={set}
          afterName={
            <TextField
              label={t('fields.email_optional')}
              type="email"
              inputMode="email"
              autoComplete="email"
              value={values.email}
              error={invalid.email}
              onChange={set('email')}
            />
          }
        />
        <TextField
          label={t('fields.password')}
          type="password"
          autoComplete="new-password"
          required
          hint={t('fields.password_hint')}
          value={values.password}
          error={invalid.password}
          onChange={set('password')}
        />
        <TextField
          label={t('fields.password_confirmation')}
          type="password"
          autoComplete="new-password"
          required
          value={values.password_confirmation}
          error={invalid.password_confirmation}
          onChange={set('password_confirmation')}
        />
        <div className="field avatar-field">
          <Avatar url={avatar.preview} size={64} />
          <div>
            <ImagePicker
              label={t('fields.avatar_optional')}
              buttonLabel={t('fields.choose_picture')}
              fileName={avatar.file?.name ?? null}
              onChange={avatar.pick}
            />
            {avatar.file && (
              <button type="button" className="link-button" onClick={avatar.clear}>
                {t('common.remove')}
              </button>
            )}
          </div>
        </div>
        <div className={`field${invalid.terms ? ' has-error' : ''}`}>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={values.terms}
              onChange={set('terms')}
              aria-invalid={invalid.terms ? true : undefined}
              aria-describedby={invalid.terms ? 'terms-error' : undefined}
            />
            <span>
              {acceptTerms[0]}
              <button type="button" className="link-button inline" onClick={() => setShowTerms(true)}>
                {acceptTerms[1]}
              </button>
              {acceptTerms[2]}
            </span>
          </label>
          {invalid.terms && (
            <p className="field-error" id="terms-error">
              {invalid.terms}
            </p>
          )}
        </div>
        <button type="submit" className="button wide" disabled={busy}>
          {busy ? t('auth.creating_account') : t('auth.create_account')}
        </button>
        <p className="form-footer">
          {t('auth.have_account')} <Link to={paths.login}>{t('auth.sign_in')}</Link>
        </p>
      </form>
      {showTerms && (
        <Modal title={t('terms.title')} closeLabel={t('common.dismiss')} onClose={() => setShowTerms(false)}>
          <TermsText headingLevel={3} />
        </Modal>
      )}
    </section>
  );
}

function Registered() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [seconds, setSeconds] = useState(REDIRECT_SECONDS);
  useEffect(() => {
    if (seconds <= 0) {
      navigate(paths.home);
      return;
    }
    const timer = window.setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds, navigate]);
  const shown = useIntoView<HTMLDivElement>();
  return (
    <section className="page narrow auth-page">
      <div ref={shown} tabIndex={-1} className="card success-panel" role="status">
        <CheckIcon />
        <h1>{t('auth.register_success')}</h1>
        <p>{t('auth.redirect_notice', { seconds })}</p>
        <div className="actions">
          <Link to={paths.home} className="button">
            {t('auth.continue_now')}
          </Link>
          <Link to={paths.dashboard} className="button secondary">
            {t('nav.dashboard')}
          </Link>
        </div>
      </div>
    </section>
  );
}
