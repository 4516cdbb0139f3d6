-- A farmer accepts a new part of an order before preparing it (docs/orders.md): the
-- buyer hears that it will be filled; a farmer who cannot fill it declines it (a
-- cancellation with a reason). The part stays `processing`; when it was accepted is
-- kept, and an `accepted` event in the order's history.
ALTER TABLE order_parts ADD COLUMN accepted_at TEXT;
