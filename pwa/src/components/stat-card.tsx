// A figure with its label; pressing it filters (admin and farmer screens).
import { currentLanguage } from '../lib/i18n';
import './stat-card.css';

export function StatCard({
  label,
  value,
  active,
  onClick,
}: {
  label: string;
  /** A count (written in the person's language) or a figure already written (an amount). */
  value: number | string;
  active?: boolean;
  onClick?(): void;
}) {
  return (
    <button type="button" className="stat-card" aria-pressed={active} onClick={onClick} disabled={!onClick}>
      <span className="stat-value">{typeof value === 'number' ? value.toLocaleString(currentLanguage()) : value}</span>
      <span className="stat-label">{label}</span>
    </button>
  );
}
