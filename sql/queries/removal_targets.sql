-- What goes with the documents named: their earlier versions (same source) and, for a current
-- document, the superseded copies of its filing. Other current documents are never included.
SELECT DISTINCT o.id, o.ticker, o.source_uri, o.content_sha256,
       (o.status = 'ready' OR (o.id = ANY(%(ids)s) AND NOT %(company)s)) AS named
FROM documents d
JOIN documents o ON o.id = d.id
    OR (o.status = 'superseded' AND o.source_uri = d.source_uri)
    OR (d.status = 'ready' AND o.status = 'superseded' AND o.filing_key = d.filing_key)
WHERE d.id = ANY(%(ids)s)
ORDER BY o.id
