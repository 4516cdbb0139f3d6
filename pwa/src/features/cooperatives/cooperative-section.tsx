// The dashboard's cooperatives (docs/cooperatives.md): a farmer's memberships and the
// cooperatives they may ask to join; a member's deliveries with their corrections and
// disputes; a manager's weigh-in, which works without a signal, and the people asking
// to join. What was last fetched stays on the phone for a collection point offline.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField } from '../../components/form';
import { ExportButton } from '../../components/export-button';
import { Fold } from '../../components/fold';
import { errorMessages } from '../../lib/error-text';
import { formatDate, formatDay, formatMoney, numberFormat } from '../../lib/format';
import type { LocalDb } from '../../lib/sync/local-db';
import type { User } from '../../lib/account';
import {
  answerMember,
  askToJoin,
  disputeDelivery,
  managed,
  refreshCooperatives,
  refreshMyDeliveries,
  setOrigin,
  useMyDeliveries,
  useSavedCooperatives,
  useWeighInsWaiting,
  type Delivery,
  type Membership,
} from '../../lib/entities/cooperatives';
import { WeighIn } from './weigh-in';
import { CooperativeLots } from './lots';
import { CooperativeMoney } from './money';
import { OpenDisputes } from './disputes';
import { currentLanguage } from '../../lib/i18n';

/** The entries of the day at a glance: how many, how many kilograms (corrections applied). */
function TodayLine({ entries }: { entries: Delivery[] | undefined }) {
  const { t } = useTranslation();
  if (!entries) return null;
  const counting = entries.filter((d) => d.replaced_by === null && Number(d.kilograms) > 0);
  const kilograms = counting.reduce((sum, d) => sum + Number(d.kilograms), 0);
  return (
    <p className="muted">
      {t('cooperative.today', { count: counting.length, kilograms: Math.round(kilograms * 10) / 10 })}
    </p>
  );
}

/** A position further off than this (metres) may be a neighbour's field: a smallholder's
 * plot is often under a hectare, about 100 m across. */
const IMPRECISE_METRES = 50;

/** The crops a buyer selling into the European Union must know the plots of (the EU
 * deforestation regulation's, of those a cooperative here delivers). */
const forTheEu = (crop: string) => crop === 'coffee' || crop === 'cocoa';

/** Why the phone gave no position, as the browser says (GeolocationPositionError's codes). */
type NoPosition = 'denied' | 'unavailable' | 'timeout' | 'unsupported';
const NO_POSITION: Record<number, NoPosition> = { 1: 'denied', 2: 'unavailable', 3: 'timeout' };

interface Found {
  latitude: number;
  longitude: number;
  /** Metres, as the phone estimates them. */
  accuracy: number;
}

/** A member's plot for their lots' origin: the phone's position, shown with how precise
 * it is before it is saved (and taken again if it is not), and whether buyers may read
 * their name. When there is no position, why and what to do. */
