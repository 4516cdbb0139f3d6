import { describe, expect, it } from 'vitest';
import { feeFromPercent } from './platform-settings';

describe('the platform fee as typed', () => {
  it('reads percent with up to two decimals, a comma too', () => {
    expect(feeFromPercent('2.5')).toBe(250);
    expect(feeFromPercent(' 2,75 ')).toBe(275);
    expect(feeFromPercent('0')).toBe(0);
    expect(feeFromPercent('30')).toBe(3000);
  });

  it('refuses what is not 0 to 30', () => {
    for (const typed of ['', '30.01', '31', '-1', '2.555', 'five', '1e1']) expect(feeFromPercent(typed)).toBeNull();
  });
});
