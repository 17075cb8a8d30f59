-- Flagged passages of current documents (`finagent db flagged`), optionally of one ticker.
SELECT c.id, d.ticker, d.kind, d.fiscal_year, d.fiscal_quarter, d.title, c.section, c.page,
       c.flagged_reason, left(c.text, %(chars)s) AS excerpt, d.source_uri
FROM chunks c
JOIN documents d ON d.id = c.document_id
WHERE c.flagged_reason IS NOT NULL
  AND NOT c.superseded
  AND (%(ticker)s::text IS NULL OR c.ticker = %(ticker)s::text)
ORDER BY d.ticker NULLS LAST, d.kind, d.fiscal_year NULLS LAST, d.fiscal_quarter NULLS FIRST, c.id
LIMIT %(limit)s
