-- The cited chunk's document and version are captured now; they stay resolvable after re-ingests.
INSERT INTO run_citations (run_id, label, chunk_id, document_id, content_sha256, ticker, kind, period, section,
                           page, source_uri)
SELECT %(run_id)s, %(label)s, %(chunk_id)s, d.id, d.content_sha256, %(ticker)s, %(kind)s, %(period)s,
       %(section)s, %(page)s, %(source_uri)s
FROM (SELECT 1) AS one
LEFT JOIN chunks c ON c.id = %(chunk_id)s
LEFT JOIN documents d ON d.id = c.document_id
