-- Chunks and facts partitioned by company: 16 hash partitions of the ticker, so a company's search
-- (the agent's sub-searches are filtered by ticker) ranks exactly inside one partition, with its own
-- indexes, whatever the size of the whole store. A cross-company HNSW search walks the 16 partition
-- graphs and merges them (docs/reference.md, "A store for millions of chunks").
--
-- News with no company (chunks.ticker NULL) hash to one partition like any key; a NULL key is found
-- by `ticker IS NULL` in that partition alone.
--
-- A partitioned table's unique constraints must hold the partition key, so:
--   * facts: PRIMARY KEY (id, ticker) (facts.ticker is NOT NULL);
--   * chunks: UNIQUE NULLS NOT DISTINCT (id, ticker) and (document_id, ordinal, ticker) (a chunk's
--     ticker is its document's, so the second is the old (document_id, ordinal) key); ids stay unique
--     as before: both tables draw them from their sequence, kept as it was.
--   * facts.chunk_id can no longer REFERENCES chunks (id): a composite (chunk_id, ticker) key would
--     also tie a fact's ticker to its chunk's, which a document re-filed under another ticker breaks
--     for the superseded facts it keeps. Two triggers keep the foreign key's behaviour instead: a
--     deleted chunk sets the chunk_id of its facts to NULL, and a fact can only point at a stored chunk.
--
-- An existing store is converted in place: the rows are copied (ids kept) into the new tables, the old
-- tables dropped, every index rebuilt. The HNSW graphs are built in memory, serially (as in sql/011).
SET LOCAL maintenance_work_mem = '1GB';
SET LOCAL max_parallel_maintenance_workers = 0;

ALTER TABLE facts DROP CONSTRAINT IF EXISTS facts_chunk_id_fkey;
ALTER TABLE chunks RENAME TO chunks_unpartitioned;
ALTER TABLE facts RENAME TO facts_unpartitioned;

-- Same columns, defaults (the id sequences), generated tsvector and CHECK constraints as before.
CREATE TABLE chunks (
    LIKE chunks_unpartitioned INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS
        INCLUDING STORAGE INCLUDING COMPRESSION
) PARTITION BY HASH (ticker);
CREATE TABLE facts (
    LIKE facts_unpartitioned INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS
        INCLUDING STORAGE INCLUDING COMPRESSION
) PARTITION BY HASH (ticker);

DO $$
BEGIN
    FOR i IN 0..15 LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF chunks FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
                       'chunks_p' || lpad(i::text, 2, '0'), i);
        EXECUTE format('CREATE TABLE %I PARTITION OF facts FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
                       'facts_p' || lpad(i::text, 2, '0'), i);
    END LOOP;
END
$$;

-- Every column but the generated tsvector (recomputed on insert), ids included.
DO $$
DECLARE
    table_name text;
    columns text;
BEGIN
    FOREACH table_name IN ARRAY ARRAY['chunks', 'facts'] LOOP
        SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO columns
        FROM pg_attribute
        WHERE attrelid = (table_name || '_unpartitioned')::regclass
          AND attnum > 0 AND NOT attisdropped AND attgenerated = '';
        EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I', table_name, columns, columns,
                       table_name || '_unpartitioned');
    END LOOP;
END
$$;

-- The id sequences now belong to the new tables (dropping the old ones would drop them otherwise).
ALTER SEQUENCE chunks_id_seq OWNED BY chunks.id;
ALTER SEQUENCE facts_id_seq OWNED BY facts.id;
DROP TABLE chunks_unpartitioned;
DROP TABLE facts_unpartitioned;

ALTER TABLE chunks ADD CONSTRAINT chunks_id_key UNIQUE NULLS NOT DISTINCT (id, ticker);
ALTER TABLE chunks ADD CONSTRAINT chunks_document_ordinal_key
    UNIQUE NULLS NOT DISTINCT (document_id, ordinal, ticker);
ALTER TABLE chunks ADD CONSTRAINT chunks_document_id_fkey
    FOREIGN KEY (document_id) REFERENCES documents (id) ON DELETE CASCADE;
CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding halfvec_cosine_ops);
CREATE INDEX chunks_tsv_gin ON chunks USING gin (tsv);
CREATE INDEX chunks_filter_idx ON chunks (ticker, fiscal_year, fiscal_quarter, kind) INCLUDE (id, embedding);
CREATE INDEX chunks_kind_idx ON chunks (kind, fiscal_year);
CREATE INDEX chunks_flagged_idx ON chunks (ticker, document_id) WHERE flagged_reason IS NOT NULL;

ALTER TABLE facts ADD CONSTRAINT facts_pkey PRIMARY KEY (id, ticker);
ALTER TABLE facts ADD CONSTRAINT facts_document_id_fkey
    FOREIGN KEY (document_id) REFERENCES documents (id) ON DELETE CASCADE;
CREATE INDEX facts_lookup_idx
    ON facts (ticker, concept, fiscal_year, fiscal_quarter, duration) WHERE NOT superseded;
CREATE INDEX facts_document_idx ON facts (document_id);
CREATE INDEX facts_filing_idx ON facts (ticker, filing_key);
-- The facts a deleted chunk was displaying (the trigger below).
CREATE INDEX facts_chunk_idx ON facts (chunk_id) WHERE chunk_id IS NOT NULL;

-- ON DELETE SET NULL of the former facts.chunk_id foreign key: once per DELETE statement (a removed
-- document's chunks at once). A chunk moved to another partition (its company re-filed under a new
-- ticker) is deleted and inserted again with the same id: its facts keep pointing at it.
CREATE OR REPLACE FUNCTION finagent_unlink_deleted_chunks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE facts f SET chunk_id = NULL
    FROM (SELECT DISTINCT id FROM deleted_chunks) d
    WHERE f.chunk_id = d.id AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = d.id);
    RETURN NULL;
END
$$;
CREATE TRIGGER chunks_unlink_facts AFTER DELETE ON chunks
    REFERENCING OLD TABLE AS deleted_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION finagent_unlink_deleted_chunks();

-- The former foreign key's check: a fact points at a stored chunk (locked against a concurrent
-- delete until this transaction ends, as the foreign key did).
CREATE OR REPLACE FUNCTION finagent_check_fact_chunk() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- A fact's chunk is its own company's: that one partition is looked at first.
    PERFORM 1 FROM chunks WHERE id = NEW.chunk_id AND ticker = NEW.ticker FOR KEY SHARE;
    IF NOT FOUND THEN
        PERFORM 1 FROM chunks WHERE id = NEW.chunk_id FOR KEY SHARE;
    END IF;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'fact % points at chunk %, which is not stored', NEW.id, NEW.chunk_id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER facts_chunk_exists AFTER INSERT OR UPDATE OF chunk_id ON facts
    FOR EACH ROW WHEN (NEW.chunk_id IS NOT NULL) EXECUTE FUNCTION finagent_check_fact_chunk();

ANALYZE chunks;
ANALYZE facts;
