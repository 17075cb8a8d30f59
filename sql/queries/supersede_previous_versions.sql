-- A changed document supersedes the current version stored under the same source (kept for audits).
UPDATE documents
SET status = 'superseded', superseded_at = now()
WHERE source_uri = %(source_uri)s AND content_sha256 <> %(content_sha256)s AND status = 'ready'
RETURNING id
