import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../../lib/i18n';
import { bucketLabel, ChartBody, formatValue, type ChartData } from './admin-analytics';

/** French groups digits and spaces its colons with no-break spaces. */
const plain = (text: string) => text.replace(/\s/g, ' ');

const orders: ChartData = {
  grain: 'month',
  buckets: ['2026-10', '2026-11'],
  series: [
    { key: 'orders', unit: 'count', values: [1, 2] },
    { key: 'revenue_cents', unit: 'cents', values: [1500, 250050] },
  ],
  table: null,
  figures: [
    { key: 'orders', unit: 'count', value: 3, target: null },
    { key: 'revenue_cents', unit: 'cents', value: 251550, target: null },
  ],
};

beforeAll(async () => {
  await setupI18n().changeLanguage('fr');
});

describe('an analytics chart', () => {
  it('reads buckets and values in the reader’s language', () => {
    expect(bucketLabel('2026-10', 'month')).toBe('oct. 26');
    expect(bucketLabel('2026-03-02', 'week')).toBe('2 mars');
    expect(plain(formatValue(251550, 'cents'))).toBe('2 515,50 $US');
    expect(formatValue(24.5, 'hours')).toBe('24,5');
  });

  it('draws a chart per unit, each named and described, with its numbers as a table', () => {
    render(<ChartBody data={orders} title="Commandes et chiffre d'affaires par mois, 12 derniers mois" />);
    const charts = screen.getAllByRole('img');
    expect(charts).toHaveLength(2);
    expect(charts[0]!.querySelector('title')!.textContent).toBe('Commandes');
    expect(charts[0]!.querySelectorAll('rect')).toHaveLength(2);
    const description = plain(charts[1]!.querySelector('desc')!.textContent!);
    expect(description).toContain('Commandes : 3');
    expect(description).toContain("Chiffre d'affaires (US$) : 2 515,50 $US");
    const table = screen.getByRole('table');
    expect(table.querySelectorAll('tbody tr')).toHaveLength(2);
    expect(plain(table.textContent!)).toContain('2 500,50 $US');
  });

  it('says when a goal is not recorded instead of showing zero', () => {
    const goals: ChartData = {
      grain: 'month',
      buckets: [],
      series: [],
      table: null,
      figures: [
        { key: 'farmers', unit: 'count', value: 12, target: 10000 },
        { key: 'women_youth', unit: 'count', value: null, target: 10000 },
      ],
    };
    render(<ChartBody data={goals} title="Objectifs pour 2030" />);
    expect(screen.getByText((text) => plain(text) === '12 sur 10 000')).toBeTruthy();
    expect(screen.getAllByText(/Non enregistré/).length).toBeGreaterThan(0);
  });
});
