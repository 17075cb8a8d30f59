-- Chunks by id with their document, for citing facts where their numbers are displayed (flagged
-- passages left out: they are never evidence).
SELECT c.id AS chunk_id, c.document_id, c.ticker, c.kind, c.fiscal_year, c.fiscal_quarter, c.period_end,
       c.section, c.section_title, c.page, c.char_start, c.char_end, c.is_table, c.statement, c.text,
       d.title, d.source_uri, d.content_sha256
FROM chunks c
JOIN documents d ON d.id = c.document_id
WHERE c.id = ANY(%(ids)s)
  AND c.flagged_reason IS NULL  -- untrusted text addressed to AI systems is never evidence
ORDER BY c.id
