// What the admin's lists (orders, applications, products, people, market prices) share:
// their filters, page, answer and failure, read from the server each time (docs/product.md,
// Screens). The search reaches the server once typing pauses; other filters start at the
// first page; a refresh that fails keeps the list on screen with the error above it.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/form';
import { LoadFailed } from '../../components/load-failed';
import { Spinner } from '../../components/spinner';
import { ExportButton } from '../../components/export-button';
import { useDebounced } from './use-debounced';
import './admin.css';

/** A list's state: `read` must be the same function from one render to the next (declared at module level). */
export function useAdminList<F extends object, R>(initial: F, read: (filters: F, page: number) => Promise<R>) {
  const [filters, setFilters] = useState(initial);
  const q = useDebounced('q' in filters && typeof filters.q === 'string' ? filters.q : undefined);
  // What the server is asked: the filters, with the search as it stood when typing paused
  // (by value, so that typing alone asks nothing until it pauses).
  const key = JSON.stringify(q === undefined ? filters : { ...filters, q });
  const asked = useMemo(() => JSON.parse(key) as F, [key]);
  // The page belongs to the filters it was chosen under: other filters start at page one.
  const [paged, setPaged] = useState({ key, page: 1 });
  const page = paged.key === key ? paged.page : 1;
  const setPage = useCallback((next: number) => setPaged({ key, page: next }), [key]);
  const [result, setResult] = useState<R | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  // Only the latest question's answer is shown (an earlier one may arrive after it).
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const asking = ++latest.current;
    setLoading(true);
    try {
      const answer = await read(asked, page);
      if (asking !== latest.current) return;
      setResult(answer);
      setError(null);
    } catch (caught) {
      if (asking === latest.current) setError(caught);
    } finally {
      if (asking === latest.current) setLoading(false);
    }
  }, [read, asked, page]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const setFilter = useCallback(<K extends keyof F>(name: K, value: F[K]) => {
    setFilters((current) => ({ ...current, [name]: value }));
  }, []);

  return { filters, asked, setFilter, page, setPage, result, error, loading, reload };
}

/** A list before its first answer: a spinner, or why it could not load and a way to try again. */
export function ListPending({ error, failedKey, retry }: { error: unknown; failedKey: ParseKeys; retry(): void }) {
  const { t } = useTranslation();
  if (error) return <LoadFailed title={t(failedKey)} error={error} fallbackKey={failedKey} onRetry={retry} />;
  return <Spinner label={t('common.loading')} />;
}

/** The filters above a list: its search box (when it has one), its own filters, then its export and actions. */
export function FilterBar({
  search,
  exportPath,
  actions,
  children,
}: {
  search?: { value: string; placeholder: string; onChange(value: string): void };
  /** The export of what the filters show, as CSV. */
  exportPath: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="card filters">
      {search && (
        <TextField
          label={t('admin.search')}
          type="search"
          placeholder={search.placeholder}
          value={search.value}
          onChange={(e) => search.onChange(e.target.value)}
        />
      )}
      {children}
      <div className="filter-actions">
        <ExportButton path={exportPath} />
        {actions}
      </div>
    </div>
  );
}
