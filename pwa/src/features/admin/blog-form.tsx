// The spec's "Create New Blog Post" / "Edit Blog Post" modal (docs/news.md): title,
// author, description and content required; category, read time, language; a picture
// (an image of at most 5 MB) with its preview and Remove; "Publish immediately". A
// refused save says why and keeps everything typed.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { problemMessages, type Problem } from '../../lib/error-text';
import { useImagePick } from '../../lib/image-pick';
import { BLOG_CATEGORIES, type Post } from '../../lib/entities/news';
import { Modal } from '../../components/dialog';
import { ErrorBox, ImagePicker, SelectField, TextField } from '../../components/form';
import { RichEditor } from './rich-editor';
import './rich-editor.css';

/** A post as the admin list answers it. */
export interface AdminPost extends Post {
  published: boolean;
  created_at: string;
}

const LANGUAGES = ['en', 'fr', 'sw'] as const;

export function BlogForm({ post, onClose, onSaved }: { post: AdminPost | null; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState(() => ({
    title: post?.title ?? '',
    author: post?.author ?? '',
    description: post?.description ?? '',
    category: post?.category ?? 'General',
    read_time: post?.read_time ?? '',
    language: post?.language ?? 'en',
  }));
  const [content, setContent] = useState(post?.full_content ?? '');
  const [published, setPublished] = useState(post?.published ?? false);
  const [keepImage, setKeepImage] = useState(Boolean(post?.image_url));
  const [problem, setProblem] = useState<Problem>(null);
  const [busy, setBusy] = useState(false);
  const image = useImagePick((codes) => setProblem(codes && { codes }));
  const set =
    (key: keyof typeof fields) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      setFields((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(`blog[${key}]`, value);
    form.set('blog[full_content]', content);
    form.set('blog[published]', String(published));
    if (image.file) form.set('blog[image]', image.file);
    else if (post && !keepImage) form.set('blog[remove_image]', 'true');
    setBusy(true);
    try {
      await api(post ? `/admin/blogs/${post.id}` : '/admin/blogs', { method: post ? 'PUT' : 'POST', form });
      onSaved();
    } catch (caught) {
      setProblem({ error: caught });
    } finally {
      setBusy(false);
    }
  };
  const preview = image.preview ?? (keepImage ? post?.thumbnail_url : null);
  return (
    <Modal
      title={t(post ? 'admin_blogs.edit_title' : 'admin_blogs.create_title')}
      closeLabel={t('common.cancel')}
      onClose={onClose}
      actions={
        <button type="button" className="button" disabled={busy} onClick={() => void submit()}>
          {busy ? t('common.saving') : t(post ? 'admin_blogs.update' : 'admin_blogs.create')}
        </button>
      }
    >
      <form className="form blog-form" onSubmit={(e) => void submit(e)}>
        <ErrorBox messages={problemMessages(problem, t, 'admin_blogs.save_failed')} />
        <TextField label={t('admin_blogs.fields.title')} value={fields.title} onChange={set('title')} required />
        <TextField label={t('admin_blogs.fields.author')} value={fields.author} onChange={set('author')} required />
        <label className="field">
          <span>{t('admin_blogs.fields.description')} *</span>
          <textarea value={fields.description} onChange={set('description')} rows={3} required />
        </label>
        <RichEditor
          label={t('admin_blogs.fields.content')}
          initial={content}
          onChange={setContent}
          onProblem={(code) => setProblem(code ? { codes: [code] } : null)}
        />
        <SelectField label={t('admin_blogs.fields.category')} value={fields.category} onChange={set('category')}>
          {BLOG_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`news.category.${c}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('admin_blogs.fields.read_time')}
          hint={t('admin_blogs.fields.read_time_hint')}
          value={fields.read_time}
          onChange={set('read_time')}
        />
        <SelectField label={t('admin_blogs.fields.language')} value={fields.language} onChange={set('language')}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`training.languages.${l}`)}
            </option>
          ))}
        </SelectField>
        <ImagePicker
          label={t('admin_blogs.fields.image')}
          buttonLabel={t('admin_blogs.choose_image')}
          fileName={image.file?.name ?? null}
          onChange={image.pick}
        />
        {preview && (
          <div className="image-preview">
            <img src={preview} alt={t('admin_blogs.image_preview')} width={160} height={120} />
            <button
              type="button"
              className="button secondary small"
              onClick={() => (image.clear(), setKeepImage(false))}
            >
              {t('common.remove')}
            </button>
          </div>
        )}
        <label className="checkbox">
          <input type="checkbox" checked={published} onChange={(e) => setPublished(e.target.checked)} />
          {t('admin_blogs.publish_now')}
        </label>
      </form>
    </Modal>
  );
}
