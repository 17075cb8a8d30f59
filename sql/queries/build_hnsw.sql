-- The vector index of every chunk (sql/011): HNSW over halfvec, cosine distance. Built after a bulk load
-- (one build is far faster than inserting millions of rows into the graph one by one).
CREATE INDEX IF NOT EXISTS chunks_embedding_hnsw ON chunks USING hnsw (embedding halfvec_cosine_ops)
