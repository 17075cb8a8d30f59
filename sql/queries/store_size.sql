-- What the store holds, for `finagent db tune` and `finagent db reindex`: rows and bytes of the chunk
-- table (heap + TOAST), of its vector index, and of the whole database.
SELECT (SELECT count(*) FROM chunks) AS chunks,
       (SELECT count(*) FROM facts) AS facts,
       pg_total_relation_size('chunks') AS chunk_bytes,
       coalesce((SELECT pg_relation_size(to_regclass('chunks_embedding_hnsw'))), 0) AS hnsw_bytes,
       to_regclass('chunks_embedding_hnsw') IS NOT NULL AS has_hnsw,
       pg_database_size(current_database()) AS database_bytes
