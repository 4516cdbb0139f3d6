// Market prices (docs/prices.md): the public board, the range a product page and the
// listing form show, and a field agent's prices recorded offline (`price.record`),
// kept on the phone until the server has them.
import { useLiveQuery } from 'dexie-react-hooks';
import { api } from '../api';
import { formatMoney } from '../format';
import type { LocalDb } from '../sync/local-db';
import type { StoredPrice } from '../sync/stored';
import { argsOf, enqueue, forget, newUid, type EntityHandler } from '../sync/engine';
import { keepNewest, withChangeState, type ChangeState } from './recorded';
import type { PriceRecord } from '../sync/protocol';

/** South Kivu's main crops, in the server's order (`crops.<key>` names them). */
export const CROPS = [
  'maize',
  'bean',
  'cassava',
  'banana',
  'potato',
  'rice',
  'sorghum',
  'groundnut',
  'soybean',
  'tomato',
  'onion',
  'cabbage',
  'avocado',
  'coffee',
] as const;
export type Crop = (typeof CROPS)[number];

/** The units prices are quoted in (`price_units.<unit>`). */
export const PRICE_UNITS = ['kg', 'bag_50kg', 'bag_100kg', 'basin', 'bunch', 'piece'] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];

export const CURRENCIES = ['USD', 'CDF'] as const;

export interface Market {
  id: number;
  name: string;
  territory: string;
}

/** Prices per unit in millionths of a US dollar. */
export interface Figures {
  median_usd_micros: number;
  low_usd_micros: number;
  high_usd_micros: number;
  observations: number;
}

export interface CropPrices extends Figures {
  crop: Crop;
  unit: PriceUnit;
  /** The newest week with prices (its Monday). */
  week: string;
  sources: { sales: number; agents: number; imports: number; outliers: number };
  change_percent: number | null;
  /** Each week's median of `Board.weeks`. */
  series: (number | null)[];
  markets: (Figures & { market_id: number; name: string; territory: string })[];
}

export interface Board {
  weeks: string[];
  francs_per_usd: number | null;
  crops: CropPrices[];
}

export interface BoardFilters {
  crop?: string;
  market?: string;
  territory?: string;
}

export function boardQuery(filters: BoardFilters): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  return query.toString();
}

/** The board (the service worker keeps the last answer of each filter for offline). */
export const fetchBoard = (filters: BoardFilters) =>
  api<{ data: Board; markets: Market[] }>(`/prices?${boardQuery(filters)}`);

/** The whole board as the phone last had it, kept in its own database (not the service
 * worker's cache, which a first visit's page does not go through yet). */
export interface SavedBoard {
  board: Board;
  markets: Market[];
  /** When it was fetched. */
  savedAt: string;
}

const SAVED_BOARD = 'prices_board';

export const savedBoard = (db: LocalDb) => db.getMeta<SavedBoard>(SAVED_BOARD);

export async function saveBoard(db: LocalDb, board: Board, markets: Market[]): Promise<void> {
  await db.setMeta(SAVED_BOARD, { board, markets, savedAt: new Date().toISOString() } satisfies SavedBoard);
}

/** A card of a board read on the phone: a crop's figures, or one market's (`market`):
 * a market's own weeks are not on the phone, so it has no line, change or sources. */
export type BoardCard = CropPrices & { market?: string };

/**
 * The saved whole board filtered on the phone, for every filter: a crop is its card; at a
 * market, each crop's figures there; in a territory, each crop's figures at each of its
 * markets (a territory's own median is the server's to compute).
 */
