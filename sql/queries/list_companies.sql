-- Each company with its name as SEC's list of listed companies writes it among its aliases, so a
-- question naming it either way ("Lowe's", "LOWES COMPANIES INC") finds it.
SELECT c.ticker, c.name,
       ARRAY(
           SELECT DISTINCT alias
           FROM unnest(c.aliases || ARRAY(SELECT l.name FROM listed_companies l WHERE l.ticker = c.ticker)) AS alias
       ) AS aliases,
       c.fiscal_year_end_month,
       (SELECT count(*) FROM documents d WHERE d.ticker = c.ticker AND d.status = 'ready') AS documents,
       c.fiscal_year_offset
FROM companies c
ORDER BY c.ticker
