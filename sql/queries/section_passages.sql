-- The prose chunks of some report sections (Item 1A, Item 3) of one company's current filings of some
-- kinds, each filing's in its own order, filings by their period: what changed between filings is
-- computed from them (flagged passages left out: they are never evidence).
SELECT c.id AS chunk_id, c.document_id, c.ticker, c.kind, c.fiscal_year, c.fiscal_quarter, c.period_end,
       c.section, c.section_title, c.page, c.char_start, c.char_end, c.is_table, c.statement, c.text,
       d.title, d.source_uri, d.content_sha256
FROM chunks c
JOIN documents d ON d.id = c.document_id
WHERE c.ticker = %(ticker)s
  AND c.section = ANY(%(sections)s)
  AND c.kind = ANY(%(kinds)s)
  AND NOT c.superseded
  AND NOT c.is_table
  AND c.flagged_reason IS NULL
ORDER BY c.period_end NULLS FIRST, c.document_id, c.ordinal
