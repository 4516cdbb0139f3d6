// Comments under news posts (docs/news.md). Writing and liking go through the sync
// queue (`comment.create`, `comment.like`), so they work offline: a comment shows at
// once, marked as waiting, and is sent when the network is back. What others wrote is
// fetched when the article is open online and kept, so it reads offline too.
import { useLiveQuery } from 'dexie-react-hooks';
import { api } from '../api';
import type { LocalDb } from '../sync/local-db';
import type { StoredComment } from '../sync/stored';
import { enqueue, newUid, type EntityHandler } from '../sync/engine';

export type { StoredComment };

export interface Thread {
  comment: StoredComment;
  replies: StoredComment[];
}

interface ServerComment {
  id: number;
  uid: string;
  author: { name: string };
  body: string;
  likes: number;
  liked: boolean;
  mine: boolean;
  created_at: string;
  replies: ServerComment[];
}

export const commentEntity: EntityHandler = {
  table: (db) => db.comments,
  async apply(db, mutation) {
    const args = mutation.args as Record<string, unknown> & { uid: string };
    if (mutation.name === 'comment.create') {
      if (await db.comments.get(args.uid)) return;
      const comment: StoredComment = {
        uid: args.uid,
        post_uid: args.post_uid as string,
        parent_uid: (args.parent_uid as string | undefined) ?? null,
        author_name: '',
        body: args.body as string,
        likes: 0,
        liked: false,
        mine: true,
        created_at: mutation.client_time ?? new Date().toISOString(),
        pending: true,
      };
      await db.comments.put({ ...comment });
    } else if (mutation.name === 'comment.like') {
      const on = args.on === true;
      const current = await db.comments.get(args.uid);
      if (!current || current.liked === on) return;
      await db.comments.update(args.uid, { liked: on, likes: Math.max(0, current.likes + (on ? 1 : -1)) });
    }
  },
};

/** A post's threads on this device: newest first, replies oldest first. */
export function useThreads(db: LocalDb | null, postUid: string): Thread[] | undefined {
  return useLiveQuery(async () => {
    if (!db) return undefined;
    const all = await db.comments.where('post_uid').equals(postUid).toArray();
    const byDate = (a: StoredComment, b: StoredComment) => a.created_at.localeCompare(b.created_at);
    return all
      .filter((c) => !c.parent_uid)
      .sort((a, b) => byDate(b, a))
      .map((comment) => ({
        comment,
        replies: all.filter((r) => r.parent_uid === comment.uid).sort(byDate),
      }));
  }, [db, postUid]);
}

/** Fetches a post's latest comments and keeps them in place of the ones kept before. */
export async function fetchComments(db: LocalDb, postId: number, postUid: string): Promise<void> {
  const answer = await api<{ data: ServerComment[] }>(`/blogs/${postId}/comments?per_page=50`);
  const stored = (c: ServerComment, parent: string | null): StoredComment => ({
    uid: c.uid,
    id: c.id,
    post_uid: postUid,
    parent_uid: parent,
    author_name: c.author.name,
    body: c.body,
    likes: c.likes,
    liked: c.liked,
    mine: c.mine,
    created_at: c.created_at,
  });
  const fresh = answer.data.flatMap((c) => [stored(c, null), ...c.replies.map((r) => stored(r, c.uid))]);
  await db.transaction('rw', db.comments, db.outbox, async () => {
    // Sent ones are the server's now: its copy replaces the one shown while waiting.
    const waiting = new Set(
      (await db.outbox.toArray()).filter((e) => e.name === 'comment.create' && e.state !== 'sent').map((e) => e.uid),
    );
    const old = await db.comments.where('post_uid').equals(postUid).toArray();
    await db.comments.bulkDelete(old.filter((c) => !waiting.has(c.uid)).map((c) => c.uid));
    await db.comments.bulkPut(fresh.filter((c) => !waiting.has(c.uid)).map((c) => ({ ...c })));
  });
}

export function writeComment(db: LocalDb, postUid: string, body: string, parentUid?: string): Promise<void> {
  const args = { uid: newUid(), post_uid: postUid, body, ...(parentUid ? { parent_uid: parentUid } : {}) };
  return enqueue(db, 'comment.create', args);
}

export function toggleLike(db: LocalDb, comment: StoredComment): Promise<void> {
  return enqueue(db, 'comment.like', { uid: comment.uid, on: !comment.liked });
}

/** Deletes one's own comment (online). */
export async function deleteComment(db: LocalDb, comment: StoredComment): Promise<void> {
  if (comment.id) await api(`/comments/${comment.id}`, { method: 'DELETE' });
  await db.comments.delete(comment.uid);
}
