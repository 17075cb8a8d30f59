-- Exact cosine ranking of the filtered rows (the btree filter narrows the set; no ANN recall loss).
SELECT f.id, 1 - f.distance AS score
FROM (
    SELECT c.id, c.embedding <=> %(query_vector)s::halfvec AS distance
    FROM chunks c
    WHERE {filters}
    OFFSET 0  -- planner fence: rank exactly, never via the HNSW index
) f
ORDER BY f.distance, f.id
LIMIT %(candidates)s
