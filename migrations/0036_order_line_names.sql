-- An order line keeps the product's name in each language as it was when the order
-- was placed (as `title` keeps its name), so that a buyer or farmer reading French or
-- Kiswahili sees the name the marketplace showed them, on the phone, by USSD and in
-- the emails. Lines placed before keep the product's names when its title is still the
-- line's; otherwise they have none and show `title`.
ALTER TABLE order_lines ADD COLUMN title_en TEXT;
ALTER TABLE order_lines ADD COLUMN title_fr TEXT;
ALTER TABLE order_lines ADD COLUMN title_sw TEXT;
UPDATE order_lines SET
    title_en = (SELECT p.title_en FROM products p WHERE p.id = order_lines.product_id AND p.title = order_lines.title),
    title_fr = (SELECT p.title_fr FROM products p WHERE p.id = order_lines.product_id AND p.title = order_lines.title),
    title_sw = (SELECT p.title_sw FROM products p WHERE p.id = order_lines.product_id AND p.title = order_lines.title);
