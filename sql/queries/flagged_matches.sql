-- Flagged passages (text addressed to AI systems, hidden text) that match a sub-search under its
-- filters: never returned as evidence, only named in the answer's warnings. A passage matches when
-- it holds every query term or is as close to the query as the weakest hit returned.
-- filters placeholder: the sub-search's predicates with flagged_reason IS NOT NULL (partial index).
SELECT c.id AS chunk_id, c.document_id, d.title, c.flagged_reason
FROM chunks c
JOIN documents d ON d.id = c.document_id
WHERE {filters}
  AND (c.tsv @@ websearch_to_tsquery('finagent', finagent_normalize(%(query)s))
       OR 1 - (c.embedding <=> %(query_vector)s::halfvec) >= %(min_vector)s)
ORDER BY c.id
LIMIT 20
