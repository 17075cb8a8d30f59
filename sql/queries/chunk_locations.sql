-- Chunk id, page and statement by ordinal for one document (facts point at the chunk displaying them).
SELECT ordinal, id, page, statement FROM chunks WHERE document_id = %(document_id)s
