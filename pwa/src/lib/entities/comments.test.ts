import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commentEntity, fetchComments, toggleLike, writeComment } from './comments';
import { LocalDb } from '../sync/local-db';
import { registerEntity } from '../sync/engine';

registerEntity('comment', commentEntity);
afterEach(() => vi.unstubAllGlobals());

const answer = (data: unknown) =>
  Promise.resolve(new Response(JSON.stringify({ success: true, data }), { status: 200 }));

describe('comments on the device', () => {
  it('shows a comment written offline at once, keeps it through a fetch, and likes once', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    const db = new LocalDb(`comments-${Math.random()}`);
    await writeComment(db, 'post-1', 'Written in the field');
    const [mine] = await db.comments.toArray();
    expect(mine).toMatchObject({ post_uid: 'post-1', body: 'Written in the field', mine: true, pending: true });
    expect((await db.outbox.toArray()).map((e) => e.name)).toEqual(['comment.create']);

    // Back online, the others' comments arrive; the one still waiting to be sent stays.
    vi.stubGlobal('fetch', () =>
      answer([
        {
          id: 7,
          uid: 'c7',
          author: { name: 'Neema Bahati' },
          body: 'Good prices',
          likes: 2,
          liked: false,
          mine: false,
          created_at: '2026-11-20T08:00:00Z',
          replies: [
            {
              id: 8,
              uid: 'c8',
              author: { name: 'Amani' },
              body: 'Same here',
              likes: 0,
              liked: false,
              mine: false,
              created_at: '2026-11-20T09:00:00Z',
              replies: [],
            },
          ],
        },
      ]),
    );
    await db.comments.put({
      uid: 'gone',
      post_uid: 'post-1',
      parent_uid: null,
      author_name: 'Neema',
      body: 'hidden since',
      likes: 0,
      liked: false,
      mine: false,
      created_at: '2026-11-19T09:00:00Z',
    });
    await fetchComments(db, 1, 'post-1');
    const kept = (await db.comments.toArray()).map((c) => c.uid).sort();
    expect(kept).toEqual(['c7', 'c8', mine!.uid].sort());
    expect((await db.comments.get('c8'))?.parent_uid).toBe('c7');

    const theirs = (await db.comments.get('c7'))!;
    await toggleLike(db, theirs);
    expect(await db.comments.get('c7')).toMatchObject({ liked: true, likes: 3 });
    db.close();
  });
});
