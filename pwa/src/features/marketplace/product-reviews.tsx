// A product's reviews on its page: what buyers who received it said.
// Fetched when the page opens; with no signal, the page says so.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format';
import { fetchReviews, type Review } from '../../lib/reviews';

export function ProductReviews({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const [reviews, setReviews] = useState<Review[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    fetchReviews(productId).then(setReviews, () => setFailed(true));
  }, [productId]);
  return (
    <section className="card product-reviews" aria-labelledby="reviews-title">
      <h2 id="reviews-title">{t('reviews.title')}</h2>
      {failed ? (
        <p className="muted">{t('reviews.offline')}</p>
      ) : reviews === null ? null : reviews.length === 0 ? (
        <p className="muted">{t('reviews.none')}</p>
      ) : (
        <ul className="review-list">
          {reviews.map((r) => (
            <li key={`${r.author}-${r.created_at}`}>
              <span className="stars" role="img" aria-label={t('reviews.stars', { count: r.rating })}>
                <span aria-hidden="true">
                  {'★'.repeat(r.rating)}
                  {'☆'.repeat(5 - r.rating)}
                </span>
              </span>
              <p>{r.comment}</p>
              <p className="muted">
                {r.author} · {formatDate(r.updated_at, 'short')}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
