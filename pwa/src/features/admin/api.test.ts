import { describe, expect, it } from 'vitest';
import { applicationQuery, periodStart, userQuery } from './api';

describe('admin filters as the server takes them', () => {
  const now = new Date(2026, 10, 21, 15, 30);

  it('periods start in the admin own time zone', () => {
    expect(periodStart('all', now)).toBeUndefined();
    expect(new Date(periodStart('today', now)!).getTime()).toBe(new Date(2026, 10, 21, 0, 0).getTime());
    expect(new Date(periodStart('week', now)!).getTime()).toBe(new Date(2026, 10, 14, 15, 30).getTime());
    expect(new Date(periodStart('month', now)!).getTime()).toBe(new Date(2026, 9, 22, 15, 30).getTime());
  });

  it('leaves out empty filters and keeps what the search means', () => {
    expect(applicationQuery({ q: '  ', status: '', period: 'all' }, { page: '2' })).toBe('page=2');
    expect(applicationQuery({ q: ' Umoja 50% ', status: 're-submitted', period: 'all' })).toBe(
      'q=Umoja+50%25&status=re-submitted',
    );
    expect(userQuery({ q: '', role: 'farmer', status: 'inactive', country: 'DRC' }, { lang: 'fr' })).toBe(
      'lang=fr&role=farmer&status=inactive&country=DRC',
    );
  });
});
