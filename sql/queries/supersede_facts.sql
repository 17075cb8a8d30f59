-- Facts of superseded documents leave every lookup (they stay resolvable by id for old citations).
UPDATE facts SET superseded = true WHERE document_id = ANY(%(document_ids)s) AND NOT superseded
