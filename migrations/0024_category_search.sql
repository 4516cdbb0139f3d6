-- A search finds a product by its category's words in English, French and
-- Kiswahili (issue 17): "légumes" or "mboga" finds the vegetables whatever their
-- listing says. New writes add them from pwa/src/lib/produce-words.json
-- (`categories`); this brings the listings written before up to date with the
-- words as they were then (the search index follows by its triggers).
UPDATE products SET search_text = search_text || ' ' || CASE category
    WHEN 'vegetables' THEN 'vegetables legumes mboga'
    WHEN 'fruits' THEN 'fruits matunda tunda'
    WHEN 'grains' THEN 'grains cereals cereales nafaka'
    WHEN 'dairy' THEN 'dairy produits laitiers laitiers maziwa'
    WHEN 'beverages' THEN 'beverages drinks boissons vinywaji'
    WHEN 'herbs' THEN 'herbs spices herbes epices mimea viungo'
    ELSE '' END;
