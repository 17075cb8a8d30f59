-- Exact cosine ranking of the filtered rows (the btree filter narrows the set; no ANN recall loss).
-- distance placeholder: the first window's distance, or the nearest of the chunk's windows (the
-- model reads 256 tokens of a text; a page chunk runs to about 700, sql/013). The HNSW leg (a search
-- over every company) walks first windows only.
SELECT f.id, 1 - f.distance AS score
FROM (
    SELECT c.id, {distance} AS distance
    FROM chunks c
    WHERE {filters}
    OFFSET 0  -- planner fence: rank exactly, never via the HNSW index
) f
ORDER BY f.distance, f.id
LIMIT %(candidates)s
