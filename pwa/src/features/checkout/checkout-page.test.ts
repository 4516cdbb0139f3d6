import { describe, expect, it } from 'vitest';
import { checkShipping } from './checkout-page';

describe('the checkout form', () => {
  it("is checked in the server's order, with its codes", () => {
    expect(
      checkShipping({
        first_name: ' ',
        last_name: '',
        email: 'nope',
        phone: '',
        address: '',
        city: '',
        postal_code: '',
        country: 'FRA',
      }),
    ).toEqual([
      'first_name_required',
      'last_name_required',
      'email_invalid',
      'phone_required',
      'address_required',
      'city_required',
      'country_required',
    ]);
    expect(
      checkShipping({
        first_name: 'N',
        last_name: 'B',
        email: 'n@example.com',
        phone: '1',
        address: 'a',
        city: 'c',
        postal_code: '',
        country: 'KEN',
      }),
    ).toEqual([]);
  });

  it('asks no address of what the buyer collects', () => {
    const collected = {
      first_name: 'N',
      last_name: 'B',
      email: '',
      phone: '1',
      address: '',
      city: '',
      postal_code: '',
      country: 'DRC',
    };
    expect(checkShipping(collected, false)).toEqual([]);
    expect(checkShipping(collected)).toEqual(['address_required', 'city_required']);
  });
});
