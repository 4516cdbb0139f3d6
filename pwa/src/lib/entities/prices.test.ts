import { describe, expect, it } from 'vitest';
import { filterSavedBoard, territoryOf, type Board, type CropPrices, type Market } from './prices';

const markets: Market[] = [
  { id: 1, name: 'Kadutu', territory: 'Bukavu' },
  { id: 2, name: 'Nyawera', territory: 'Bukavu' },
  { id: 3, name: 'Kavumu', territory: 'Kabare' },
];

function crop(key: CropPrices['crop'], median: number): CropPrices {
  const figures = (m: number) => ({ median_usd_micros: m, low_usd_micros: m - 100, high_usd_micros: m + 100 });
  return {
    crop: key,
    unit: 'kg',
    week: '2026-11-23',
    ...figures(median),
    observations: 9,
    sources: { sales: 1, agents: 4, imports: 4, outliers: 0 },
    change_percent: 5,
    series: [median],
    markets: markets.map((m, i) => ({
      market_id: m.id,
      name: m.name,
      territory: m.territory,
      ...figures(median + i * 1000),
      observations: 3,
    })),
  };
}

const board: Board = {
  weeks: ['2026-11-23'],
  francs_per_usd: 2850,
  crops: [crop('maize', 400_000), crop('bean', 1_200_000)],
};

describe('the saved market prices, filtered on the phone (docs/prices.md, Offline)', () => {
  it('keeps a crop, a market or a territory for every filter', () => {
    expect(filterSavedBoard(board, {}, markets)).toHaveLength(2);
    expect(filterSavedBoard(board, { crop: 'maize' }, markets).map((c) => c.crop)).toEqual(['maize']);
    const kavumu = filterSavedBoard(board, { market: '3' }, markets);
    expect(kavumu.map((c) => [c.crop, c.market, c.median_usd_micros])).toEqual([
      ['maize', 'Kavumu', 402_000],
      ['bean', 'Kavumu', 1_202_000],
    ]);
    expect(kavumu[0]?.series).toEqual([]);
    const bukavu = filterSavedBoard(board, { crop: 'bean', territory: 'Bukavu' }, markets);
    expect(bukavu.map((c) => c.market)).toEqual(['Kadutu', 'Nyawera']);
  });

  it("reads a person's territory from their place", () => {
    expect(territoryOf('Kabare, South Kivu', markets)).toBe('Kabare');
    expect(territoryOf('bukavu', markets)).toBe('Bukavu');
    expect(territoryOf('Goma', markets)).toBeUndefined();
    expect(territoryOf(null, markets)).toBeUndefined();
  });
});
