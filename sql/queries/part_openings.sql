-- The first prose passages of a report part in the newest filing the filters select: a part opens
-- with what it is about (a 10-K's Item 1 with what the company does), in words a question about it
-- seldom repeats. Scored 0: the search node places them.
-- columns placeholder: queries/placed_passage_columns.sql.
-- filters placeholder: AND-ed filter predicates on chunks c (composed from parameters, never from text).
SELECT {columns}
FROM chunks c
JOIN documents d ON d.id = c.document_id
WHERE {filters} AND NOT c.is_table
ORDER BY c.period_end DESC NULLS LAST, c.document_id DESC, c.ordinal
LIMIT %(k)s
