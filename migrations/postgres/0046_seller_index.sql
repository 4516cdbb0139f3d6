-- A cooperative by its seller account, for the wake-ups' query: SQLite's 0046 (its comments say why).
CREATE INDEX cooperatives_seller ON cooperatives (seller_id);
