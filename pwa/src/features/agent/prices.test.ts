import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDb } from '../../lib/sync/local-db';
import { registerEntity } from '../../lib/sync/engine';
import { boardQuery, forgetPrice, placeInRange, priceEntity, recordPrice } from '../../lib/entities/prices';
import { checkPrice } from './prices-section';

registerEntity('price', priceEntity);

const range = { low_usd_micros: 1_100_000, high_usd_micros: 1_400_000, median_usd_micros: 1_200_000, observations: 6 };

describe('market prices', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says where a listing stands against the range, edges within', () => {
    expect(placeInRange(range, 1.1)).toBe('within');
    expect(placeInRange(range, 1.4)).toBe('within');
    expect(placeInRange(range, 1.09)).toBe('below');
    expect(placeInRange(range, 1.41)).toBe('above');
  });

  it('sends only the filters that are set', () => {
    expect(boardQuery({ crop: 'bean', market: '', territory: 'Bukavu' })).toBe('crop=bean&territory=Bukavu');
    expect(boardQuery({})).toBe('');
  });

  it("checks the agent's form in the server's order and keeps a comma price", () => {
    const good = {
      market: '1',
      crop: 'bean',
      unit: 'kg',
      price: '1,20',
      currency: 'USD',
      observed_on: '2026-11-20',
      note: '',
    };
    expect(checkPrice(good)).toEqual([]);
    expect(checkPrice({ ...good, market: '', crop: '', price: '0', observed_on: '1999-01-01' })).toEqual([
      'market_unknown',
      'crop_unknown',
      'market_price_invalid',
      'date_too_old',
    ]);
    expect(checkPrice({ ...good, price: '1.234' })).toEqual(['market_price_invalid']);
    expect(checkPrice({ ...good, observed_on: '2999-01-01' })).toEqual(['date_future']);
  });

  it('keeps a price recorded offline on the phone, queued once, until the agent forgets a refused one', async () => {
    vi.stubGlobal('navigator', { onLine: false, locks: undefined, storage: undefined });
    const db = new LocalDb('prices-test');
    const uid = await recordPrice(db, {
      market: 1,
      crop: 'bean',
      unit: 'kg',
      price: '1.20',
      currency: 'USD',
      observed_on: '2026-11-20',
    });
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ name: 'price.record', uid, state: 'queued' });
    expect(await db.recordedPrices.get(uid)).toMatchObject({ crop: 'bean', price: '1.20', market: 1 });
    await forgetPrice(db, uid);
    expect(await db.recordedPrices.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    db.close();
  });
});
