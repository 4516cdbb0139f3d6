// Comments moderation in Blog Management (docs/news.md): every comment, newest first,
// with its post; hide one from readers (or show it again), or delete it. Online.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { ConfirmDialog } from '../../components/dialog';
import { SelectField } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Pager } from '../../components/pager';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import '../../components/applications/applications.css';

interface AdminComment {
  id: number;
  author: { name: string };
  body: string;
  hidden: boolean;
  likes: number;
  created_at: string;
  post_title: string;
}

interface CommentPage {
  data: AdminComment[];
  total: number;
  page: number;
  per_page: number;
}

type Filter = 'all' | 'shown' | 'hidden';

export function AdminComments() {
  const { t } = useTranslation();
  const toast = useToast();
  const [status, setStatus] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<CommentPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [deleting, setDeleting] = useState<AdminComment | null>(null);
  const load = useCallback(() => {
    api<CommentPage>(`/admin/comments?status=${status}&page=${page}`).then(
      (answer) => (setList(answer), setError(null)),
      setError,
    );
  }, [status, page]);
  useEffect(load, [load]);
  const act = (path: string, method: 'PUT' | 'DELETE') =>
    api(path, { method }).then(load, () => toast('error', t('admin_comments.failed')));

  if (error && !list) {
    return (
      <LoadFailed
        title={t('admin_comments.title')}
        error={error}
        fallbackKey="admin_comments.load_failed"
        onRetry={load}
      />
    );
  }
  return (
    <section className="admin-comments" aria-labelledby="comments-admin-title">
      <h3 id="comments-admin-title">{t('admin_comments.title')}</h3>
      <div className="filters card">
        <SelectField
          label={t('admin_comments.status')}
          value={status}
          onChange={(e) => (setStatus(e.target.value as Filter), setPage(1))}
        >
          {(['all', 'shown', 'hidden'] as const).map((s) => (
            <option key={s} value={s}>
              {t(`admin_comments.statuses.${s}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {!list ? (
        <Spinner label={t('common.loading')} />
      ) : list.total === 0 ? (
        <p className="card empty-note">{t('admin_comments.none')}</p>
      ) : (
        <>
          <ul className="cards">
            {list.data.map((c) => (
              <li key={c.id} className="card admin-comment">
                <p className="muted">
                  {t('admin_comments.on', { title: c.post_title })} · {formatDate(c.created_at, 'short')}
                </p>
                <p>
                  <strong>{c.author.name}</strong>{' '}
                  {c.hidden && <span className="badge grey">{t('admin_comments.hidden')}</span>}
                </p>
                <p className="comment-body">{c.body}</p>
                <div className="actions">
                  <button
                    type="button"
                    className="button secondary small"
                    onClick={() => void act(`/admin/comments/${c.id}/${c.hidden ? 'unhide' : 'hide'}`, 'PUT')}
                  >
                    {t(c.hidden ? 'admin_comments.show' : 'admin_comments.hide')}
                  </button>
                  <button type="button" className="button secondary small" onClick={() => setDeleting(c)}>
                    {t('comments.delete')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
          <Pager list={list} onPage={setPage} />
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('comments.delete_title')}
        confirmLabel={t('comments.delete')}
        cancelLabel={t('common.cancel')}
        danger
        onConfirm={() => {
          const gone = deleting;
          setDeleting(null);
          if (gone) void act(`/comments/${gone.id}`, 'DELETE');
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>{t('admin_comments.delete_body')}</p>
      </ConfirmDialog>
    </section>
  );
}
