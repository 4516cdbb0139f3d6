// One news post (docs/news.md, "News article"): from the device when it has it (the
// latest posts, and any opened before), else fetched once and kept, so an article
// opened once reads offline. The content is HTML the server sanitised before storing
// it; the page's content security policy stops scripts besides.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { usePageHead } from '../../lib/page-head';
import { paths } from '../../lib/paths';
import { useCatalogueDb } from '../../lib/sync/provider';
import { formatDate } from '../../lib/format';
import { fetchPost, markOpened, readTime, useStoredPost } from '../../lib/entities/news';
import { Spinner } from '../../components/spinner';
import { ProductImage, useDataSaver } from '../../components/product-parts';
import { PICTURE_WIDTHS } from '../../lib/picture-sizes';
import { CommentsSection } from './comments-section';

type Fetching = 'loading' | 'not_found' | 'failed' | 'offline';

export function ArticlePage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const db = useCatalogueDb();
  const post = useStoredPost(db, Number(id));
  const [fetching, setFetching] = useState<Fetching>('loading');
  const loading = post === undefined || (post === null && fetching === 'loading');
  usePageHead('article', loading ? 'loading' : post);
  const [saveData] = useDataSaver();

  useEffect(() => {
    if (!db || post !== null) return;
    fetchPost(db, Number(id)).catch((caught: unknown) => {
      if (caught instanceof ApiError && caught.status === 404) setFetching('not_found');
      else setFetching(navigator.onLine ? 'failed' : 'offline');
    });
  }, [db, post, id]);
  useEffect(() => {
    if (db && post) void markOpened(db, post.uid);
  }, [db, post]);

  if (loading) return <Spinner label={t('news.loading')} />;
  if (!post) {
    return (
      <section className="page narrow coming-soon">
        <h1>{t(`news.${fetching}`)}</h1>
        <Link className="button" to={paths.news}>
          {t('news.back')}
        </Link>
      </section>
    );
  }
  return (
    <article className="page narrow article" lang={post.language} aria-labelledby="article-title">
      <Link to={paths.news}>← {t('news.back')}</Link>
      <p className="badges">
        <span className="badge grey">{t(`news.category.${post.category}`)}</span>
      </p>
      <h1 id="article-title">{post.title}</h1>
      <p className="muted">
        {formatDate(post.date)} · {post.author} · {readTime(t, post)}
      </p>
      {post.image_url && (
        <ProductImage
          src={post.image_url}
          fallback={post.thumbnail_url ?? undefined}
          alt=""
          width={1024}
          height={768}
          saveData={saveData}
          priority
          sizes={PICTURE_WIDTHS.article}
        />
      )}
      <div className="article-content" dangerouslySetInnerHTML={{ __html: post.full_content }} />
      {db && <CommentsSection db={db} post={post} />}
    </article>
  );
}
