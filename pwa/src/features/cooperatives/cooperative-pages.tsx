// The cooperatives' public pages (docs/cooperatives.md): the list of active ones, and
// one cooperative's page (where, how many members, what they bring, its lots on sale),
// the markup of their first screens (server/src/web/first_screen/cooperatives.rs). Lots
// come from the phone's catalogue; a signed-in farmer asks to join from here.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useLiveQuery } from 'dexie-react-hooks';
import { api } from '../../lib/api';
import { usePageHead } from '../../lib/page-head';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useCatalogueDb } from '../../lib/sync/provider';
import { errorMessages } from '../../lib/error-text';
import { productTitle } from '../../lib/entities/products';
import { askToJoin, type Cooperative } from '../../lib/entities/cooperatives';
import { Price, unitCounted } from '../../components/product-parts';
import { LotLine } from '../../components/lot-note';
import { ErrorBox } from '../../components/form';
import { Spinner } from '../../components/spinner';

/** "Kabare · 3 members · Coffee, Beans", as the first screen writes it. */
function summary(c: Cooperative, t: TFunction): string {
  const crops = c.crops.map((crop) => t(`crops.${crop}`, { defaultValue: crop })).join(', ');
  return [c.territory, t('cooperative.members', { count: c.members }), crops].filter(Boolean).join(' · ');
}

/** A public list or record, fetched; `null` when it cannot be had (offline, gone). */
function useFetched<T>(path: string): T | null | undefined {
  const [found, setFound] = useState<{ path: string; value: T | null }>();
  useEffect(() => {
    let live = true;
    api<{ data: T }>(path).then(
      (answer) => live && setFound({ path, value: answer.data }),
      () => live && setFound({ path, value: null }),
    );
    return () => {
      live = false;
    };
  }, [path]);
  return found?.path === path ? found.value : undefined;
}

export function CooperativesPage() {
  const { t } = useTranslation();
  usePageHead('cooperatives');
  const all = useFetched<Cooperative[]>('/cooperatives');
  return (
    <section className="page narrow cooperatives-page" aria-labelledby="coops-title">
      <h1 id="coops-title">{t('cooperative.public.title')}</h1>
      <p className="lead">{t('cooperative.public.intro')}</p>
      {all === undefined ? (
        <Spinner label={t('common.loading')} />
      ) : all === null ? (
        <p className="notice">{t('cooperative.never_saved')}</p>
      ) : all.length === 0 ? (
        <p>{t('cooperative.public.none')}</p>
      ) : (
        <ul className="list">
          {all.map((c) => (
            <li key={c.id} className="list-row column">
              <h2>
                <Link to={paths.cooperative(c.id)}>{c.name}</Link>
              </h2>
              <p className="muted">{summary(c, t)}</p>
              <p>{c.description}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function CooperativePage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const coop = useFetched<Cooperative>(`/cooperatives/${Number(id)}`);
  const db = useCatalogueDb();
  const lots = useLiveQuery(
    async () =>
      db
        ? (await db.products.toArray())
            .filter((p) => p.lot?.cooperative_id === Number(id) && p.status === 'active' && p.quantity > 0)
            .sort((a, b) => (b.id ?? 0) - (a.id ?? 0))
        : [],
    [db, id],
  );
  usePageHead(
    'cooperative',
    coop === undefined ? 'loading' : coop && { title: coop.name, description: coop.description },
  );
  if (coop === undefined) return <Spinner label={t('common.loading')} />;
  if (coop === null || coop.status !== 'active') {
    return (
      <section className="page narrow coming-soon">
        <h1>{t('cooperative.public.none')}</h1>
        <Link className="button" to={paths.cooperatives}>
          {t('cooperative.public.all')}
        </Link>
      </section>
    );
  }
  return (
    <article className="page narrow cooperative-page" aria-labelledby="coop-title">
      <Link to={paths.cooperatives}>← {t('cooperative.public.all')}</Link>
      <h1 id="coop-title">{coop.name}</h1>
      <p className="muted">{summary(coop, t)}</p>
      <p className="muted">{t('cooperative.public.market', { market: coop.market_name })}</p>
      <p>{coop.description}</p>
      <h2>{t('cooperative.public.on_sale')}</h2>
      {lots && lots.length > 0 ? (
        <ul className="list">
          {lots.map((p) => (
            <li key={p.uid} className="list-row">
              <div>
                <Link to={paths.product(p.id!)}>
                  <strong>{productTitle(p, i18n.resolvedLanguage)}</strong>
                </Link>
                {p.lot && <LotLine lot={p.lot} />}
                <p className="muted">
                  {t('market.in_stock', { count: p.quantity, unit: unitCounted(t, p.unit, p.quantity) })}
                </p>
              </div>
              <Price product={p} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('cooperative.public.nothing_on_sale')}</p>
      )}
      <Join cooperativeId={coop.id} />
    </article>
  );
}

/** A signed-in farmer asks to join; anyone else reads how. */
function Join({ cooperativeId }: { cooperativeId: number }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [answer, setAnswer] = useState<'asked' | 'active' | 'removed' | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  if (user?.role !== 'farmer') return <p className="muted">{t('cooperative.public.join_hint')}</p>;
  if (answer === 'asked') return <p className="notice">{t('cooperative.public.asked')}</p>;
  if (answer === 'active') return <p className="notice">{t('cooperative.public.member')}</p>;
  return (
    <div className="stack">
      <ErrorBox messages={failed ? errorMessages(failed, t, 'cooperative.action_failed') : []} />
      <button
        type="button"
        className="button"
        onClick={() =>
          askToJoin(cooperativeId).then(
            (r) => setAnswer((r as { data: { status: 'asked' | 'active' | 'removed' } }).data.status),
            setFailed,
          )
        }
      >
        {t('cooperative.public.ask_to_join')}
      </button>
    </div>
  );
}
