-- Content that matches a superseded version makes that version current again (no re-embedding): the
-- file at its source changed back, or nothing else of its filing is current. An earlier copy of a
-- filing whose newer copy (from another source) is current stays superseded: re-ingesting both
-- copies again changes nothing.
UPDATE documents
SET status = 'ready', superseded_at = NULL
WHERE content_sha256 = %(content_sha256)s AND status = 'superseded'
  AND (filing_key IS NULL
       OR EXISTS (SELECT 1 FROM documents s WHERE s.source_uri = documents.source_uri AND s.status = 'ready')
       OR NOT EXISTS (SELECT 1 FROM documents f WHERE f.filing_key = documents.filing_key AND f.status = 'ready'))
RETURNING id, source_uri, filing_key, chunk_count > 0 AS has_text,
          EXISTS (SELECT 1 FROM facts f WHERE f.document_id = documents.id AND NOT f.derived) AS has_facts
