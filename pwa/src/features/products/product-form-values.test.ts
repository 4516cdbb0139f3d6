import { describe, expect, it } from 'vitest';
import { validateProduct } from './product-form-values';

describe('the farmer product form', () => {
  it('checks the spec rules in order', () => {
    const problems = validateProduct({
      title: ' ',
      description: '',
      quantity: '1.5',
      price: '2.505',
      current_price: '-1',
      harvest_date: '',
      expiry_date: '',
    });
    expect(Object.entries(problems)).toEqual([
      ['title', 'required'],
      ['description', 'required'],
      ['quantity', 'quantity_invalid'],
      ['price', 'price_invalid'],
      ['current_price', 'price_invalid'],
    ]);
    expect(
      validateProduct({
        title: 'a',
        description: 'b',
        quantity: '1',
        price: '0',
        current_price: '2.5',
        harvest_date: '2026-11-02',
        expiry_date: '2026-11-01',
      }),
    ).toEqual({ expiry_date: 'expiry_before_harvest' });
  });
});
