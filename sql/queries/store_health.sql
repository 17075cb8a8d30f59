-- What `finagent doctor` reports of a store, without changing it: the server, pgvector, whether the
-- schema exists, and the dimension the chunk vectors are stored with (a vector column's typmod).
SELECT current_setting('server_version') AS server_version,
       (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector,
       to_regclass('schema_migrations') IS NOT NULL AS has_migrations,
       to_regclass('documents') IS NOT NULL AS has_documents,
       (SELECT a.atttypmod FROM pg_attribute a
        WHERE a.attrelid = to_regclass('chunks') AND a.attname = 'embedding' AND NOT a.attisdropped)
           AS embedding_dim;
