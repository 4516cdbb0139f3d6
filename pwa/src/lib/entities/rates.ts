// Exchange rates as phones keep them (docs/money.md): entity `exchange_rate`, by
// currency, received by sync; lib/francs shows them.
import type { Rate } from '../sync/stored';
import type { EntityHandler } from '../sync/engine';

export type { Rate };

export const rateEntity: EntityHandler = {
  table: (db) => db.rates,
  // Rates only come from the server.
  apply: async () => undefined,
};
