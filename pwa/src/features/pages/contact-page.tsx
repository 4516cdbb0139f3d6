// Contact (docs/product.md, Screens): the message form is sent to the server, which
// keeps it for the team. Sending, success and error states; nothing typed is
// lost on an error.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField, useFormSend } from '../../components/form';
import { CheckIcon } from '../../components/icons';
import { ContactLines } from '../../components/contact-lines';
import { api } from '../../lib/api';
import { problemMessages } from '../../lib/error-text';
import { looksLikeEmail } from '../../lib/validation';
import { usePageHead } from '../../lib/page-head';

const EMPTY = { name: '', email: '', subject: '', message: '' };
type ContactField = keyof typeof EMPTY;

export function validateContact(values: typeof EMPTY): string[] {
  const codes: string[] = [];
  if (!values.name.trim()) codes.push('name_required');
  if (!values.email.trim()) codes.push('email_required');
  else if (!looksLikeEmail(values.email)) codes.push('email_invalid');
  if (!values.subject.trim()) codes.push('subject_required');
  if (!values.message.trim()) codes.push('message_required');
  return codes;
}

export function ContactPage() {
  usePageHead('contact');
  const { t } = useTranslation();
  const [values, setValues] = useState(EMPTY);
  const [sent, setSent] = useState(false);
  const { problem, busy: sending, form, send } = useFormSend();
  const set = (field: ContactField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    setSent(false);
    setValues((current) => ({ ...current, [field]: event.target.value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await send(validateContact(values), () => api('/contact', { method: 'POST', json: { contact: values } }))) {
      setValues(EMPTY);
      setSent(true);
    }
  };

  return (
    <div className="page contact">
      <h1>{t('contact.title')}</h1>
      <p className="lead">{t('contact.intro')}</p>
      <div className="cards-grid two">
        <section className="card" aria-labelledby="contact-where">
          <h2 id="contact-where">{t('contact.where')}</h2>
          <ContactLines />
        </section>
        <form ref={form} className="card form" onSubmit={submit} noValidate aria-labelledby="contact-form">
          <h2 id="contact-form">{t('contact.form_title')}</h2>
          {sent && (
            <p className="success-line" role="status">
              <CheckIcon /> {t('contact.sent')}
            </p>
          )}
          <ErrorBox messages={problemMessages(problem, t, 'contact.failed')} />
          <TextField label={t('fields.name')} required autoComplete="name" value={values.name} onChange={set('name')} />
          <TextField
            label={t('fields.email')}
            type="email"
            required
            autoComplete="email"
            value={values.email}
            onChange={set('email')}
          />
          <TextField label={t('fields.subject')} required value={values.subject} onChange={set('subject')} />
          <div className="field">
            <label htmlFor="contact-message">
              {t('fields.message')}
              <span className="required" aria-hidden="true">
                {' '}
                *
              </span>
            </label>
            <textarea id="contact-message" rows={6} required value={values.message} onChange={set('message')} />
          </div>
          <button type="submit" className="button wide" disabled={sending}>
            {sending ? t('contact.sending') : t('contact.send')}
          </button>
        </form>
      </div>
    </div>
  );
}
