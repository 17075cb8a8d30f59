-- Every chunk's text, section title and ingest notes (hidden text, a paragraph flagged whole), to
-- (re)assess it as untrusted text. Keyset-paged by chunk id.
SELECT c.id, c.text, c.section_title,
       jsonb_build_object('hidden', c.metadata->'hidden', 'flagged', c.metadata->'flagged') AS metadata,
       c.flagged_reason
FROM chunks c
WHERE c.id > %(after)s
ORDER BY c.id
LIMIT %(batch)s;
