// Comments under an article (docs/news.md): signed-in people comment, reply and like,
// also offline (queued like other changes, marked as waiting until sent); others'
// comments are fetched when online and kept for reading offline. Comments are plain
// text: React writes them as text, never as HTML.
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  deleteComment,
  fetchComments,
  toggleLike,
  useThreads,
  writeComment,
  type StoredComment,
} from '../../lib/entities/comments';
import { errorKey } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import type { LocalDb, OutboxEntry } from '../../lib/sync/local-db';
import type { Post } from '../../lib/entities/news';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useOnline } from '../../lib/use-online';
import { useOutbox } from '../../lib/sync/use-outbox';
import { ConfirmDialog } from '../../components/dialog';
import { useToast } from '../../components/toast';

const MAX_CHARS = 2000;

export function CommentsSection({ db, post }: { db: LocalDb; post: Post }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const online = useOnline();
  const threads = useThreads(db, post.uid);
  const outbox = useOutbox(db).filter((e) => e.name.startsWith('comment.'));
  const sending = outbox.filter((e) => e.state === 'queued').length;
  const [loadFailed, setLoadFailed] = useState(false);
  const [removing, setRemoving] = useState<StoredComment | null>(null);
  const toast = useToast();

  // Fetched when the article opens online, and again once what was written here is sent.
  useEffect(() => {
    if (!online || sending > 0) return;
    fetchComments(db, post.id, post.uid).then(
      () => setLoadFailed(false),
      () => setLoadFailed(true),
    );
  }, [db, post.id, post.uid, online, sending]);

  const count = threads?.reduce((n, th) => n + 1 + th.replies.length, 0) ?? 0;
  return (
    <section className="comments" aria-labelledby="comments-title">
      <h2 id="comments-title">{t('comments.title', { count })}</h2>
      {user ? (
        <CommentForm
          label={t('comments.add')}
          submitLabel={t('comments.post')}
          onSend={(b) => writeComment(db, post.uid, b)}
        />
      ) : (
        <p>
          <Link to={paths.login} state={{ from: paths.article(post.id) }}>
            {t('comments.login')}
          </Link>
        </p>
      )}
      {!online && <p className="muted">{t('comments.offline')}</p>}
      {online && loadFailed && <p className="muted">{t('comments.load_failed')}</p>}
      {threads?.length === 0 && <p className="muted">{t('comments.none')}</p>}
      <ul className="comment-list">
        {threads?.map(({ comment, replies }) => (
          <li key={comment.uid}>
            <CommentItem db={db} comment={comment} outbox={outbox} canAct={!!user} onRemove={setRemoving} />
            {replies.length > 0 && (
              <ul className="comment-replies">
                {replies.map((r) => (
                  <li key={r.uid}>
                    <CommentItem db={db} comment={r} outbox={outbox} canAct={!!user} onRemove={setRemoving} />
                  </li>
                ))}
              </ul>
            )}
            {user && !comment.pending && (
              <ReplyBox onSend={(body) => writeComment(db, post.uid, body, comment.uid)} name={comment.author_name} />
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title={t('comments.delete_title')}
        confirmLabel={t('comments.delete')}
        cancelLabel={t('common.cancel')}
        danger
        onConfirm={() => {
          const gone = removing;
          setRemoving(null);
          if (gone) void deleteComment(db, gone).catch(() => toast('error', t('comments.delete_failed')));
        }}
        onCancel={() => setRemoving(null)}
      >
        <p>{t('comments.delete_body')}</p>
      </ConfirmDialog>
    </section>
  );
}

function CommentItem({
  db,
  comment: c,
  outbox,
  canAct,
  onRemove,
}: {
  db: LocalDb;
  comment: StoredComment;
  outbox: OutboxEntry[];
  canAct: boolean;
  onRemove(comment: StoredComment): void;
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const refused = outbox.find((e) => e.uid === c.uid && e.state === 'rejected');
  return (
    <article className="comment" aria-label={t('comments.by', { name: c.mine ? t('comments.you') : c.author_name })}>
      <p className="comment-head">
        <strong>{c.mine ? t('comments.you') : c.author_name}</strong>{' '}
        <span className="muted">{formatDate(c.created_at)}</span>
      </p>
      <p className="comment-body">{c.body}</p>
      {c.pending && !refused && <p className="sync-note wait">{t('comments.waiting')}</p>}
      {refused && (
        <p className="sync-note bad" role="alert">
          {t('comments.refused')}:{' '}
          {t(errorKey(refused.result?.code ?? 'internal_error'), { defaultValue: refused.result?.message ?? '' })}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="button secondary small"
          aria-pressed={c.liked}
          disabled={!canAct || c.pending}
          onClick={() => void toggleLike(db, c)}
        >
          {t('comments.like', { count: c.likes })}
        </button>
        {c.mine && !c.pending && (
          <button type="button" className="button secondary small" disabled={!online} onClick={() => onRemove(c)}>
            {t('comments.delete')}
          </button>
        )}
      </div>
    </article>
  );
}

function ReplyBox({ onSend, name }: { onSend(body: string): Promise<void>; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button type="button" className="button secondary small reply-button" onClick={() => setOpen(true)}>
        {t('comments.reply')}
      </button>
    );
  }
  return (
    <CommentForm
      label={t('comments.reply_to', { name })}
      submitLabel={t('comments.send_reply')}
      onSend={async (body) => {
        await onSend(body);
        setOpen(false);
      }}
    />
  );
}

function CommentForm({
  label,
  submitLabel,
  onSend,
}: {
  label: string;
  submitLabel: string;
  onSend(body: string): Promise<void>;
}) {
  const { t } = useTranslation();
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) return;
    try {
      await onSend(body.trim());
      setBody('');
      setProblem(false);
    } catch {
      setProblem(true);
    }
  };
  return (
    <form className="form comment-form" onSubmit={(e) => void submit(e)}>
      <label className="field">
        <span>{label}</span>
        <textarea value={body} maxLength={MAX_CHARS} rows={3} onChange={(e) => setBody(e.target.value)} />
      </label>
      {problem && (
        <p className="sync-note bad" role="alert">
          {t('comments.not_saved')}
        </p>
      )}
      <button type="submit" className="button small" disabled={!body.trim()}>
        {submitLabel}
      </button>
    </form>
  );
}