function PlotLine({
  membership: m,
  forEurope,
  act,
}: {
  membership: Membership;
  /** Its cooperative delivers coffee or cocoa: buyers for Europe must have the plot. */
  forEurope: boolean | undefined;
  act: (action: () => Promise<unknown>) => void;
}) {
  const { t } = useTranslation();
  const [locating, setLocating] = useState(false);
  const [found, setFound] = useState<Found | null>(null);
  const [problem, setProblem] = useState<NoPosition | null>(null);
  const locate = () => {
    setFound(null);
    setProblem(null);
    if (!('geolocation' in navigator)) return setProblem('unsupported');
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating(false);
        setFound({ latitude: coords.latitude, longitude: coords.longitude, accuracy: Math.round(coords.accuracy) });
      },
      (error) => {
        setLocating(false);
        setProblem(NO_POSITION[error.code] ?? 'unavailable');
      },
      { enableHighAccuracy: true, timeout: 30_000, maximumAge: 0 },
    );
  };
  const save = (place: Found) => {
    setFound(null);
    act(() =>
      setOrigin(m.cooperative_id, {
        latitude: place.latitude,
        longitude: place.longitude,
        named_in_origin: m.named_in_origin,
      }),
    );
  };
  const plot = m.plot;
  const metres = (n: number) => numberFormat({ style: 'unit', unit: 'meter', unitDisplay: 'short' }).format(n);
  return (
    <div className="stack plot-line">
      <p className="muted">
        {plot
          ? t('cooperative.plot.recorded', { latitude: plot.latitude.toFixed(5), longitude: plot.longitude.toFixed(5) })
          : t(forEurope ? 'cooperative.plot.none' : 'cooperative.plot.none_other')}
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={m.named_in_origin}
          onChange={(event) =>
            act(() => setOrigin(m.cooperative_id, { ...plot, named_in_origin: event.target.checked }))
          }
        />{' '}
        {t('cooperative.plot.named')}
      </label>
      {found && (
        <div className="stack" role="status">
          <p>
            {t('cooperative.plot.found', {
              latitude: found.latitude.toFixed(5),
              longitude: found.longitude.toFixed(5),
              accuracy: metres(found.accuracy),
            })}
          </p>
          {found.accuracy > IMPRECISE_METRES && <p className="notice">{t('cooperative.plot.imprecise')}</p>}
          <div className="row wrap">
            <button type="button" className="button small" onClick={() => save(found)}>
              {t('cooperative.plot.save')}
            </button>
            <button type="button" className="button secondary small" onClick={locate}>
              {t('cooperative.plot.again')}
            </button>
          </div>
        </div>
      )}
      {problem && (
        <p className="error" role="alert">
          {t(`cooperative.plot.${problem}`)}
        </p>
      )}
      {!found && (
        <button type="button" className="button secondary small" onClick={locate} disabled={locating}>
          {locating ? t('cooperative.plot.locating') : t('cooperative.plot.record')}
        </button>
      )}
    </div>
  );
}

