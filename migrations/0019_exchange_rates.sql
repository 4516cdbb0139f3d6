-- Exchange rates an admin sets (docs/money.md): prices are in US dollars; people in
-- the DRC also see an estimate in Congolese francs at the latest rate, with its date.
-- Every rate set is kept (who set it, when); the newest of a currency is the one used.
CREATE TABLE exchange_rates (
    id             INTEGER PRIMARY KEY,
    currency       TEXT NOT NULL CHECK (currency IN ('CDF')),
    francs_per_usd INTEGER NOT NULL CHECK (francs_per_usd BETWEEN 1 AND 1000000),
    as_of          TEXT NOT NULL,   -- the day the rate is from (YYYY-MM-DD)
    set_by         INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at     TEXT NOT NULL,
    version        INTEGER NOT NULL -- a sync version: phones receive the newest rate
);
CREATE INDEX exchange_rates_currency ON exchange_rates (currency, id);
