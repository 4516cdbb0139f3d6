import { render } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../lib/i18n';
import { Price } from './product-parts';

beforeAll(async () => {
  await setupI18n().changeLanguage('en');
});

describe('a price', () => {
  it('strikes the original price only for a discount, apart from the unit', () => {
    const discounted = render(<Price product={{ price: 1.5, current_price: 1.2, unit: 'kg' }} />);
    const was = discounted.container.querySelector('del');
    expect(was?.textContent).toBe('$1.50');
    expect(was?.classList.contains('was-price')).toBe(true);
    discounted.unmount();
    // A raised price is not a discount.
    const raised = render(<Price product={{ price: 1.5, current_price: 2.95, unit: 'kg' }} />);
    expect(raised.container.querySelector('del')).toBeNull();
    expect(raised.container.textContent).toContain('$2.95');
  });
});
