-- finagent schema v1: documents, chunks (hybrid-searchable), companies, ingest audit trail.
CREATE EXTENSION IF NOT EXISTS vector;

-- Keyword normalisation shared by the stored tsvector and every query, so "94,036" matches
-- "94036", and "10-K" / "8-K" stay one token ("10k") instead of splitting into "10" and "k".
CREATE OR REPLACE FUNCTION finagent_normalize(input text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
    SELECT regexp_replace(
               regexp_replace(input, '(\d),(?=\d{3}\M)', '\1', 'g'),
               '\m(\d{1,2})-([A-Za-z])\M', '\1\2', 'g')
$$;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'finagent') THEN
        CREATE TEXT SEARCH CONFIGURATION finagent (COPY = english);
    END IF;
END
$$;

CREATE TABLE IF NOT EXISTS companies (
    ticker                text PRIMARY KEY,
    name                  text,
    aliases               text[] NOT NULL DEFAULT '{}',
    fiscal_year_end_month smallint CHECK (fiscal_year_end_month BETWEEN 1 AND 12),
    cik                   text,
    source                text NOT NULL DEFAULT 'builtin',
    updated_at            timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS documents (
    id              bigserial PRIMARY KEY,
    kind            text NOT NULL,
    ticker          text,
    company_name    text,
    fiscal_year     integer,
    fiscal_quarter  smallint CHECK (fiscal_quarter BETWEEN 1 AND 4),
    period_end      date,
    published_at    timestamptz,
    title           text NOT NULL,
    source_uri      text NOT NULL,
    content_sha256  text NOT NULL UNIQUE,
    status          text NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'superseded')),
    chunk_count     integer NOT NULL DEFAULT 0,
    metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS documents_source_uri_idx ON documents (source_uri);
CREATE INDEX IF NOT EXISTS documents_period_idx ON documents (ticker, fiscal_year, fiscal_quarter, kind);

-- Filter columns (ticker, kind, fiscal period) are denormalised onto chunks so a filtered
-- sub-search is one index scan with no join before ranking.
CREATE TABLE IF NOT EXISTS chunks (
    id              bigserial PRIMARY KEY,
    document_id     bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    ordinal         integer NOT NULL,
    ticker          text,
    kind            text NOT NULL,
    fiscal_year     integer,
    fiscal_quarter  smallint,
    period_end      date,
    section         text,
    section_title   text,
    page            integer,
    char_start      integer NOT NULL,
    char_end        integer NOT NULL,
    is_table        boolean NOT NULL DEFAULT false,
    statement       text,  -- income_statement | balance_sheet | cash_flow | equity (primary statements)
    text            text NOT NULL,
    metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
    embedding       vector(384) NOT NULL,
    tsv             tsvector GENERATED ALWAYS AS (
                        setweight(to_tsvector('finagent', finagent_normalize(coalesce(section_title, ''))), 'B')
                        || to_tsvector('finagent', finagent_normalize(text))
                    ) STORED,
    UNIQUE (document_id, ordinal)
);
CREATE INDEX IF NOT EXISTS chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX IF NOT EXISTS chunks_tsv_gin ON chunks USING gin (tsv);
-- Covering index: a filtered exact vector ranking reads only this index (index-only scan), not
-- the wide heap rows (text, tsvector): measured 6.9 -> 3.0 ms for 1,810 filtered chunks.
CREATE INDEX IF NOT EXISTS chunks_filter_idx ON chunks (ticker, fiscal_year, fiscal_quarter, kind)
    INCLUDE (id, embedding);
CREATE INDEX IF NOT EXISTS chunks_kind_idx ON chunks (kind, fiscal_year);

CREATE TABLE IF NOT EXISTS ingest_events (
    id              bigserial PRIMARY KEY,
    document_id     bigint REFERENCES documents (id) ON DELETE SET NULL,
    source_uri      text NOT NULL,
    content_sha256  text,
    state           text NOT NULL CHECK (state IN
                        ('discovered', 'parsed', 'embedded', 'ready', 'unchanged', 'replaced', 'skipped', 'failed')),
    reason          text,
    details         jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS ingest_events_uri_idx ON ingest_events (source_uri, created_at);
