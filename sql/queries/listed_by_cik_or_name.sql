-- The listed company (SEC's list) with this CIK, else with this normalised name.
SELECT ticker, cik, name
FROM listed_companies
WHERE ltrim(cik, '0') = ltrim(%(cik)s, '0') OR name_key = %(name_key)s
ORDER BY ltrim(cik, '0') = ltrim(%(cik)s, '0') DESC, ticker
LIMIT 1
