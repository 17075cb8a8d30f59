SELECT c.ticker, c.name, c.aliases, c.fiscal_year_end_month,
       (SELECT count(*) FROM documents d WHERE d.ticker = c.ticker) AS documents
FROM companies c
ORDER BY c.ticker
