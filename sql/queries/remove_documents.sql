-- Deletes documents; their chunks and facts go with them (ON DELETE CASCADE), facts elsewhere that
-- pointed at their chunks lose that pointer, ingest events keep their history.
DELETE FROM documents WHERE id = ANY(%(ids)s)