export function CooperativeSection({
  db,
  user,
  sales,
}: {
  db: LocalDb;
  user: User;
  /** The orders a seller has, shown as a farmer's are (the dashboard composes them). */
  sales?: (sellerId: number, title: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const saved = useSavedCooperatives(db);
  const [failed, setFailed] = useState<unknown>(null);
  const [acting, setActing] = useState<unknown>(null);
  const refresh = () =>
    Promise.all([refreshCooperatives(db), user.role === 'farmer' ? refreshMyDeliveries(db) : null]).then(
      () => setFailed(null),
      setFailed,
    );
  useEffect(() => {
    void refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening
  }, [db]);
  const act = (action: () => Promise<unknown>) => action().then(() => refresh().then(() => setActing(null)), setActing);
  // Weigh-ins sent meanwhile are in the books now: the day's figures and the stock follow.
  const waiting = useWeighInsWaiting(db);
  const waited = useRef(waiting);
  useEffect(() => {
    if (waited.current !== undefined && waiting !== undefined && waiting < waited.current) void refresh();
    waited.current = waiting;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- when the queue shrinks
  }, [waiting]);

  const mine = saved?.memberships ?? [];
  const named = (id: number) => saved?.cooperatives.find((c) => c.id === id)?.name ?? `#${id}`;
  const joinable = (saved?.cooperatives ?? []).filter(
    (c) => c.status === 'active' && !mine.some((m) => m.cooperative_id === c.id && m.status !== 'removed'),
  );
  const manages = managed(saved);
  const asking = manages.flatMap((c) =>
    (saved?.members[c.id] ?? []).filter((m) => m.status === 'asked').map((m) => ({ ...m, name: c.name })),
  );
  return (
    <div className="stack">
      {failed !== null && (
        <p className="notice" role="status">
          {saved
            ? t('cooperative.saved_copy', { time: formatDate(saved.savedAt, 'time') })
            : t('cooperative.never_saved')}
        </p>
      )}
      <ErrorBox messages={acting ? errorMessages(acting, t, 'cooperative.action_failed') : []} />
      {/* What waits for a manager's decision first. */}
      {asking.length > 0 && (
        <section className="card" aria-labelledby="coop-asking">
          <h2 id="coop-asking">{t('cooperative.asking')}</h2>
          <ul className="list">
            {asking.map((m) => (
              <li key={`${m.cooperative_id}-${m.user_id}`} className="list-row">
                <div>
                  <strong>
                    {m.first_name} {m.last_name}
                  </strong>
                  <p className="muted">
                    {m.name}
                    {m.location ? ` · ${m.location}` : ''}
                  </p>
                </div>
                <span className="actions">
                  <button
                    type="button"
                    className="button small"
                    onClick={() => act(() => answerMember(db, m.cooperative_id, m.user_id, 'active'))}
                  >
                    {t('cooperative.accept')}
                  </button>
                  <button
                    type="button"
                    className="button secondary small"
                    onClick={() => act(() => answerMember(db, m.cooperative_id, m.user_id, 'removed'))}
                  >
                    {t('cooperative.decline')}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {manages.length > 0 && saved?.disputes && (
        <OpenDisputes db={db} cooperatives={manages} disputes={saved.disputes} onAnswered={refresh} />
      )}
      {user.role === 'farmer' && <MyDeliveries db={db} />}
      {manages.length > 0 && saved && <WeighIn db={db} cooperatives={manages} members={saved.members} />}
      {manages.length > 0 && (
        <section className="card" aria-labelledby="coop-books">
          <h2 id="coop-books">{t('cooperative.books')}</h2>
          <ul className="list">
            {manages.map((c) => (
              <li key={c.id} className="list-row column">
                <strong>{c.name}</strong>
                {/* What needs doing first; the rest folded (kept open once opened). */}
                <TodayLine entries={saved?.today?.[c.id]} />
                {(saved?.disputes?.[c.id]?.length ?? 0) > 0 && (
                  <p className="muted">
                    {t('cooperative.disputes.waiting', { count: saved?.disputes?.[c.id]?.length ?? 0 })}
                  </p>
                )}
                {c.seller_id !== null && sales?.(c.seller_id, t('cooperative.lots.orders', { coop: c.name }))}
                <Fold id={`coop-books-${c.id}`} summary={t('cooperative.fold', { coop: c.name })}>
                  {(saved?.stock?.[c.id] ?? []).map((s) => (
                    <p key={`${s.crop}-${s.grade}`} className="muted">
                      {t('cooperative.stock_line', {
                        crop: t(`crops.${s.crop}`, { defaultValue: s.crop }),
                        grade: s.grade,
                        kilograms: s.received_kilograms,
                        count: s.members,
                      })}{' '}
                      {t('cooperative.lots.stock_left', { kilograms: s.available_kilograms ?? s.received_kilograms })}
                      {s.sold_kilograms > 0 && ` ${t('cooperative.lots.stock_sold', { kilograms: s.sold_kilograms })}`}
                    </p>
                  ))}
                  <ExportButton
                    path={`/cooperatives/${c.id}/deliveries/export?lang=${currentLanguage()}`}
                    label={t('cooperative.download')}
                  />
                  <CooperativeLots
                    cooperative={c}
                    stock={saved?.stock?.[c.id] ?? []}
                    lots={saved?.lots?.[c.id] ?? []}
                    onMade={refresh}
                  />
                  {saved?.books?.[c.id] && (
                    <CooperativeMoney
                      cooperative={c}
                      books={saved.books[c.id]!}
                      payouts={saved.payouts?.[c.id] ?? []}
                      members={saved.members[c.id] ?? []}
                      onChanged={refresh}
                    />
                  )}
                </Fold>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="card" aria-labelledby="coop-mine">
        <h2 id="coop-mine">{t('cooperative.mine')}</h2>
        {mine.length === 0 ? (
          <p className="muted">{t('cooperative.none')}</p>
        ) : (
          <ul className="list">
            {mine.map((m) => (
              <li key={m.cooperative_id} className="list-row column">
                <div className="list-head">
                  <strong>{named(m.cooperative_id)}</strong>
                  <span
                    className={`badge ${m.status === 'active' ? 'green' : m.status === 'asked' ? 'yellow' : 'grey'}`}
                  >
                    {t(`cooperative.status.${m.role === 'manager' && m.status === 'active' ? 'manager' : m.status}`)}
                  </span>
                </div>
                {m.role === 'member' && m.status === 'active' && (
                  <PlotLine
                    membership={m}
                    forEurope={saved?.cooperatives.some((c) => c.id === m.cooperative_id && c.crops.some(forTheEu))}
                    act={act}
                  />
                )}
                {(() => {
                  const account = saved?.myAccounts?.find((a) => a.cooperative_id === m.cooperative_id);
                  return account && account.shares_cents > 0 ? (
                    <p className="muted">
                      {t('cooperative.money.mine', {
                        coop: named(m.cooperative_id),
                        owed: formatMoney(account.owed_cents / 100),
                        paid: formatMoney(account.paid_cents / 100),
                      })}
                    </p>
                  ) : null;
                })()}
              </li>
            ))}
          </ul>
        )}
      </section>
      {user.role === 'farmer' && joinable.length > 0 && (
        <section className="card" aria-labelledby="coop-join">
          <h2 id="coop-join">{t('cooperative.join_title')}</h2>
          <ul className="list">
            {joinable.map((c) => (
              <li key={c.id} className="list-row">
                <div>
                  <strong>{c.name}</strong>
                  <p className="muted">
                    {c.territory} · {t('cooperative.members', { count: c.members })}
                    {c.crops.length > 0 &&
                      ` · ${c.crops.map((crop) => t(`crops.${crop}`, { defaultValue: crop })).join(', ')}`}
                  </p>
                  {c.description && <p>{c.description}</p>}
                </div>
                <button type="button" className="button small" onClick={() => act(() => askToJoin(c.id))}>
                  {t('cooperative.ask_to_join')}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The member's own entries in every cooperative, with corrections and disputes. */
function MyDeliveries({ db }: { db: LocalDb }) {
  const { t } = useTranslation();
  const kept = useMyDeliveries(db);
  const [disputing, setDisputing] = useState<number | null>(null);
  if (!kept || kept.data.length === 0) return null;
  return (
    <section className="card" aria-labelledby="coop-deliveries">
      <h2 id="coop-deliveries">{t('cooperative.deliveries')}</h2>
      <ul className="list">
        {kept.data.map((d) => (
          <li key={d.id} className="list-row column">
            <div>
              <strong>
                {d.reference}: {d.kilograms} kg {t(`crops.${d.crop}`, { defaultValue: d.crop })} (
                {t('cooperative.grade_value', { grade: d.grade })})
              </strong>
              <p className="muted">
                {d.cooperative_name} · {d.place} · {formatDay(d.delivered_on)}
              </p>
              {d.replaced_by !== null && <p className="muted">{t('cooperative.replaced')}</p>}
              {d.note && <p className="muted">{t('cooperative.correction_note', { note: d.note })}</p>}
              {d.dispute && (
                <p className="notice" role="status">
                  {t(`cooperative.dispute_${d.dispute.answer ?? 'open'}`, { note: d.dispute.answer_note ?? '' })}
                </p>
              )}
            </div>
            {d.replaced_by === null && !d.dispute && disputing !== d.id && (
              <button type="button" className="button secondary small" onClick={() => setDisputing(d.id)}>
                {t('cooperative.dispute')}
              </button>
            )}
            {disputing === d.id && <DisputeForm db={db} delivery={d} onDone={() => setDisputing(null)} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

function DisputeForm({ db, delivery, onDone }: { db: LocalDb; delivery: Delivery; onDone: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await disputeDelivery(db, delivery.id, reason);
      onDone();
    } catch (error) {
      setProblem(error);
    }
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <ErrorBox messages={problem ? errorMessages(problem, t, 'cooperative.action_failed') : []} />
      <TextField
        label={t('cooperative.dispute_reason', { reference: delivery.reference })}
        required
        maxLength={300}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="actions">
        <button type="submit" className="button small">
          {t('cooperative.dispute_send')}
        </button>
        <button type="button" className="button secondary small" onClick={onDone}>
          {t('cooperative.cancel')}
        </button>
      </div>
    </form>
  );
}
