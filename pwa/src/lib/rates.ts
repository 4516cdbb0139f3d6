// Exchange rates as phones keep them (docs/money.md): entity `exchange_rate`, by
// currency, received by sync; lib/francs shows them.
import type { EntityHandler } from './sync-engine';

/** A rate as the server sends it. */
export interface Rate {
  currency: 'CDF';
  francs_per_usd: number;
  /** The day the rate is from (YYYY-MM-DD). */
  as_of: string;
}

export const rateEntity: EntityHandler = {
  table: (db) => db.rates,
  // Rates only come from the server.
  apply: async () => undefined,
};
