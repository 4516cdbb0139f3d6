// Exchange rates as phones keep them (docs/money.md): entity `exchange_rate`, by
// currency, received by sync; lib/francs shows them.
import type { Kept } from '../sync/local-db';
import type { RateRecord } from '../sync/records';
import type { EntityHandler } from '../sync/engine';

/** A rate as the server sends it, kept by its currency. */
export type Rate = Kept<RateRecord>;

export const rateEntity: EntityHandler = {
  table: (db) => db.rates,
  // Rates only come from the server.
  apply: async () => undefined,
};
