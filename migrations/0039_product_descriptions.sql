-- A product's description in the platform's languages, given by the farmer if they
-- wish, as its names (0028): shown to buyers reading that language, and searched.
-- Long texts like the description: edits made offline merge (docs/sync.md).
ALTER TABLE products ADD COLUMN description_en TEXT;
ALTER TABLE products ADD COLUMN description_fr TEXT;
ALTER TABLE products ADD COLUMN description_sw TEXT;
