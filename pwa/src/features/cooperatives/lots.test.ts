import { describe, expect, it } from 'vitest';
import { checkLot } from './lots';

const valid = { stock: 'bean/A', kilograms: '40', price: '1,10', min_order: '20', pickup: 'Walungu centre' };

describe('checkLot', () => {
  it('takes a lot within what is held, a price in dollars and cents, and a smallest order within the lot', () => {
    expect(checkLot(valid, 48)).toEqual([]);
  });

  it('names every problem in the server’s words', () => {
    expect(checkLot(valid, 30)).toEqual(['more_than_stock']);
    expect(checkLot({ ...valid, kilograms: '40.5', min_order: '0' }, 48)).toEqual([
      'lot_size_invalid',
      'lot_min_order_invalid',
    ]);
    expect(checkLot({ ...valid, stock: '', price: '1.234', min_order: '41', pickup: ' ' }, 48)).toEqual([
      'crop_unknown',
      'market_price_invalid',
      'lot_min_order_invalid',
      'pickup_required',
    ]);
  });
});
