// A paid course's payments in the admin's Courses section (docs/payments.md): who paid,
// how much and when, and a refund within 30 days of paying (the money goes back to the
// number that paid; the learner's lessons close when the operator confirms). Online.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import { formatDate, formatMoney } from '../../lib/format';
import { ConfirmDialog } from '../../components/dialog';
import { LoadFailed } from '../../components/load-failed';
import { Pager } from '../../components/pager';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import type { AdminCourse } from './course-forms';

interface Refund {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  failure_reason: string | null;
  updated_at: string;
}

interface Purchase {
  payment_id: string;
  learner_name: string;
  learner_email: string | null;
  amount_cents: number;
  operator: string;
  paid_at: string;
  refundable_until: string;
  refund: Refund | null;
}

interface PurchasePage {
  data: Purchase[];
  total: number;
  page: number;
  per_page: number;
}

const PER_PAGE = 20;

export function CoursePurchases({ course, onClose }: { course: AdminCourse; onClose(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [page, setPage] = useState(1);
  const [list, setList] = useState<PurchasePage | null>(null);
  // When the list was loaded: what "within 30 days" is measured against.
  const [loadedAt, setLoadedAt] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [refunding, setRefunding] = useState<Purchase | null>(null);
  const load = useCallback(() => {
    api<PurchasePage>(`/admin/courses/${course.id}/purchases?page=${page}&per_page=${PER_PAGE}`).then(
      (answer) => (setList(answer), setLoadedAt(Date.now()), setError(null)),
      setError,
    );
  }, [course.id, page]);
  useEffect(load, [load]);

  const refund = (purchase: Purchase) =>
    api<{ data: Refund }>(`/admin/payments/${purchase.payment_id}/refund`, { method: 'POST' }).then(
      (answer) => {
        if (answer.data.status === 'failed') toast('error', t('admin_courses.refund_failed'));
        else toast('success', t('admin_courses.refund_sent'));
        load();
      },
      (caught: unknown) => toast('error', errorMessages(caught, t, 'admin_courses.refund_failed')[0]!),
    );

  const title = t('admin_courses.purchases_title', { title: course.title });
  if (error && !list) {
    return <LoadFailed title={title} error={error} fallbackKey="admin_courses.purchases_failed" onRetry={load} />;
  }
  return (
    <section className="admin-course-purchases" aria-labelledby="purchases-title">
      <div className="section-head">
        <h2 id="purchases-title">{title}</h2>
        <button type="button" className="button secondary" onClick={onClose}>
          {t('admin_courses.back')}
        </button>
      </div>
      {!list ? (
        <Spinner label={t('common.loading')} />
      ) : list.total === 0 ? (
        <p className="card coming-soon">{t('admin_courses.purchases_none')}</p>
      ) : (
        <>
          <ul className="cards">
            {list.data.map((p) => (
              <li key={p.payment_id} className="card">
                <h3>{p.learner_name}</h3>
                <p className="muted">{p.learner_email}</p>
                <p>
                  {t('admin_courses.paid_on', {
                    amount: formatMoney(p.amount_cents / 100),
                    date: formatDate(p.paid_at),
                    operator: p.operator,
                  })}
                </p>
                <RefundLine purchase={p} now={loadedAt} onRefund={() => setRefunding(p)} />
              </li>
            ))}
          </ul>
          <Pager list={list} onPage={setPage} />
        </>
      )}
      <ConfirmDialog
        open={refunding !== null}
        title={t('admin_courses.refund_title')}
        confirmLabel={t('admin_courses.refund')}
        cancelLabel={t('common.cancel')}
        danger
        onConfirm={() => {
          const chosen = refunding;
          setRefunding(null);
          if (chosen) void refund(chosen);
        }}
        onCancel={() => setRefunding(null)}
      >
        <p>
          {t('admin_courses.refund_body', {
            amount: formatMoney((refunding?.amount_cents ?? 0) / 100),
            name: refunding?.learner_name ?? '',
          })}
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** Where a purchase's refund stands, and the Refund button while one is possible. */
function RefundLine({ purchase: p, now, onRefund }: { purchase: Purchase; now: number; onRefund(): void }) {
  const { t } = useTranslation();
  const refund = p.refund;
  if (refund && refund.status !== 'failed') {
    return (
      <p className={refund.status === 'succeeded' ? 'badge grey' : 'badge yellow'}>
        {t(`admin_courses.refund_status.${refund.status}`, { date: formatDate(refund.updated_at) })}
      </p>
    );
  }
  const open = new Date(p.refundable_until).getTime() > now;
  return (
    <>
      {refund && (
        <p className="sync-note bad">
          {t('admin_courses.refund_status.failed', { reason: refund.failure_reason ?? '' })}
        </p>
      )}
      <p className="muted">
        {open
          ? t('admin_courses.refundable_until', { date: formatDate(p.refundable_until) })
          : t('errors.refund_window_over')}
      </p>
      {open && (
        <div className="actions">
          <button type="button" className="button secondary small" onClick={onRefund}>
            {t('admin_courses.refund')}
          </button>
        </div>
      )}
    </>
  );
}
