// The admin's Blog Management (docs/news.md, SPEC "Admin Blog Management"): New Blog
// Post, the count cards, filters (search, status, category, Refresh), the table, the
// create/edit modal (blog-form.tsx), publish/unpublish and delete. Online (the admin API).
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { api } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { BLOG_CATEGORIES, readTime, type BlogCategory } from '../../lib/entities/news';
import { ConfirmDialog } from '../../components/dialog';
import { SelectField, TextField } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { useToast } from '../../components/toast';
import { AdminComments } from './admin-comments';
import { BlogForm, type AdminPost } from './blog-form';
import { useDebounced } from './use-debounced';
import './admin.css';

interface AdminList {
  data: AdminPost[];
  total: number;
  stats: { total: number; published: number; drafts: number; authors: number };
}

type Status = 'all' | 'published' | 'draft';

export function AdminBlogs() {
  const { t } = useTranslation();
  const toast = useToast();
  const [search, setSearch] = useState('');
  const q = useDebounced(search, 300);
  const [status, setStatus] = useState<Status>('all');
  const [category, setCategory] = useState<BlogCategory | 'all'>('all');
  const [list, setList] = useState<AdminList | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState<AdminPost | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminPost | null>(null);
  const [tab, setTab] = useState<'posts' | 'comments'>('posts');
  const load = useCallback(() => {
    setList(null);
    const query = new URLSearchParams({ q, status, category, per_page: '200' });
    api<AdminList>(`/admin/blogs?${query}`).then((answer) => (setList(answer), setError(null)), setError);
  }, [q, status, category]);
  useEffect(load, [load]);

  const act = (path: string, method: 'PUT' | 'DELETE', failed: ParseKeys) =>
    api(path, { method }).then(load, () => toast('error', t(failed)));

  if (error && !list) {
    return (
      <LoadFailed title={t('admin_blogs.title')} error={error} fallbackKey="admin_blogs.load_failed" onRetry={load} />
    );
  }
  return (
    <section className="admin-blogs" aria-labelledby="blogs-title">
      <div className="section-head">
        <h2 id="blogs-title">{t('admin_blogs.title')}</h2>
        <button type="button" className="button" onClick={() => setEditing('new')}>
          {t('admin_blogs.new')}
        </button>
      </div>
      <div className="chips" role="group" aria-label={t('admin_blogs.title')}>
        {(['posts', 'comments'] as const).map((k) => (
          <button key={k} type="button" className="chip" aria-pressed={tab === k} onClick={() => setTab(k)}>
            {t(`admin_blogs.tabs.${k}`)}
          </button>
        ))}
      </div>
      {tab === 'comments' && <AdminComments />}
      {tab === 'posts' && list && (
        <div className="stat-cards">
          <StatCard label={t('admin_blogs.stats.total')} value={list.stats.total} />
          <StatCard label={t('admin_blogs.stats.published')} value={list.stats.published} />
          <StatCard label={t('admin_blogs.stats.drafts')} value={list.stats.drafts} />
          <StatCard label={t('admin_blogs.stats.authors')} value={list.stats.authors} />
        </div>
      )}
      {tab === 'posts' && (
        <div className="filters card">
          <TextField
            label={t('admin_blogs.search')}
            type="search"
            placeholder={t('admin_blogs.search_placeholder')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <SelectField
            label={t('admin_blogs.status')}
            value={status}
            onChange={(e) => setStatus(e.target.value as Status)}
          >
            {(['all', 'published', 'draft'] as const).map((s) => (
              <option key={s} value={s}>
                {t(`admin_blogs.statuses.${s}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('admin_blogs.category')}
            value={category}
            onChange={(e) => setCategory(e.target.value as BlogCategory | 'all')}
          >
            {(['all', ...BLOG_CATEGORIES] as const).map((c) => (
              <option key={c} value={c}>
                {t(`news.category.${c}`)}
              </option>
            ))}
          </SelectField>
          <div className="filter-actions">
            <button type="button" className="button secondary" onClick={load}>
              {t('admin_blogs.refresh')}
            </button>
          </div>
        </div>
      )}
      {tab === 'comments' ? null : !list ? (
        <Spinner label={t('common.loading')} />
      ) : list.data.length === 0 ? (
        <p className="card empty-note">{t('admin_blogs.none')}</p>
      ) : (
        <div className="table-wrap card">
          <table className="data-table stacked">
            <thead>
              <tr>
                <th scope="col">{t('admin_blogs.columns.blog')}</th>
                <th scope="col">{t('admin_blogs.columns.author')}</th>
                <th scope="col">{t('admin_blogs.columns.category')}</th>
                <th scope="col">{t('admin_blogs.columns.status')}</th>
                <th scope="col">{t('admin_blogs.columns.date')}</th>
                <th scope="col">{t('admin_blogs.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((p) => (
                <tr key={p.id}>
                  <td className="blog-cell">
                    {p.thumbnail_url ? (
                      <img src={p.thumbnail_url} alt="" width={64} height={48} loading="lazy" />
                    ) : (
                      <span className="thumb placeholder" aria-hidden="true" />
                    )}
                    <span>
                      <strong>{p.title}</strong>
                      <br />
                      <span className="muted two-lines">{p.description}</span>
                    </span>
                  </td>
                  <td data-label={t('admin_blogs.columns.author')}>
                    {p.author}
                    <br />
                    <span className="muted">{readTime(t, p)}</span>
                  </td>
                  <td>
                    <span className="badge blue">{t(`news.category.${p.category}`)}</span>
                  </td>
                  <td>
                    <span className={p.published ? 'badge green' : 'badge grey'}>
                      {t(p.published ? 'admin_blogs.statuses.published' : 'admin_blogs.statuses.draft')}
                    </span>
                  </td>
                  <td data-label={t('admin_blogs.columns.date')}>{formatDate(p.created_at, 'short')}</td>
                  <td>
                    <div className="actions">
                      <button type="button" className="button secondary small" onClick={() => setEditing(p)}>
                        {t('admin_blogs.edit')}
                      </button>
                      <button
                        type="button"
                        className="button secondary small"
                        onClick={() =>
                          void (p.published
                            ? act(`/admin/blogs/${p.id}/unpublish`, 'PUT', 'admin_blogs.unpublish_failed')
                            : act(`/admin/blogs/${p.id}/publish`, 'PUT', 'admin_blogs.publish_failed'))
                        }
                      >
                        {t(p.published ? 'admin_blogs.unpublish' : 'admin_blogs.publish')}
                      </button>
                      <button type="button" className="button secondary small" onClick={() => setDeleting(p)}>
                        {t('admin_blogs.delete')}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing !== null && (
        <BlogForm
          post={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            toast('success', t('admin_blogs.saved'));
            load();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('admin_blogs.delete_title')}
        confirmLabel={t('admin_blogs.delete')}
        cancelLabel={t('common.cancel')}
        danger
        onConfirm={() => {
          const gone = deleting;
          setDeleting(null);
          if (gone) void act(`/admin/blogs/${gone.id}`, 'DELETE', 'admin_blogs.delete_failed');
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>{t('admin_blogs.delete_body')}</p>
      </ConfirmDialog>
    </section>
  );
}
