-- The stored company with this CIK (its filings named it), so company facts join its other documents:
-- a real ticker before a CIK symbol, then the one holding most documents.
SELECT ticker, name, fiscal_year_end_month, fiscal_year_offset
FROM companies
WHERE ltrim(cik, '0') = ltrim(%(cik)s, '0')
ORDER BY (ticker LIKE 'CIK%%'), (SELECT count(*) FROM documents d WHERE d.ticker = companies.ticker) DESC, ticker
LIMIT 1
