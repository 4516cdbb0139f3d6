// Photos taken on the phone (docs/sync.md, Photos): resized before they
// are kept (about 1280 px, JPEG), named by their SHA-256, stored in Dexie
// until uploaded with an idempotent PUT, then shown from the server.
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { api } from '../api';
import type { LocalDb } from './local-db';

const MAX_SIDE = 1280;
const QUALITY = 0.82;

async function sha256(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Resizes a picked picture and keeps it on the phone; returns its hash. */
export async function keepPhoto(db: LocalDb, file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('could not encode the photo'))), 'image/jpeg', QUALITY),
  );
  const hash = await sha256(blob);
  await db.photos.put({ hash, blob, uploaded: false });
  return hash;
}

/** Sends the photos the server does not have yet; a repeat is harmless (the address is the hash). */
export async function uploadPhotos(db: LocalDb, hashes: string[]): Promise<void> {
  for (const hash of hashes) {
    const photo = await db.photos.get(hash);
    if (!photo || photo.uploaded) continue;
    await api(`/uploads/${hash}`, { method: 'PUT', file: { blob: photo.blob, type: 'image/jpeg' } });
    await db.photos.update(hash, { uploaded: true });
  }
}

/** Where to show a photo: from the phone while it is only here, else from the server at `size` px. */
export function usePhotoUrl(db: LocalDb | null, hash: string | undefined, size: 320 | 1024): string | undefined {
  const blob = useLiveQuery(async () => (db && hash ? ((await db.photos.get(hash))?.blob ?? null) : null), [db, hash]);
  const [url, setUrl] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!hash) return setUrl(undefined);
    if (!blob) return setUrl(`/media/${hash}-${size}.jpg`);
    const local = URL.createObjectURL(blob);
    setUrl(local);
    return () => URL.revokeObjectURL(local);
  }, [blob, hash, size]);
  return url;
}
