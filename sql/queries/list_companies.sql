SELECT c.ticker, c.name, c.aliases, c.fiscal_year_end_month,
       (SELECT count(*) FROM documents d WHERE d.ticker = c.ticker AND d.status = 'ready') AS documents,
       c.fiscal_year_offset
FROM companies c
ORDER BY c.ticker
