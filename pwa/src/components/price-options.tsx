// The crops and markets of market prices as a select's options (docs/prices.md): the
// board's filters, the agent's form, the admin's and the profile's alerts all list them.
import { useTranslation } from 'react-i18next';
import { CROPS, type Market } from '../lib/entities/prices';

/** `blank`: the first option's words ("All crops", "Choose a crop"), value "". */
export function CropOptions({ blank }: { blank?: string }) {
  const { t } = useTranslation();
  return (
    <>
      {blank !== undefined && <option value="">{blank}</option>}
      {CROPS.map((crop) => (
        <option key={crop} value={crop}>
          {t(`crops.${crop}`)}
        </option>
      ))}
    </>
  );
}

/** Each market with its territory, by id. */
export function MarketOptions({ markets, blank }: { markets: Market[]; blank: string }) {
  return (
    <>
      <option value="">{blank}</option>
      {markets.map((m) => (
        <option key={m.id} value={String(m.id)}>
          {m.name} ({m.territory})
        </option>
      ))}
    </>
  );
}
