-- The passages right before and after the given ones in their documents (by the chunk's ordinal):
-- what answers often begins in the passage before a hit (the sentence that names "the Texas
-- dismissal" it refers to) or goes on in the one after (the rest of a list). The "leads" passages
-- announce what follows them: only the one after each is read; the "backs" open on a sentence
-- about what the one before names ("The increases were due to …"): only the one before is read.
-- Scored 0: the search node places each beside the hit it neighbours.
-- columns placeholder: queries/placed_passage_columns.sql.
SELECT {columns}
FROM chunks h
JOIN chunks c ON c.document_id = h.document_id
  AND ((c.ordinal = h.ordinal + 1 AND (h.id = ANY(%(ids)s) OR h.id = ANY(%(leads)s)))
    OR (c.ordinal = h.ordinal - 1 AND (h.id = ANY(%(ids)s) OR h.id = ANY(%(backs)s))))
JOIN documents d ON d.id = c.document_id
WHERE NOT c.id = ANY(%(ids)s)
  AND NOT c.superseded AND c.flagged_reason IS NULL  -- a flagged passage is never evidence
ORDER BY h.id, c.ordinal
