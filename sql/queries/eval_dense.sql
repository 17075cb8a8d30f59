-- Baseline "dense": cosine top-k over the whole corpus, no metadata filters (FinanceBench's shared store).
SELECT c.id, c.document_id, c.page
FROM chunks c
ORDER BY c.embedding <=> %(query_vector)s::halfvec
LIMIT %(k)s
