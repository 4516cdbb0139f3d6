import { describe, expect, it } from 'vitest';
import { STORE_DAYS } from '../../lib/format';
import { checkLot } from './lots';

const valid = {
  stock: 'bean/A',
  kilograms: '40',
  price: '1,10',
  min_order: '20',
  pickup: 'Walungu centre',
  pickup_days: STORE_DAYS,
  delivers: false,
  delivery_cost: '',
};

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

  it('wants a day to collect it on, and a delivery cost (0 or more) when the cooperative delivers', () => {
    expect(checkLot({ ...valid, pickup_days: [] }, 48)).toEqual(['pickup_days_invalid']);
    expect(checkLot({ ...valid, delivery_cost: 'x' }, 48)).toEqual([]);
    expect(checkLot({ ...valid, delivers: true, delivery_cost: '' }, 48)).toEqual(['delivery_cost_invalid']);
    expect(checkLot({ ...valid, delivers: true, delivery_cost: '-1' }, 48)).toEqual(['delivery_cost_invalid']);
    expect(checkLot({ ...valid, delivers: true, delivery_cost: '0' }, 48)).toEqual([]);
    expect(checkLot({ ...valid, delivers: true, delivery_cost: '2,50' }, 48)).toEqual([]);
  });
});
