-- HNSW ranking; hnsw.iterative_scan (set per connection) keeps going until enough rows pass filters.
SELECT c.id, 1 - (c.embedding <=> %(query_vector)s::halfvec) AS score
FROM chunks c
WHERE {filters}
ORDER BY c.embedding <=> %(query_vector)s::halfvec
LIMIT %(candidates)s
