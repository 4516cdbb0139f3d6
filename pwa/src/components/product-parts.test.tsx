import { fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Francs } from '../lib/entities/francs';
import { setupI18n } from '../lib/i18n';
import { Price, ProductImage, unitCounted } from './product-parts';
import { PICTURE_WIDTHS, pictureSet } from '../lib/picture-sizes';

// Whether francs show (and at which rate) is the hook's business, tested in lib/francs.
const francs = vi.hoisted(() => ({ value: null as Francs | null }));
vi.mock('../lib/entities/francs', () => ({ useFrancs: () => francs.value }));

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
    expect(raised.container.querySelector('.francs')).toBeNull();
  });

  it('adds the estimate in francs of the current price when there is one', () => {
    const rate = {
      uid: 'CDF',
      currency: 'CDF',
      francs_per_usd: 2850,
      as_of: '2026-11-20',
      updated_at: '2026-11-20T08:00:00Z',
    };
    francs.value = { rate, of: (usd) => `≈ ${usd * rate.francs_per_usd} FC` };
    const view = render(<Price product={{ price: 1.5, current_price: 1.2, unit: 'kg' }} />);
    expect(view.container.querySelector('.francs')?.textContent).toBe('≈ 3420 FC');
    francs.value = null;
  });
});

describe('a count of a unit', () => {
  it('takes the plural form of each language', async () => {
    const i18n = setupI18n();
    const say = (lang: string) => i18n.getFixedT(lang);
    await i18n.loadLanguages(['fr', 'sw']);
    expect(say('en')('market.in_stock', { count: 1, unit: unitCounted(say('en'), 'piece', 1) })).toBe(
      '1 piece in stock',
    );
    expect(say('en')('market.in_stock', { count: 200, unit: unitCounted(say('en'), 'piece', 200) })).toBe(
      '200 pieces in stock',
    );
    expect(say('fr')('market.in_stock', { count: 200, unit: unitCounted(say('fr'), 'piece', 200) })).toBe(
      '200 pièces en stock',
    );
    expect(say('sw')('market.in_stock', { count: 200, unit: unitCounted(say('sw'), 'piece', 200) })).toBe(
      'Akiba: vipande 200',
    );
    expect(say('fr')('market.order_range', { min: 5, max: 100, unit: unitCounted(say('fr'), 'piece', 100) })).toBe(
      'Commandez de 5 à 100 pièces',
    );
    expect(unitCounted(say('en'), 'kg', 120)).toBe('kg');
  });
});

describe('a product picture', () => {
  it('falls back to the cached smaller size, then to a drawn placeholder, never a broken image', () => {
    const view = render(
      <ProductImage
        src="/media/a-1024.jpg"
        fallback="/media/a-320.jpg"
        alt="Beans"
        width={1024}
        height={768}
        saveData={false}
      />,
    );
    const img = () => view.container.querySelector('img');
    expect(img()?.getAttribute('src')).toBe('/media/a-1024.jpg');
    fireEvent.error(img()!);
    expect(img()?.getAttribute('src')).toBe('/media/a-320.jpg');
    fireEvent.error(img()!);
    expect(img()).toBeNull();
    expect(screen.getByRole('img', { name: 'Beans' }).classList.contains('placeholder')).toBe(true);
    // Another picture starts from its own address again.
    view.rerender(
      <ProductImage
        src="/media/b-1024.jpg"
        fallback="/media/b-320.jpg"
        alt="Beans"
        width={1024}
        height={768}
        saveData={false}
      />,
    );
    expect(img()?.getAttribute('src')).toBe('/media/b-1024.jpg');
  });

  it('offers a phone the 720 px file where the page says how wide it draws it, then each cached size in turn', () => {
    const hash = 'ab'.repeat(32);
    const view = render(
      <ProductImage
        src={`/media/${hash}-1024.jpg`}
        fallback={`/media/${hash}-320.jpg`}
        alt="Beans"
        width={1024}
        height={768}
        saveData={false}
        priority
        sizes={PICTURE_WIDTHS.product}
      />,
    );
    const img = () => view.container.querySelector('img');
    expect(img()?.getAttribute('srcset')).toBe(`/media/${hash}-720.jpg 720w, /media/${hash}-1024.jpg 1024w`);
    expect(img()?.getAttribute('sizes')).toBe(PICTURE_WIDTHS.product);
    // Offline, the file chosen was not cached: the 1024 px one alone, then the list's.
    fireEvent.error(img()!);
    expect(img()?.hasAttribute('srcset')).toBe(false);
    expect(img()?.getAttribute('src')).toBe(`/media/${hash}-1024.jpg`);
    fireEvent.error(img()!);
    expect(img()?.getAttribute('src')).toBe(`/media/${hash}-320.jpg`);
    fireEvent.error(img()!);
    expect(img()).toBeNull();
  });

  it('has one file for any other address', () => {
    expect(pictureSet('/media/a-1024.jpg')).toBeUndefined();
    expect(pictureSet(`/media/${'ab'.repeat(32)}-320.jpg`)).toBeUndefined();
    expect(pictureSet('blob:http://x/1')).toBeUndefined();
    expect(pictureSet(undefined)).toBeUndefined();
  });
});
