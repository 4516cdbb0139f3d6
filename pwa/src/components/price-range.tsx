// What buyers paid lately for a crop (docs/prices.md): under a product's price, and in
// the farmer's listing form while they type one. Nothing is shown below 5 prices, for a
// name that is no crop, or without a signal (a hint, never in the way).
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../lib/paths';
import { fetchRange, formatMicros, placeInRange, type PriceRange } from '../lib/entities/prices';

/** How long typing must pause before the range is asked for. */
const PAUSE_MS = 400;

export function PriceRangeHint({
  name,
  unit,
  place,
  price,
  id,
}: {
  /** The product's names (its title and others). */
  name: string;
  unit: string;
  place?: string | null;
  /** The listing's price in US dollars, to say where it stands. */
  price?: number;
  id?: string;
}) {
  const { t } = useTranslation();
  const [range, setRange] = useState<{ key: string; range: PriceRange | null } | null>(null);
  const key = `${name.trim()}|${unit}|${place ?? ''}`;
  useEffect(() => {
    if (name.trim().length < 3) return undefined;
    let live = true;
    const timer = window.setTimeout(() => {
      fetchRange(name, unit, place).then(
        (found) => live && setRange({ key, range: found }),
        () => live && setRange({ key, range: null }),
      );
    }, PAUSE_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [key, name, unit, place]);
  const found = range?.key === key ? range.range : null;
  if (!found) return null;
  const where = found.territory ? t('prices.hint.in', { place: found.territory }) : t('prices.hint.everywhere');
  const standing = price !== undefined && price > 0 ? placeInRange(found, price) : null;
  return (
    <p className="price-hint" id={id} role="status">
      {t('prices.hint.paid', {
        low: formatMicros(found.low_usd_micros),
        high: formatMicros(found.high_usd_micros),
        unit: t(`price_units.${found.unit}`),
        crop: t(`crops.${found.crop}`),
        where,
        count: found.days,
      })}{' '}
      {standing && <strong>{t(`prices.hint.${standing}`)}</strong>}{' '}
      <Link to={`${paths.prices}?crop=${found.crop}`}>{t('prices.hint.more')}</Link>
    </p>
  );
}
