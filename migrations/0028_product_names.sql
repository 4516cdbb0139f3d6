-- A product's name in the platform's other languages, given by the farmer if they
-- wish (docs/api.md, Products): shown to buyers reading that language, and searched.
ALTER TABLE products ADD COLUMN title_en TEXT;
ALTER TABLE products ADD COLUMN title_fr TEXT;
ALTER TABLE products ADD COLUMN title_sw TEXT;
