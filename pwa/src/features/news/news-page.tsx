// News (docs/news.md): the spec's banner and grid of posts, with search and category
// chips. It reads the posts on the device (the latest ones come by sync), so it
// filters as the person types and opens with no signal once loaded.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { useCatalogueDb } from '../../lib/sync/provider';
import { useSyncedList } from '../../lib/entities/catalogue';
import { currentLanguage } from '../../lib/i18n';
import { formatDate } from '../../lib/format';
import { syncNow } from '../../lib/sync/engine';
import {
  BLOG_CATEGORIES,
  filterNews,
  keepListPictures,
  pruneNews,
  readNews,
  readTime,
  type NewsFilters,
  type Post,
} from '../../lib/entities/news';
import { TextField } from '../../components/form';
import { LoadingCards } from '../../components/loading-cards';
import { ProductImage, useDataSaver } from '../../components/product-parts';
import { usePageHead } from '../../lib/page-head';
import { filtersFromUrl } from '../../lib/list-filters';

const EMPTY: NewsFilters = { q: '', category: 'all' };

export function NewsPage() {
  usePageHead('news');
  const { t } = useTranslation();
  const db = useCatalogueDb();
  const { items: posts, loaded } = useSyncedList(db, readNews);
  const [params] = useSearchParams();
  const [filters, setFilters] = useState(() => filtersFromUrl(params, EMPTY, { category: BLOG_CATEGORIES }));
  const [saveData] = useDataSaver();
  const [refreshing, setRefreshing] = useState(false);
  useEffect(() => {
    if (db) void pruneNews(db);
  }, [db]);
  const latest = posts?.map((p) => p.uid).join();
  useEffect(() => {
    if (posts && !saveData) void keepListPictures(posts);
    // Again only when the list of posts changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [latest, saveData]);

  if (!posts || loaded === undefined) {
    const head = (
      <header className="news-banner">
        <h1>{t('news.title')}</h1>
        <p className="lead">{t('news.intro')}</p>
      </header>
    );
    return <LoadingCards className="news" label={t('news.loading')} head={head} />;
  }
  const refresh = () => {
    if (!db) return;
    setRefreshing(true);
    void syncNow(db).finally(() => setRefreshing(false));
  };
  const shown = filterNews(posts, filters, currentLanguage());
  return (
    <section className="page marketplace news" aria-labelledby="news-title">
      <header className="news-banner">
        <h1 id="news-title">{t('news.title')}</h1>
        <p className="lead">{t('news.intro')}</p>
        <a className="muted" href={`/api/v1/blogs/feed.xml?lang=${currentLanguage()}`}>
          {t('news.rss')}
        </a>
      </header>
      {posts.length === 0 ? (
        <div className="card coming-soon">
          <h2>{t('news.empty_title')}</h2>
          <p>{loaded ? t('news.empty_body') : t('news.never_loaded')}</p>
          <div className="actions">
            <button type="button" className="button" onClick={refresh} disabled={refreshing}>
              {refreshing ? t('news.refreshing') : t('news.refresh')}
            </button>
            <Link className="button secondary" to={paths.home}>
              {t('news.back_home')}
            </Link>
          </div>
        </div>
      ) : (
        <>
          <div className="market-tools">
            <TextField
              label={t('news.search')}
              type="search"
              placeholder={t('news.search_placeholder')}
              value={filters.q}
              onChange={(e) => setFilters((f) => ({ ...f, q: e.target.value }))}
            />
          </div>
          <div className="chips" role="group" aria-label={t('news.categories')}>
            {(['all', ...BLOG_CATEGORIES] as const).map((c) => (
              <button
                key={c}
                type="button"
                className="chip"
                aria-pressed={filters.category === c}
                onClick={() => setFilters((f) => ({ ...f, category: c }))}
              >
                {t(`news.category.${c}`)}
              </button>
            ))}
          </div>
          <p role="status">{t('news.showing', { count: shown.length, total: posts.length })}</p>
          {shown.length === 0 ? (
            <div className="card coming-soon">
              <h2>{t('news.no_match')}</h2>
              <button type="button" className="button" onClick={() => setFilters(EMPTY)}>
                {t('news.clear_filters')}
              </button>
            </div>
          ) : (
            <ul className="product-grid">
              {shown.map((p, index) => (
                <PostCard key={p.uid} post={p} saveData={saveData} first={index === 0} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function PostCard({ post: p, saveData, first }: { post: Post; saveData: boolean; first: boolean }) {
  const { t } = useTranslation();
  return (
    <li className="card product-card post-card" lang={p.language}>
      <div className="product-media">
        <ProductImage
          src={p.thumbnail_url ?? undefined}
          alt=""
          width={320}
          height={240}
          saveData={saveData}
          priority={first}
        />
      </div>
      <div className="product-body">
        <p className="badges">
          <span className="badge blue">{readTime(t, p)}</span>{' '}
          <span className="badge grey">{t(`news.category.${p.category}`)}</span>
          {p.language !== currentLanguage() && (
            <>
              {' '}
              <span className="badge yellow">{t(`training.languages.${p.language}`)}</span>
            </>
          )}
        </p>
        <p className="muted">
          {formatDate(p.date)} · {p.author}
        </p>
        <h2>
          <Link to={paths.article(p.id)}>{p.title}</Link>
        </h2>
        <p className="description">{p.description}</p>
        <div className="actions">
          <Link
            className="button small"
            to={paths.article(p.id)}
            aria-label={t('news.read_more_about', { title: p.title })}
          >
            {t('news.read_more')}
          </Link>
        </div>
      </div>
    </li>
  );
}
