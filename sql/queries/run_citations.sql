-- A run's citations resolved to the stored chunk, its document version and location; a chunk still
-- searched counts as current even when its document is an earlier copy of a filing (its text kept).
SELECT rc.label, rc.chunk_id, rc.ticker, rc.kind, rc.period, rc.section, rc.page, rc.source_uri,
       rc.document_id, rc.content_sha256,
       CASE WHEN c.superseded THEN 'superseded' WHEN c.id IS NOT NULL THEN 'ready' END AS document_status,
       d.title AS document_title,
       c.char_start, c.char_end, c.page AS chunk_page, left(c.text, 600) AS text,
       (c.id IS NOT NULL) AS resolved
FROM run_citations rc
LEFT JOIN chunks c ON c.id = rc.chunk_id
LEFT JOIN documents d ON d.id = c.document_id
WHERE rc.run_id = %(run_id)s
ORDER BY rc.label
