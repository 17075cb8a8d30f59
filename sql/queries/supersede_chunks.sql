-- Chunks of superseded documents leave every search (they stay resolvable by id).
UPDATE chunks SET superseded = true WHERE document_id = ANY(%(document_ids)s) AND NOT superseded
