-- Baseline "seed-hybrid": the replaced system's retrieval. Raw cosine*0.7 + ts_rank*0.3, the tsvector
-- computed at query time, ticker / year filters when the question names them.
SELECT c.id, c.document_id, c.page
FROM chunks c
WHERE (%(ticker)s::text IS NULL OR c.ticker = %(ticker)s)
  AND (%(year)s::int IS NULL OR c.fiscal_year = %(year)s)
ORDER BY (1 - (c.embedding <=> %(query_vector)s::halfvec)) * 0.7
         + ts_rank(to_tsvector('english', c.text), plainto_tsquery('english', %(query)s)) * 0.3 DESC
LIMIT %(k)s
