// A figure with its label; pressing it filters (admin and farmer screens).
import { currentLanguage } from '../lib/i18n';

export function StatCard({
  label,
  value,
  active,
  onClick,
}: {
  label: string;
  value: number;
  active?: boolean;
  onClick?(): void;
}) {
  return (
    <button type="button" className="stat-card" aria-pressed={active} onClick={onClick} disabled={!onClick}>
      <span className="stat-value">{value.toLocaleString(currentLanguage())}</span>
      <span className="stat-label">{label}</span>
    </button>
  );
}
