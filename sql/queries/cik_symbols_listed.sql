-- Companies stored under their CIK (no list named them when they were ingested) that SEC's list now
-- names, each with the ticker its CIK resolves to (the first, as listed_by_cik_or_name.sql picks it)
-- when no stored company holds that ticker yet.
SELECT old, new, name
FROM (
    SELECT DISTINCT ON (c.ticker) c.ticker AS old, l.ticker AS new, l.name
    FROM companies c
    JOIN listed_companies l ON ltrim(l.cik, '0') = ltrim(c.cik, '0')
    WHERE c.ticker LIKE 'CIK%%' AND c.cik IS NOT NULL
    ORDER BY c.ticker, l.ticker
) named
WHERE NOT EXISTS (SELECT 1 FROM companies held WHERE held.ticker = named.new)
