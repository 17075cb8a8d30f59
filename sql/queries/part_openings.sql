-- The first prose passages of a report part in the newest filing the filters select: a part opens
-- with what it is about (a 10-K's Item 1 with what the company does), in words a question about it
-- seldom repeats. Scored 0: the search node places them.
-- filters placeholder: AND-ed filter predicates on chunks c (composed from parameters, never from text).
SELECT c.id AS chunk_id, c.document_id, 0.0::float8 AS fused_score,
       NULL::float8 AS vector_score, NULL::float8 AS keyword_score,
       c.ticker, c.kind, c.fiscal_year, c.fiscal_quarter, c.period_end, c.section, c.section_title,
       c.page, c.char_start, c.char_end, c.is_table, c.statement, c.text, c.metadata,
       d.title, d.source_uri, d.company_name, d.published_at, d.content_sha256
FROM chunks c
JOIN documents d ON d.id = c.document_id
WHERE {filters} AND NOT c.is_table
ORDER BY c.period_end DESC NULLS LAST, c.document_id DESC, c.ordinal
LIMIT %(k)s
