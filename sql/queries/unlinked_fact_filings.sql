-- Filings with facts that point at no readable chunk (XBRL instance documents have no text) for
-- which a text copy of the same report is now stored: (filing, document holding its text).
SELECT DISTINCT f.filing_key, d.id
FROM facts f
JOIN documents d ON d.ticker = f.ticker
                AND d.period_end = f.filing_period_end
                AND upper(d.kind) = upper(split_part(f.form, '/', 1))
                AND d.status = 'ready'
                AND d.chunk_count > 0
WHERE f.ticker = ANY(%(tickers)s)
  AND f.chunk_id IS NULL AND NOT f.superseded AND NOT f.derived AND NOT f.hidden
