// The CSV export of a list (an admin's, a cooperative's book): downloads what the
// server makes for the current filters, in the reader's language. An empty list is the
// server's to say (404 no_users / no_applications / no_deliveries), shown translated.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DownloadIcon } from './icons';
import { useToast } from './toast';
import { download } from '../lib/api';
import { errorMessages } from '../lib/error-text';

/** `path`: the export's address with its filters, e.g. `/admin/users/export?q=...&lang=fr`. */
export function ExportButton({ path, label }: { path: string; label?: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await download(path);
    } catch (caught) {
      toast('error', errorMessages(caught, t, 'admin.export_failed')[0]!);
    } finally {
      setExporting(false);
    }
  };

  return (
    <button type="button" className="button secondary" onClick={() => void exportCsv()} disabled={exporting}>
      <DownloadIcon /> {exporting ? t('admin.exporting') : (label ?? t('admin.export'))}
    </button>
  );
}
