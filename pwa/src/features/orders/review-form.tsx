// "Leave Review" on a product of a delivered order: 1 to 5 stars and a
// comment, once (sending again changes it). Needs a connection.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox } from '../../components/form';
import { errorMessages } from '../../lib/error-text';
import { writeReview } from '../../lib/reviews';

export function ReviewForm({ productId, title }: { productId: number; title: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [rating, setRating] = useState(5);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<unknown>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  if (sent) return <p className="success-line">{t('reviews.thanks')}</p>;
  if (!open) {
    return (
      <button type="button" className="button secondary small" onClick={() => setOpen(true)}>
        {t('reviews.leave', { title })}
      </button>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await writeReview(productId, rating, comment);
      setSent(true);
    } catch (caught) {
      setProblem(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card form review-form" onSubmit={submit}>
      <ErrorBox messages={problem ? errorMessages(problem, t, 'reviews.failed') : []} />
      <fieldset className="choices">
        <legend>{t('reviews.rating_for', { title })}</legend>
        {[5, 4, 3, 2, 1].map((n) => (
          <label key={n} className="checkbox">
            <input type="radio" name={`rating-${productId}`} checked={rating === n} onChange={() => setRating(n)} />
            <span aria-hidden="true">{'★'.repeat(n)}</span> {t('reviews.stars', { count: n })}
          </label>
        ))}
      </fieldset>
      <label className="field">
        {t('reviews.comment')}
        <textarea value={comment} onChange={(e) => setComment(e.target.value)} maxLength={1000} />
      </label>
      <button type="submit" className="button" disabled={busy}>
        {busy ? t('checkout.processing') : t('reviews.send')}
      </button>
    </form>
  );
}
