-- What the store holds, for `finagent db tune` and `finagent db reindex`: rows and bytes of the chunk
-- table (heap + TOAST + indexes), of its vector index, and of the whole database. The chunk table and
-- its indexes are partitioned by company (sql/012): a partitioned parent holds no bytes itself, its
-- partitions do. An HNSW build holds one partition's graph in memory at a time: the largest one's rows.
WITH partition_rows AS (SELECT count(*) AS n FROM chunks GROUP BY tableoid)
SELECT (SELECT coalesce(sum(n), 0) FROM partition_rows) AS chunks,
       (SELECT count(*) FROM facts) AS facts,
       (SELECT coalesce(sum(pg_total_relation_size(relid)), 0)
        FROM pg_partition_tree('chunks') WHERE isleaf) AS chunk_bytes,
       (SELECT coalesce(sum(pg_relation_size(relid)), 0)
        FROM pg_partition_tree(to_regclass('chunks_embedding_hnsw')) WHERE isleaf) AS hnsw_bytes,
       to_regclass('chunks_embedding_hnsw') IS NOT NULL AS has_hnsw,
       pg_database_size(current_database()) AS database_bytes,
       (SELECT coalesce(max(n), 0) FROM partition_rows) AS largest_partition
