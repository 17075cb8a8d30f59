INSERT INTO ingest_events (document_id, source_uri, content_sha256, state, reason, details)
VALUES (%(document_id)s, %(source_uri)s, %(content_sha256)s, %(state)s, %(reason)s, %(details)s)
