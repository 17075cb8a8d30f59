-- Where each chunk of a document sits (its offset in the document's text, its page) and its part, in
-- order: enough to give it the part a new reading of the same file assigns, without re-embedding.
SELECT id, char_start, page, left(text, 80) AS opening, section, section_title
FROM chunks
WHERE document_id = %(document_id)s
ORDER BY ordinal
