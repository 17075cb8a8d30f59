-- Content that matches a superseded version makes that version current again (no re-embedding).
UPDATE documents
SET status = 'ready', superseded_at = NULL
WHERE content_sha256 = %(content_sha256)s AND status = 'superseded'
RETURNING id, source_uri, filing_key, chunk_count > 0 AS has_text,
          EXISTS (SELECT 1 FROM facts f WHERE f.document_id = documents.id AND NOT f.derived) AS has_facts
