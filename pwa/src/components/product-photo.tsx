// A product photo from this phone (before upload) or the server, or a placeholder.
import type { LocalDb } from '../lib/local-db';
import { usePhotoUrl } from '../lib/photos';

export function Photo({
  db,
  hash,
  size,
  alt,
}: {
  db: LocalDb;
  hash: string | undefined;
  size: 320 | 1024;
  alt: string;
}) {
  const url = usePhotoUrl(db, hash, size);
  if (!url) return <div className="product-image placeholder" aria-hidden="true" />;
  return <img className="product-image" src={url} alt={alt} loading="lazy" width={size} height={(size * 3) / 4} />;
}
