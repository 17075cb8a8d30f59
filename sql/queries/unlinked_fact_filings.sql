-- Filings with facts that point at no readable chunk (XBRL instance documents have no text) for
-- which a text copy of the same report is now stored: (filing, document whose text is searched).
SELECT DISTINCT f.filing_key, d.id
FROM facts f
JOIN documents d ON d.ticker = f.ticker
                AND d.period_end = f.filing_period_end
                AND upper(d.kind) = upper(split_part(f.form, '/', 1))
                AND EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id AND NOT c.superseded)
WHERE f.ticker = ANY(%(tickers)s)
  AND f.chunk_id IS NULL AND NOT f.superseded AND NOT f.derived AND NOT f.hidden
