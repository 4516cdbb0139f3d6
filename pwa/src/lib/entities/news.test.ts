import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { LocalDb } from '../sync/local-db';
import { KEEP_OPENED, LATEST_KEPT, filterNews, markOpened, pruneNews, readTime, type Post } from './news';
import { setupI18n } from '../i18n';

const post = (id: number, over: Partial<Post> = {}): Post => ({
  uid: `p${id}`,
  id,
  title: `Post ${id}`,
  description: 'Prices at the market',
  full_content: '<p>Text</p>',
  author: 'Neema Bahati',
  category: 'General',
  read_time: '5 min read',
  language: 'en',
  image_url: null,
  thumbnail_url: null,
  // Post 1 is the oldest.
  date: new Date(Date.UTC(2026, 0, 1) + id * 3_600_000).toISOString(),
  published: true,
  published_at: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...over,
});

describe('news on the device', () => {
  it('finds posts by any word of the title, description or author, any case and accents', () => {
    const posts = [
      post(1, { title: 'Le paillage à Kalehe', category: 'Conservation' }),
      post(2, { author: 'Furaha Mushi', category: 'Community' }),
    ];
    expect(filterNews(posts, { q: 'PAILLAGE kalehe', category: 'all' }).map((p) => p.id)).toEqual([1]);
    expect(filterNews(posts, { q: 'a kalehe', category: 'all' }).map((p) => p.id)).toEqual([1]);
    expect(filterNews(posts, { q: 'mushi', category: 'Community' }).map((p) => p.id)).toEqual([2]);
    expect(filterNews(posts, { q: 'mushi', category: 'Conservation' })).toEqual([]);
  });

  it('lists the reader’s language first, each language in the order it came', () => {
    const posts = [post(3, { language: 'en' }), post(2, { language: 'fr' }), post(1, { language: 'fr' })];
    const order = (language?: string) => filterNews(posts, { q: '', category: 'all' }, language).map((p) => p.id);
    expect(order('fr')).toEqual([2, 1, 3]);
    expect(order('sw')).toEqual([3, 2, 1]);
    expect(order()).toEqual([3, 2, 1]);
  });

  it('keeps the latest posts and those opened, and lets the rest go', async () => {
    const db = new LocalDb(`news-${Math.random()}`);
    await db.blogs.bulkPut(Array.from({ length: LATEST_KEPT + 5 }, (_, i) => ({ ...post(i + 1) })));
    await markOpened(db, 'p2');
    await pruneNews(db);
    const kept = (await db.blogs.toArray()).map((p) => p.id as number).sort((a, b) => a - b);
    expect(kept).toHaveLength(LATEST_KEPT + 1);
    expect(kept[0]).toBe(2);
    expect(kept).not.toContain(1);
    expect(kept.at(-1)).toBe(LATEST_KEPT + 5);
    // Only the most recently opened are remembered: opening many others forgets p2.
    const later = Date.now() + 1000;
    for (let i = 0; i < KEEP_OPENED; i++) await db.openedPosts.put({ uid: `x${i}`, at: later + i });
    await pruneNews(db);
    expect(await db.openedPosts.count()).toBe(KEEP_OPENED);
    expect(await db.openedPosts.get('p2')).toBeUndefined();
    db.close();
  });
});

describe('a post’s read time', () => {
  it('is the admin’s words, or counted from the post’s words in the reader’s language', async () => {
    const i18n = setupI18n();
    await i18n.changeLanguage('fr');
    const words = (n: number) => `<p>${'mot '.repeat(n)}</p>`;
    expect(readTime(i18n.t, { read_time: '', full_content: words(450) })).toBe('3 min de lecture');
    expect(readTime(i18n.t, { read_time: ' ', full_content: '' })).toBe('1 min de lecture');
    await i18n.changeLanguage('sw');
    expect(readTime(i18n.t, { read_time: '', full_content: words(10) })).toBe('Dakika 1 ya kusoma');
    expect(readTime(i18n.t, { read_time: '8 min', full_content: words(10) })).toBe('8 min');
  });
});
