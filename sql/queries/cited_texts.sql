-- The text of chunks an answer cited, by id, for grading it. Only columns every schema version has,
-- so that a benchmark can read a store written by an older checkout; flagged or not, since what is
-- graded is what the answer was given.
SELECT c.id AS chunk_id, c.text
FROM chunks c
WHERE c.id = ANY(%(ids)s)
ORDER BY c.id
