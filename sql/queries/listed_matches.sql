-- Listed companies (SEC's list) named in a question: by ticker symbol or by normalised name.
SELECT ticker, cik, name
FROM listed_companies
WHERE ticker = ANY(%(symbols)s) OR name_key = ANY(%(names)s)
ORDER BY ticker