export function filterSavedBoard(board: Board, filters: BoardFilters, markets: Market[]): BoardCard[] {
  const crops = board.crops.filter((c) => !filters.crop || c.crop === filters.crop);
  if (!filters.market && !filters.territory) return crops;
  const wanted = (m: CropPrices['markets'][number]) =>
    filters.market
      ? String(m.market_id) === filters.market
      : (markets.find((known) => known.id === m.market_id)?.territory ?? m.territory) === filters.territory;
  return crops.flatMap((c) =>
    c.markets.filter(wanted).map((m) => ({
      ...c,
      median_usd_micros: m.median_usd_micros,
      low_usd_micros: m.low_usd_micros,
      high_usd_micros: m.high_usd_micros,
      observations: m.observations,
      sources: { sales: 0, agents: 0, imports: 0, outliers: 0 },
      change_percent: null,
      series: [],
      markets: [],
      market: m.name,
    })),
  );
}

/** The territory a person's place names ("Kabare, South Kivu" is Kabare), among the markets'. */
export function territoryOf(place: string | null | undefined, markets: Market[]): string | undefined {
  if (!place) return undefined;
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();
  const parts = place.split(',').map(fold);
  return markets.map((m) => m.territory).find((t) => parts.includes(fold(t)));
}

export interface PriceRange extends Figures {
  crop: Crop;
  unit: PriceUnit;
  days: number;
  territory: string | null;
}

/** What buyers paid lately for what `name` names, in `unit`, near `place`; null below 5 prices. */
export async function fetchRange(name: string, unit: string, place?: string | null): Promise<PriceRange | null> {
  const query = new URLSearchParams({ name, unit });
  if (place) query.set('place', place);
  return (await api<{ data: PriceRange | null }>(`/prices/range?${query}`)).data;
}

/** A price in millionths of a dollar, as money ("$1.20"). */
export const formatMicros = (micros: number) => formatMoney(micros / 1e6);

/** Where a listing's price stands against a range. */
export function placeInRange(range: Figures, usd: number): 'below' | 'within' | 'above' {
  const micros = Math.round(usd * 1e6);
  if (micros < range.low_usd_micros) return 'below';
  return micros > range.high_usd_micros ? 'above' : 'within';
}

const MARKETS_KEY = 'price_markets';

/** The markets, downloaded when there is a signal and kept for the offline form. */
export async function refreshMarkets(db: LocalDb): Promise<void> {
  const { data } = await api<{ data: Market[] }>('/prices/markets');
  await db.setMeta(MARKETS_KEY, data);
}

export function useSavedMarkets(db: LocalDb): Market[] | undefined {
  return useLiveQuery(async () => (await db.getMeta<Market[]>(MARKETS_KEY)) ?? [], [db]);
}

export type { StoredPrice };
/** ... with where it stands. */
export type RecordedPrice = StoredPrice & { change?: ChangeState };

/** Prices kept on the phone once sent: the agent's recent list, not an archive. */
const KEPT = 100;

/** Records a price seen at a market, offline if need be; answers its uid. */
export async function recordPrice(db: LocalDb, price: Omit<PriceRecord, 'uid'>): Promise<string> {
  const uid = newUid();
  await enqueue(db, 'price.record', { uid, ...price });
  await keepNewest(db, db.recordedPrices, KEPT);
  return uid;
}

/** The prices recorded on this phone, newest first, each with its change's state. */
export function useRecordedPrices(db: LocalDb): RecordedPrice[] | undefined {
  return useLiveQuery(() => withChangeState(db, db.recordedPrices), [db]);
}

/** Forgets a recorded price the server refused (and its refusal). */
export async function forgetPrice(db: LocalDb, uid: string): Promise<void> {
  await forget(db, db.recordedPrices, uid);
}

/** Prices recorded here are kept on the phone (never pulled: the agent's own list). */
export const priceEntity: EntityHandler = {
  table: (db) => db.recordedPrices,
  async apply(db, mutation) {
    const price = argsOf(mutation, 'price.record');
    if (!price) return;
    const kept = await db.recordedPrices.get(price.uid);
    await db.recordedPrices.put({
      ...price,
      recorded_at: kept?.recorded_at ?? mutation.client_time ?? new Date().toISOString(),
    });
  },
};
