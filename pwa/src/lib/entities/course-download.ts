// "Download for offline" (docs/training.md): a course's lessons go to Dexie and its
// pictures to one Cache Storage cache, under their content-addressed URLs, so a
// picture two lessons (or two courses) show is stored once.
import { api, fetchFile } from '../api';
import type { Course, CourseContent, Lesson } from './courses';
import type { LocalDb } from '../sync/local-db';

const CACHE = 'mavuno-courses';

interface ContentAnswer {
  version: number;
  lessons: Lesson[];
  pictures: { url: string; bytes: number }[];
  bytes: number;
}

/** The lessons of a course, online (to read now, or to keep). */
export function fetchContent(course: Course): Promise<ContentAnswer> {
  return api<ContentAnswer>(`/courses/${course.id}/content`);
}

/** Whether to ask before downloading `bytes`: large on mobile data, or data saving on. */
export function shouldAsk(bytes: number, limit: number): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; type?: string } }).connection;
  if (connection?.saveData) return true;
  return bytes > limit && connection?.type !== 'wifi' && connection?.type !== 'ethernet';
}

/** Downloads a course for offline reading; `onProgress` gets 0 to 1. */
export async function downloadCourse(db: LocalDb, course: Course, onProgress: (share: number) => void): Promise<void> {
  const content = await fetchContent(course);
  const cache = await caches.open(CACHE);
  const total = Math.max(content.bytes, 1);
  let done = content.bytes - content.pictures.reduce((sum, p) => sum + p.bytes, 0);
  onProgress(done / total);
  for (const picture of content.pictures) {
    if (!(await cache.match(picture.url))) {
      const response = await fetchFile(picture.url);
      if (!response.ok) throw new Error(`picture ${picture.url}: ${response.status}`);
      await cache.put(picture.url, response);
    }
    done += picture.bytes;
    onProgress(done / total);
  }
  const saved: CourseContent = {
    uid: course.uid,
    version: content.version,
    lessons: content.lessons,
    pictures: content.pictures.map((p) => p.url),
    bytes: content.bytes,
    saved_at: new Date().toISOString(),
  };
  await db.courseContent.put(saved);
}

/** Removes a downloaded course; pictures another downloaded course shows stay. */
export async function removeDownload(db: LocalDb, uid: string): Promise<void> {
  const all = await db.courseContent.toArray();
  const gone = all.find((c) => c.uid === uid);
  if (!gone) return;
  const kept = new Set(all.filter((c) => c.uid !== uid).flatMap((c) => c.pictures));
  const cache = await caches.open(CACHE);
  for (const url of gone.pictures) if (!kept.has(url)) await cache.delete(url);
  await db.courseContent.delete(uid);
}

/** A picture from the downloads when it is there (no network needed), else its address. */
export async function pictureSource(url: string): Promise<string> {
  if (typeof caches === 'undefined') return url;
  const hit = await caches.match(url);
  return hit ? URL.createObjectURL(await hit.blob()) : url;
}

/** Keeps a certificate's PDF with the downloads, so it opens with no signal. */
export async function certificatePdf(url: string): Promise<string> {
  const cache = await caches.open(CACHE);
  let hit = await cache.match(url);
  if (!hit) {
    const response = await fetchFile(url);
    if (!response.ok) throw new Error(`certificate: ${response.status}`);
    await cache.put(url, response.clone());
    hit = response;
  }
  return URL.createObjectURL(await hit.blob());
}
