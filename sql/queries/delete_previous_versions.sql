-- A changed document replaces the old version stored under the same source.
DELETE FROM documents
WHERE source_uri = %(source_uri)s AND content_sha256 <> %(content_sha256)s
RETURNING id
