-- The passages right before and after the given ones in their documents (by the chunk's ordinal):
-- what answers often begins in the passage before a hit (the sentence that names "the Texas
-- dismissal" it refers to) or goes on in the one after (the rest of a list). Scored 0: the search
-- node places each beside the hit it neighbours.
SELECT c.id AS chunk_id, c.document_id, 0.0::float8 AS fused_score,
       NULL::float8 AS vector_score, NULL::float8 AS keyword_score,
       c.ticker, c.kind, c.fiscal_year, c.fiscal_quarter, c.period_end, c.section, c.section_title,
       c.page, c.char_start, c.char_end, c.is_table, c.statement, c.text, c.metadata,
       d.title, d.source_uri, d.company_name, d.published_at, d.content_sha256
FROM chunks h
JOIN chunks c ON c.document_id = h.document_id AND c.ordinal IN (h.ordinal - 1, h.ordinal + 1)
JOIN documents d ON d.id = c.document_id
WHERE h.id = ANY(%(ids)s) AND NOT c.id = ANY(%(ids)s)
  AND NOT c.superseded AND c.flagged_reason IS NULL  -- a flagged passage is never evidence
ORDER BY h.id, c.ordinal
