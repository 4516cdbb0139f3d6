// A product photo from this phone (before upload) or the server, or a placeholder.
import type { LocalDb } from '../lib/sync/local-db';
import { usePhotoUrl } from '../lib/sync/photos';

export function Photo({
  db,
  hash,
  size,
  alt,
  category,
}: {
  db: LocalDb;
  hash: string | undefined;
  size: 320 | 1024;
  alt: string;
  /** With no photo at all, a drawing of the product's category stands in. */
  category?: string;
}) {
  const url = usePhotoUrl(db, hash, size);
  if (!url) {
    return <div className="product-image placeholder" data-category={hash ? undefined : category} aria-hidden="true" />;
  }
  return <img className="product-image" src={url} alt={alt} loading="lazy" width={size} height={(size * 3) / 4} />;
}
