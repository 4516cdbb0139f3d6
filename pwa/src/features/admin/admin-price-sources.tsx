// Where market prices come from, for admins (docs/prices.md): a price series in WFP
// VAM's CSV layout imported row by row (refused rows listed by line, with why), and
// the markets field agents record at, with their territory.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBox, TextField } from '../../components/form';
import { useToast } from '../../components/toast';
import { api } from '../../lib/api';
import { errorMessages } from '../../lib/error-text';
import type { Market } from '../../lib/entities/prices';

interface ImportReport {
  imported: number;
  already: number;
  refused: number;
  refusals: { line: number; reasons: string[] }[];
}

/** The CSV goes as it is (`text/csv`), not as a form: the server reads it row by row. */
async function importCsv(file: File): Promise<ImportReport> {
  const { data } = await api<{ data: ImportReport }>('/admin/prices/import', {
    method: 'POST',
    file: { blob: file, type: 'text/csv' },
  });
  return data;
}

export function PriceSources({ markets, onChanged }: { markets: Market[]; onChanged(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [importing, setImporting] = useState(false);
  const [importError, setImportError] = useState<unknown>(null);
  const [market, setMarket] = useState({ name: '', territory: '' });
  const [editing, setEditing] = useState<number | null>(null);
  const [marketError, setMarketError] = useState<unknown>(null);

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setImporting(true);
    setImportError(null);
    try {
      setReport(await importCsv(file));
      onChanged();
    } catch (caught) {
      setImportError(caught);
    } finally {
      setImporting(false);
    }
  };

  const saveMarket = async (event: FormEvent) => {
    event.preventDefault();
    setMarketError(null);
    try {
      await api(editing === null ? '/admin/markets' : `/admin/markets/${editing}`, {
        method: editing === null ? 'POST' : 'PATCH',
        json: market,
      });
      toast('success', t('admin.prices.market_saved'));
      setMarket({ name: '', territory: '' });
      setEditing(null);
      onChanged();
    } catch (caught) {
      setMarketError(caught);
    }
  };
  const removeMarket = async (m: Market) => {
    try {
      await api(`/admin/markets/${m.id}`, { method: 'DELETE' });
      toast('success', t('admin.prices.market_removed', { name: m.name }));
      onChanged();
    } catch (caught) {
      toast('error', errorMessages(caught, t, 'admin.prices.action_failed')[0]!);
    }
  };

  return (
    <>
      <form className="card form" onSubmit={upload} aria-labelledby="price-import">
        <h2 id="price-import">{t('admin.prices.import_title')}</h2>
        <p className="muted">{t('admin.prices.import_intro')}</p>
        <ErrorBox messages={importError ? errorMessages(importError, t, 'admin.prices.import_failed') : []} />
        <div className="field">
          <label htmlFor="price-file">{t('admin.prices.import_file')}</label>
          <input
            id="price-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setReport(null);
            }}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button" disabled={!file || importing}>
            {importing ? t('admin.prices.importing') : t('admin.prices.import')}
          </button>
        </div>
        {report && (
          <div role="status">
            <p>
              {t('admin.prices.import_done', { count: report.imported })}{' '}
              {report.already > 0 && t('admin.prices.import_already', { count: report.already })}{' '}
              {report.refused > 0 && t('admin.prices.import_refused', { count: report.refused })}
            </p>
            {report.refusals.length > 0 && (
              <ul className="refusals">
                {report.refusals.map((r) => (
                  <li key={r.line}>
                    {t('admin.prices.line', { line: r.line })}{' '}
                    {r.reasons
                      .map((reason) => {
                        // `field: code`: the code's words say what is wrong and where.
                        const code = reason.split(': ')[1] ?? reason;
                        return t(`errors.${code}`, { defaultValue: code });
                      })
                      .join(' ')}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </form>
      <section className="card" aria-labelledby="price-markets">
        <h2 id="price-markets">{t('admin.prices.markets_title')}</h2>
        <ul className="list">
          {markets.map((m) => (
            <li key={m.id} className="list-row">
              <span>
                <strong>{m.name}</strong> <span className="muted">{m.territory}</span>
              </span>
              <span className="actions">
                <button
                  type="button"
                  className="button secondary small"
                  onClick={() => {
                    setEditing(m.id);
                    setMarket({ name: m.name, territory: m.territory });
                  }}
                >
                  {t('admin.prices.edit_market')}
                </button>
                <button type="button" className="button danger small" onClick={() => void removeMarket(m)}>
                  {t('admin.prices.remove')}
                </button>
              </span>
            </li>
          ))}
        </ul>
        <form className="form" onSubmit={saveMarket} aria-label={t('admin.prices.market_form')}>
          <ErrorBox messages={marketError ? errorMessages(marketError, t, 'admin.prices.action_failed') : []} />
          <div className="field-row two">
            <TextField
              label={t('admin.prices.market_name')}
              required
              maxLength={60}
              value={market.name}
              onChange={(e) => setMarket((m) => ({ ...m, name: e.target.value }))}
            />
            <TextField
              label={t('prices.territory')}
              required
              maxLength={60}
              value={market.territory}
              onChange={(e) => setMarket((m) => ({ ...m, territory: e.target.value }))}
            />
          </div>
          <div className="actions">
            <button type="submit" className="button">
              {editing === null ? t('admin.prices.add_market') : t('admin.prices.save')}
            </button>
            {editing !== null && (
              <button
                type="button"
                className="button secondary"
                onClick={() => {
                  setEditing(null);
                  setMarket({ name: '', territory: '' });
                }}
              >
                {t('common.cancel')}
              </button>
            )}
          </div>
        </form>
      </section>
    </>
  );
}
