-- Embeddings as halfvec(384): half the bytes of vector(384) per chunk (776 vs 1,544) in the table, the
-- covering filter index and the HNSW graph, so a store of tens of millions of chunks keeps its index in
-- memory. all-MiniLM-L6-v2's unit vectors lose nothing that changes a ranking at float16 precision
-- (docs/benchmarks.md, "A store for millions of chunks"). Queries cast their vector to halfvec.
-- An existing store is converted in place; the indexes over the column are rebuilt for halfvec.
-- The HNSW graph is built in memory (a graph that spills past maintenance_work_mem is built page by page
-- and, measured on the FinanceBench store, recalls less: 0.927 vs 0.948 recall@20), serially so that a
-- server with little shared memory (a container's 64 MB /dev/shm) builds it too. Larger stores:
-- `finagent db reindex --rebuild` sizes the memory and parallel workers from the store.
SET LOCAL maintenance_work_mem = '1GB';
SET LOCAL max_parallel_maintenance_workers = 0;
DROP INDEX IF EXISTS chunks_embedding_hnsw;
DROP INDEX IF EXISTS chunks_filter_idx;
ALTER TABLE chunks ALTER COLUMN embedding TYPE halfvec(384) USING embedding::halfvec(384);
CREATE INDEX IF NOT EXISTS chunks_embedding_hnsw ON chunks USING hnsw (embedding halfvec_cosine_ops);
CREATE INDEX IF NOT EXISTS chunks_filter_idx ON chunks (ticker, fiscal_year, fiscal_quarter, kind)
    INCLUDE (id, embedding);
