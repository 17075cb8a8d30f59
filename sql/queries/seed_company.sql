-- Built-in company table: new companies are added; known ones gain any new built-in aliases
-- (what documents taught the store, such as the fiscal year end, is kept).
INSERT INTO companies (ticker, name, aliases, fiscal_year_end_month, source)
VALUES (%s, %s, %s, %s, 'builtin')
ON CONFLICT (ticker) DO UPDATE SET
    aliases = ARRAY(SELECT DISTINCT unnest(companies.aliases || EXCLUDED.aliases) ORDER BY 1)
WHERE NOT companies.aliases @> EXCLUDED.aliases;
