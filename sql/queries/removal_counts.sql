-- Rows a removal deletes: chunks and facts of the documents, derived facts computed from those facts
-- (and, for a whole company, every derived fact of it).
WITH removed_facts AS (
    SELECT id FROM facts WHERE document_id = ANY(%(ids)s)
)
SELECT (SELECT count(*) FROM chunks WHERE document_id = ANY(%(ids)s)) AS chunks,
       (SELECT count(*) FROM removed_facts) AS facts,
       (SELECT count(*) FROM facts
        WHERE derived AND (inputs && ARRAY(SELECT id FROM removed_facts) OR ticker = %(ticker)s)) AS derived
