// The signed-in person's profile (docs/product.md, Screens, "Profile"): view, edit,
// change password, delete, quick actions and sign out. Used on /profile and
// as the dashboard's profile section.
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { Avatar } from '../../components/avatar';
import { ConfirmDialog } from '../../components/dialog';
import { ErrorBox, ImagePicker, TextField, useFormSend } from '../../components/form';
import { BookIcon, EditIcon, KeyIcon, LogoutIcon, ReceiptIcon, StoreIcon, TrashIcon } from '../../components/icons';
import { useToast } from '../../components/toast';
import { errorMessages, fieldProblems, problemMessages } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { useImagePick } from '../../lib/image-pick';
import { useSession, useSignOut } from '../../lib/session';
import { displayName, type User } from '../../lib/account';
import { checkPassword, looksLikeEmail } from '../../lib/validation';
import { deleteAccount, updateProfile } from './api';
import { roleBadgeClass } from './labels';
import { CountryField } from '../../components/country-field';
import { PriceAlerts } from './price-alerts';
import './profile.css';

export function ProfilePanel() {
  const { t } = useTranslation();
  const { user } = useSession();
  const signOut = useSignOut();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  if (!user) return null;

  const removeAccount = async () => {
    setDeleting(true);
    try {
      await deleteAccount();
      setConfirmDelete(false);
      await signOut();
    } catch (error) {
      setConfirmDelete(false);
      toast('error', errorMessages(error, t, 'profile.delete_failed').join(' '));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <div className="profile">
      {editing ? <ProfileForm user={user} onDone={() => setEditing(false)} /> : <ProfileView user={user} />}
      {!editing && (
        <div className="actions">
          <button type="button" className="button" onClick={() => setEditing(true)}>
            <EditIcon /> {t('profile.edit')}
          </button>
        </div>
      )}

      <PriceAlerts />
      <section className="card" aria-labelledby="quick-actions">
        <h2 id="quick-actions">{t('profile.quick_actions')}</h2>
        <div className="tiles">
          <Link className="tile" to={paths.orders}>
            <ReceiptIcon /> {t('nav.orders')}
          </Link>
          <Link className="tile" to={paths.marketplace}>
            <StoreIcon /> {t('nav.marketplace')}
          </Link>
          <Link className="tile" to={paths.training}>
            <BookIcon /> {t('nav.training')}
          </Link>
        </div>
      </section>

      <section className="card" aria-labelledby="account-actions">
        <h2 id="account-actions">{t('profile.account_actions')}</h2>
        {changingPassword ? (
          <PasswordForm onDone={() => setChangingPassword(false)} />
        ) : (
          <div className="actions">
            <button type="button" className="button secondary" onClick={() => setChangingPassword(true)}>
              <KeyIcon /> {t('profile.change_password')}
            </button>
            <button type="button" className="button secondary" onClick={() => void signOut()}>
              <LogoutIcon /> {t('nav.logout')}
            </button>
          </div>
        )}
      </section>

      {/* Far from Edit, under its own heading: deleting is never a slip of the thumb. */}
      <section className="card danger-zone" aria-labelledby="delete-account">
        <h2 id="delete-account">{t('profile.danger_title')}</h2>
        <p className="muted">{t('profile.delete_warning')}</p>
        <button type="button" className="button danger-outline" onClick={() => setConfirmDelete(true)}>
          <TrashIcon /> {t('profile.delete')}
        </button>
      </section>

      <ConfirmDialog
        open={confirmDelete}
        title={t('profile.delete_title')}
        confirmLabel={t('profile.delete_confirm')}
        cancelLabel={t('common.cancel')}
        danger
        busy={deleting}
        onConfirm={() => void removeAccount()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>{t('profile.delete_warning')}</p>
      </ConfirmDialog>
    </div>
  );
}

function ProfileView({ user }: { user: User }) {
  const { t } = useTranslation();
  const missing = <span className="muted">{t('profile.not_provided')}</span>;
  const rows: [ParseKeys, ReactNode][] = [
    ['fields.email', user.email || missing],
    ['fields.phone_number', user.phone_number || missing],
    ['fields.country', user.country ? t(`countries.${user.country}`) : missing],
    ['fields.username', user.username || missing],
    ['fields.location', user.location || missing],
    [
      'profile.status',
      <span className={`badge ${user.status === 'active' ? 'green' : 'grey'}`}>{t(`statuses.${user.status}`)}</span>,
    ],
    ['profile.member_since', formatDate(user.created_at)],
    ['profile.last_updated', formatDate(user.updated_at)],
  ];
  return (
    <section className="card profile-view" aria-labelledby="profile-name">
      <div className="profile-head">
        <Avatar url={user.avatar_url} size={80} />
        <div>
          <h2 id="profile-name">{displayName(user)}</h2>
          <p className="muted">{t(`account_types.${user.role}`)}</p>
          <span className={roleBadgeClass(user.role)}>{t(`roles.${user.role}`)}</span>
        </div>
      </div>
      <dl className="details">
        {rows.map(([key, value]) => (
          <div key={key}>
            <dt>{t(key)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

type EditableField = 'first_name' | 'last_name' | 'email' | 'phone_number' | 'country' | 'username' | 'location';

function initialValues(user: User): Record<EditableField, string> {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email ?? '',
    phone_number: user.phone_number ?? '',
    country: user.country ?? '',
    username: user.username ?? '',
    location: user.location ?? '',
  };
}

const PROFILE_FIELDS = ['first_name', 'last_name', 'email', 'phone_number', 'current_password'] as const;
const PASSWORD_FIELDS = ['current_password', 'password', 'password_confirmation'] as const;

function ProfileForm({ user, onDone }: { user: User; onDone(): void }) {
  const { t } = useTranslation();
  const { updateUser } = useSession();
  const toast = useToast();
  const [values, setValues] = useState(() => initialValues(user));
  const [currentPassword, setCurrentPassword] = useState('');
  // A session saved before the setting existed has none: SMS updates are on.
  const [smsUpdates, setSmsUpdates] = useState(user.sms_updates !== false);
  const { problem, setProblem, busy: saving, form, send } = useFormSend();
  const avatar = useImagePick((codes) => setProblem(codes && { codes }));
  const invalid = fieldProblems(problem, t, PROFILE_FIELDS);
  // A new email or phone number needs the current password: each signs in and receives
  // reset links or codes, so a borrowed phone must not be enough to take the account.
  const emailChanged = values.email.trim().toLowerCase() !== (user.email ?? '').toLowerCase();
  const phoneChanged = values.phone_number.trim() !== (user.phone_number ?? '');
  const needsPassword =
    (emailChanged && values.email.trim() !== '') || (phoneChanged && values.phone_number.trim() !== '');

  const set = (field: EditableField) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const codes: string[] = [];
    if (!values.first_name.trim()) codes.push('first_name_required');
    if (!values.last_name.trim()) codes.push('last_name_required');
    // The email is optional (an account may have a phone number only); blank keeps the current one.
    if (values.email.trim() && !looksLikeEmail(values.email)) codes.push('email_invalid');
    if (needsPassword && !currentPassword) codes.push('current_password_required');
    const fields = {
      ...values,
      sms_updates: String(smsUpdates),
      ...(needsPassword ? { current_password: currentPassword } : {}),
    };
    // A refusal stays in the form, scrolled to and focused (useFormSend), not in a toast.
    if (await send(codes, async () => updateUser(await updateProfile(fields, avatar.file)))) {
      toast('success', t('profile.updated'));
      onDone();
    }
  };

  return (
    <form ref={form} className="card form" onSubmit={submit} noValidate aria-labelledby="edit-profile">
      <h2 id="edit-profile">{t('profile.edit_title')}</h2>
      <ErrorBox messages={problemMessages(problem, t, 'profile.update_failed')} />
      <div className="field avatar-field">
        <Avatar url={avatar.preview ?? user.avatar_url} size={64} />
        <ImagePicker
          label={t('fields.avatar')}
          buttonLabel={t('fields.choose_picture')}
          fileName={avatar.file?.name ?? null}
          onChange={avatar.pick}
        />
      </div>
      <div className="field-row">
        <TextField
          label={t('fields.first_name')}
          required
          autoComplete="given-name"
          value={values.first_name}
          error={invalid.first_name}
          onChange={set('first_name')}
        />
        <TextField
          label={t('fields.last_name')}
          required
          autoComplete="family-name"
          value={values.last_name}
          error={invalid.last_name}
          onChange={set('last_name')}
        />
      </div>
      <TextField
        label={t('fields.email_optional')}
        type="email"
        autoComplete="email"
        value={values.email}
        error={invalid.email}
        onChange={set('email')}
      />
      <TextField
        label={t('fields.phone_number')}
        type="tel"
        autoComplete="tel"
        value={values.phone_number}
        error={invalid.phone_number}
        onChange={set('phone_number')}
      />
      {needsPassword && (
        <CurrentPasswordField value={currentPassword} onChange={setCurrentPassword} error={invalid.current_password} />
      )}
      <CountryField blank={t('fields.choose_country')} value={values.country} onChange={set('country')} />
      <TextField
        label={t('fields.username')}
        autoComplete="username"
        value={values.username}
        onChange={set('username')}
      />
      <TextField label={t('fields.location')} value={values.location} onChange={set('location')} />
      <label className="checkbox">
        <input type="checkbox" checked={smsUpdates} onChange={(event) => setSmsUpdates(event.target.checked)} />
        <span>{t('profile.sms_updates')}</span>
      </label>
      <div className="actions">
        <button type="submit" className="button" disabled={saving}>
          {saving ? t('common.saving') : t('profile.save')}
        </button>
        <button type="button" className="button secondary" onClick={onDone} disabled={saving}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function PasswordForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const { updateUser } = useSession();
  const toast = useToast();
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { problem, busy: saving, form, send } = useFormSend();
  const invalid = fieldProblems(problem, t, PASSWORD_FIELDS);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const codes = [...(currentPassword ? [] : ['current_password_required']), ...checkPassword(password, confirmation)];
    const fields = { current_password: currentPassword, password, password_confirmation: confirmation };
    if (await send(codes, async () => updateUser(await updateProfile(fields, null)))) {
      toast('success', t('profile.password_changed'));
      onDone();
    }
  };

  return (
    <form ref={form} className="form" onSubmit={submit} noValidate aria-labelledby="change-password">
      <h3 id="change-password">{t('profile.change_password')}</h3>
      <p className="muted">{t('profile.password_note')}</p>
      <ErrorBox messages={problemMessages(problem, t, 'profile.update_failed')} />
      <CurrentPasswordField value={currentPassword} onChange={setCurrentPassword} error={invalid.current_password} />
      <TextField
        label={t('fields.new_password')}
        type="password"
        autoComplete="new-password"
        required
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
      <div className="actions">
        <button type="submit" className="button" disabled={saving}>
          {saving ? t('common.saving') : t('profile.save_password')}
        </button>
        <button type="button" className="button secondary" onClick={onDone} disabled={saving}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The current password, which changing the email or the password needs. */
function CurrentPasswordField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange(value: string): void;
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('fields.current_password')}
      type="password"
      autoComplete="current-password"
      required
      value={value}
      error={error}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
