-- Table chunks of one document, statements first: where printed numbers are looked up.
SELECT id, page, statement, text
FROM chunks
WHERE document_id = %(document_id)s AND is_table
ORDER BY (statement IS NULL), ordinal
