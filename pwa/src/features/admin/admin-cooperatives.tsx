// Cooperatives for admins (docs/cooperatives.md): make one (name, territory, the market
// where its sales count, description, its own fee), edit it, suspend or reactivate it,
// and name or unname its managers (farmers or field agents, found by name or number).
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, SelectField, TextField } from '../../components/form';
import { Spinner } from '../../components/spinner';
import { api } from '../../lib/api';
import { errorMessages, fieldProblems } from '../../lib/error-text';
import type { User } from '../../lib/account';
import type { Cooperative, Membership } from '../../lib/entities/cooperatives';
import type { Market } from '../../lib/entities/prices';

type AdminCooperative = Cooperative & { market_id: number };

const FIELDS = ['name', 'territory', 'market_id', 'description', 'fee_percent'] as const;
type Values = Record<(typeof FIELDS)[number], string>;
const blank: Values = { name: '', territory: '', market_id: '', description: '', fee_percent: '0' };

export function AdminCooperatives() {
  const { t } = useTranslation();
  const [all, setAll] = useState<AdminCooperative[] | null>(null);
  const [markets, setMarkets] = useState<Market[]>([]);
  const [values, setValues] = useState<Values>(blank);
  const [editing, setEditing] = useState<number | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const load = () =>
    Promise.all([
      api<{ data: AdminCooperative[] }>('/admin/cooperatives'),
      api<{ data: Market[] }>('/prices/markets'),
    ]).then(([cooperatives, found]) => {
      setAll(cooperatives.data);
      setMarkets(found.data);
      setFailed(null);
    }, setFailed);
  useEffect(() => {
    void load();
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const body = {
      name: values.name,
      territory: values.territory,
      market_id: values.market_id ? Number(values.market_id) : null,
      description: values.description,
      fee_percent: Number(values.fee_percent.replace(',', '.')),
    };
    try {
      await api(editing === null ? '/admin/cooperatives' : `/admin/cooperatives/${editing}`, {
        method: editing === null ? 'POST' : 'PATCH',
        json: editing === null ? body : { ...body, status: all?.find((c) => c.id === editing)?.status },
      });
      setValues(blank);
      setEditing(null);
      await load();
    } catch (caught) {
      setProblem(caught);
    }
  };
  const setStatus = (c: AdminCooperative, status: 'active' | 'suspended') =>
    api(`/admin/cooperatives/${c.id}`, {
      method: 'PATCH',
      json: {
        name: c.name,
        territory: c.territory,
        market_id: c.market_id,
        description: c.description,
        fee_percent: c.fee_percent,
        status,
      },
    }).then(load, setFailed);

  const invalid = fieldProblems(problem ? { error: problem } : null, t, FIELDS);
  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  if (all === null && !failed) return <Spinner label={t('common.loading')} />;
  return (
    <div className="stack">
      <ErrorBox messages={failed ? errorMessages(failed, t, 'cooperative.action_failed') : []} />
      <form className="card form" onSubmit={(e) => void save(e)} noValidate>
        <h2>{editing === null ? t('admin.cooperatives.new') : t('admin.cooperatives.edit')}</h2>
        <ErrorBox
          messages={
            problem && Object.keys(invalid).length === 0 ? errorMessages(problem, t, 'cooperative.action_failed') : []
          }
        />
        <TextField
          label={t('admin.cooperatives.name')}
          value={values.name}
          onChange={set('name')}
          error={invalid.name}
          maxLength={80}
          required
        />
        <TextField
          label={t('admin.cooperatives.territory')}
          value={values.territory}
          onChange={set('territory')}
          error={invalid.territory}
          maxLength={60}
          required
        />
        <SelectField
          label={t('admin.cooperatives.market')}
          value={values.market_id}
          onChange={set('market_id')}
          error={invalid.market_id}
          required
        >
          <option value="">{t('admin.cooperatives.choose_market')}</option>
          {markets.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name} ({m.territory})
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('admin.cooperatives.description')}
          value={values.description}
          onChange={set('description')}
          error={invalid.description}
          maxLength={1000}
        />
        <TextField
          label={t('admin.cooperatives.fee')}
          inputMode="decimal"
          value={values.fee_percent}
          onChange={set('fee_percent')}
          error={invalid.fee_percent}
        />
        <span className="actions">
          <button type="submit" className="button">
            {editing === null ? t('admin.cooperatives.create') : t('admin.cooperatives.save')}
          </button>
          {editing !== null && (
            <button
              type="button"
              className="button secondary"
              onClick={() => {
                setEditing(null);
                setValues(blank);
                setProblem(null);
              }}
            >
              {t('cooperative.cancel')}
            </button>
          )}
        </span>
      </form>
      <ul className="list card">
        {(all ?? []).map((c) => (
          <li key={c.id} className="list-row column">
            <div className="list-head">
              <strong>{c.name}</strong>
              <span className={`badge ${c.status === 'active' ? 'green' : 'grey'}`}>
                {t(`admin.cooperatives.status.${c.status}`)}
              </span>
            </div>
            <p className="muted">
              {c.territory} · {c.market_name} · {t('cooperative.members', { count: c.members })} ·{' '}
              {t('admin.cooperatives.fee_value', { fee: c.fee_percent })}
            </p>
            {(c.open_disputes ?? 0) > 0 && (
              <p className="muted">{t('cooperative.disputes.waiting', { count: c.open_disputes ?? 0 })}</p>
            )}
            <span className="actions">
              <button
                type="button"
                className="button secondary small"
                onClick={() => {
                  setEditing(c.id);
                  setProblem(null);
                  setValues({
                    name: c.name,
                    territory: c.territory,
                    market_id: String(c.market_id),
                    description: c.description,
                    fee_percent: String(c.fee_percent),
                  });
                  window.scrollTo({ top: 0 });
                }}
              >
                {t('admin.cooperatives.edit_button')}
              </button>
              <button
                type="button"
                className="button secondary small"
                onClick={() => void setStatus(c, c.status === 'active' ? 'suspended' : 'active')}
              >
                {c.status === 'active' ? t('admin.cooperatives.suspend') : t('admin.cooperatives.reactivate')}
              </button>
            </span>
            <Managers cooperative={c} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A cooperative's managers, and naming one: a farmer or field agent found by name or number. */
function Managers({ cooperative }: { cooperative: AdminCooperative }) {
  const { t } = useTranslation();
  const [people, setPeople] = useState<Membership[] | null>(null);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<User[] | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const load = () =>
    api<{ data: Membership[] }>(`/cooperatives/${cooperative.id}/members`).then((r) => setPeople(r.data), setFailed);
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per cooperative
  }, [cooperative.id]);
  const name = (person: number, member: Partial<Membership>) =>
    api(`/cooperatives/${cooperative.id}/members/${person}`, { method: 'PUT', json: member }).then(() => {
      setFound(null);
      setQuery('');
      setFailed(null);
      return load();
    }, setFailed);
  const search = async (event: FormEvent) => {
    event.preventDefault();
    const q = encodeURIComponent(query.trim());
    try {
      const [agents, farmers] = await Promise.all([
        api<User[]>(`/admin/users?q=${q}&role=field_agent&status=active`),
        api<User[]>(`/admin/users?q=${q}&role=farmer&status=active`),
      ]);
      setFound([...agents, ...farmers].slice(0, 10));
    } catch (caught) {
      setFailed(caught);
    }
  };
  const managers = (people ?? []).filter((m) => m.role === 'manager' && m.status === 'active');
  return (
    <div className="stack">
      <ErrorBox messages={failed ? errorMessages(failed, t, 'cooperative.action_failed') : []} />
      <p className="muted">
        {managers.length === 0
          ? t('admin.cooperatives.no_manager')
          : t('admin.cooperatives.managers', {
              names: managers.map((m) => `${m.first_name} ${m.last_name}`).join(', '),
            })}
      </p>
      {managers.map((m) => (
        <button
          key={m.user_id}
          type="button"
          className="button secondary small"
          onClick={() => void name(m.user_id, m.farmer ? { role: 'member', status: 'active' } : { status: 'removed' })}
        >
          {t('admin.cooperatives.unname', { name: `${m.first_name} ${m.last_name}` })}
        </button>
      ))}
      <form className="stack" onSubmit={(e) => void search(e)}>
        <TextField label={t('admin.cooperatives.find')} value={query} onChange={(e) => setQuery(e.target.value)} />
        <span className="actions">
          <button type="submit" className="button secondary small" disabled={!query.trim()}>
            {t('admin.search')}
          </button>
        </span>
      </form>
      {found && found.length === 0 && <p className="muted">{t('admin.cooperatives.nobody')}</p>}
      {found?.map((person) => (
        <div key={person.id} className="list-head">
          <span>
            {person.first_name} {person.last_name} · {t(`roles.${person.role}`)}
          </span>
          <button
            type="button"
            className="button small"
            onClick={() => void name(person.id, { role: 'manager', status: 'active' })}
          >
            {t('admin.cooperatives.name_manager')}
          </button>
        </div>
      ))}
    </div>
  );
}
