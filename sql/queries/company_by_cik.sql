-- The symbol the store already holds a company under for this CIK (a real ticker before a CIK symbol).
SELECT ticker
FROM companies
WHERE cik IS NOT NULL AND ltrim(cik, '0') = ltrim(%(cik)s, '0')
ORDER BY (ticker LIKE 'CIK%%'), updated_at DESC, ticker
LIMIT 1
