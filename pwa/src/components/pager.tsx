// Previous / next through pages of a server list, with where we are.
import { useTranslation } from 'react-i18next';

/** The paging fields every paged list answer carries. */
export interface Paged {
  page: number;
  total: number;
  per_page: number;
}

export function Pager({ list, onPage }: { list: Paged; onPage(page: number): void }) {
  const { t } = useTranslation();
  const { page, total, per_page: perPage } = list;
  if (total === 0) return null;
  const pages = Math.ceil(total / perPage);
  const from = (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return (
    <nav className="pager" aria-label={t('admin.showing', { from, to, total })}>
      <span>{t('admin.showing', { from, to, total })}</span>
      <button type="button" className="button secondary small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('admin.previous')}
      </button>
      <button
        type="button"
        className="button secondary small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {t('admin.next')}
      </button>
    </nav>
  );
}
