-- One document's chunks whose later windows have no vectors yet, in reading order.
SELECT id, text FROM chunks WHERE document_id = %(document_id)s AND windows IS NULL ORDER BY ordinal
