// A quantity stepper: − value +, each button disabled at its end.
import { useTranslation } from 'react-i18next';

/** − value +, each button disabled at its end. */
export function Stepper({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange(value: number): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="stepper" role="group" aria-label={label}>
      <button
        type="button"
        className="icon-button"
        aria-label={t('market.less')}
        disabled={value <= min}
        onClick={() => onChange(value - 1)}
      >
        −
      </button>
      <output aria-live="polite">{value}</output>
      <button
        type="button"
        className="icon-button"
        aria-label={t('market.more')}
        disabled={value >= max}
        onClick={() => onChange(value + 1)}
      >
        +
      </button>
    </div>
  );
}
