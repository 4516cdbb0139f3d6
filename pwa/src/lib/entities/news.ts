import type { TFunction } from 'i18next';
// News and blog (docs/news.md): posts arrive by sync (the latest 20, with their
// content) and are read from the device, so /news works with no signal. An older
// post opened online is kept too, and so is any post opened here, up to KEEP_OPENED.
import { useDeferredValue } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { api, fetchFile } from '../api';
import { fold } from './product-search';
import type { LocalDb } from '../sync/local-db';
import type { BlogCategory } from '../sync/records';
import type { Post } from '../sync/stored';
import type { EntityHandler } from '../sync/engine';

export type { BlogCategory };
export { BLOG_CATEGORIES } from '../sync/records';

/** How many of the latest posts stay on the device (the server's first snapshot carries as many). */
export const LATEST_KEPT = 20;
/** How many opened posts stay on the device beyond the latest. */
export const KEEP_OPENED = 50;

export type { Post };

export const blogEntity: EntityHandler = {
  table: (db) => db.blogs,
  // Posts only come from the server.
  apply: async () => undefined,
};

const newestFirst = (a: Post, b: Post) => b.date.localeCompare(a.date) || b.id - a.id;

/** The posts on this device, newest first. */
export async function readNews(db: LocalDb): Promise<Post[]> {
  return (await db.blogs.toArray()).sort(newestFirst);
}

/**
 * A post by its server id, as this device has it: undefined while reading, null when it
 * has not. Its arrival is drawn as a transition (in slices), as a product's is.
 */
export function useStoredPost(db: LocalDb | null, id: number): Post | null | undefined {
  return useDeferredValue(
    useLiveQuery(async () => (db ? ((await db.blogs.where('id').equals(id).first()) ?? null) : undefined), [db, id]),
  );
}

export interface NewsFilters {
  q: string;
  category: BlogCategory | 'all';
}

/** Posts that match: every word in the title, description or author, any case and accents. */
export function filterNews(posts: Post[], filters: NewsFilters, language?: string): Post[] {
  const words = fold(filters.q).split(/\s+/).filter(Boolean);
  const found = posts.filter((p) => {
    if (filters.category !== 'all' && p.category !== filters.category) return false;
    const text = fold(`${p.title} ${p.description} ${p.author}`);
    return words.every((w) => text.includes(w));
  });
  // The reader's language first, each language newest first (as the server's first screen).
  return language
    ? [...found.filter((p) => p.language === language), ...found.filter((p) => p.language !== language)]
    : found;
}

/** Fetches a post the device does not have (an older one) and keeps it. */
export async function fetchPost(db: LocalDb, id: number): Promise<Post> {
  const post = await api<Post>(`/blogs/${id}`);
  await db.blogs.put({ ...post });
  return post;
}

/** Notes that a post was opened here, so it stays readable offline. */
export async function markOpened(db: LocalDb, uid: string): Promise<void> {
  await db.openedPosts.put({ uid, at: Date.now() });
}

/**
 * Keeps the device's news small: the LATEST_KEPT newest posts and the KEEP_OPENED
 * most recently opened ones stay; the rest go (the server still has them).
 */
export async function pruneNews(db: LocalDb): Promise<void> {
  await db.transaction('rw', db.blogs, db.openedPosts, async () => {
    const opened = await db.openedPosts.orderBy('at').reverse().toArray();
    const stale = opened.slice(KEEP_OPENED).map((o) => o.uid);
    if (stale.length) await db.openedPosts.bulkDelete(stale);
    const keep = new Set(opened.slice(0, KEEP_OPENED).map((o) => o.uid));
    const posts = (await db.blogs.toArray()).sort(newestFirst);
    posts.slice(0, LATEST_KEPT).forEach((p) => keep.add(p.uid));
    const gone = posts.filter((p) => !keep.has(p.uid)).map((p) => p.uid);
    if (gone.length) await db.blogs.bulkDelete(gone);
  });
}

/**
 * Fetches the list pictures (320 px) of the latest posts once, so the service
 * worker keeps them and /news shows them offline; skipped with data saver on.
 * One at a time, after the page has what it needs; a cached one costs nothing.
 */
export async function keepListPictures(posts: Post[]): Promise<void> {
  for (const post of posts.slice(0, LATEST_KEPT)) {
    if (!post.thumbnail_url || !navigator.onLine) continue;
    await fetchFile(post.thumbnail_url).catch(() => undefined);
  }
}

/** A post's read time as its admin wrote it, or counted from its words (200 a minute) in
 * the reader's language, as the server's first screen does (model::blog::read_minutes). */
export function readTime(t: TFunction, post: Pick<Post, 'read_time' | 'full_content'>): string {
  if (post.read_time.trim()) return post.read_time;
  const words = post.full_content
    .replace(/<[^>]*>/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
  return t('news.read_minutes', { count: Math.max(1, Math.ceil(words / 200)) });
}
