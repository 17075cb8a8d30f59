-- Whether this exact content is stored in any version (current or superseded).
SELECT 1 FROM documents WHERE content_sha256 = %(content_sha256)s
