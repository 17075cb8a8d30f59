-- Document versions are kept: a re-ingested changed document supersedes the old version instead of
-- deleting it, so citations recorded by earlier runs still resolve to the exact text they quoted.
-- Searches skip superseded chunks (flag denormalised onto chunks: no join before ranking).
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS superseded boolean NOT NULL DEFAULT false;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS superseded_at timestamptz;

-- The audit trail: every research run, with what it searched, called, prompted and answered.
CREATE TABLE IF NOT EXISTS runs (
    id               uuid PRIMARY KEY,
    thread_id        text,
    question         text NOT NULL,
    options          jsonb NOT NULL DEFAULT '{}'::jsonb,   -- tickers, periods, mode, provider, limits
    models           jsonb NOT NULL DEFAULT '[]'::jsonb,   -- provider/model per role actually used
    status           text NOT NULL CHECK (status IN ('completed', 'failed')),
    analysis         jsonb,
    targets          jsonb,
    answer           text,
    confidence       real,
    iterations       integer,
    validation       jsonb,                                -- numeric verification of the answer
    tool_results     jsonb NOT NULL DEFAULT '[]'::jsonb,
    evaluations      jsonb NOT NULL DEFAULT '[]'::jsonb,
    facts            jsonb NOT NULL DEFAULT '[]'::jsonb,
    calculations     jsonb NOT NULL DEFAULT '[]'::jsonb,
    warnings         jsonb NOT NULL DEFAULT '[]'::jsonb,
    errors           jsonb NOT NULL DEFAULT '[]'::jsonb,
    node_timings     jsonb NOT NULL DEFAULT '[]'::jsonb,   -- [{node, ms}] in completion order
    input_tokens     integer NOT NULL DEFAULT 0,
    output_tokens    integer NOT NULL DEFAULT 0,
    started_at       timestamptz NOT NULL,
    finished_at      timestamptz NOT NULL DEFAULT now(),
    finagent_version text NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_started_idx ON runs (started_at DESC);

CREATE TABLE IF NOT EXISTS run_searches (
    run_id        uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq           integer NOT NULL,
    round         integer NOT NULL,
    ticker        text,
    period_label  text,
    query         text NOT NULL,
    filters       jsonb NOT NULL DEFAULT '{}'::jsonb,
    results       jsonb NOT NULL DEFAULT '[]'::jsonb,      -- [{chunk_id, document_id, vector, keyword, fused}]
    ms            real,
    error         text,
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE IF NOT EXISTS run_llm_calls (
    run_id         uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq            integer NOT NULL,
    role           text NOT NULL,
    provider       text,
    model          text,
    template       text,
    prompt_sha256  text,
    prompt         text,
    reply          text,
    input_tokens   integer NOT NULL DEFAULT 0,
    output_tokens  integer NOT NULL DEFAULT 0,
    latency_s      real,
    ok             boolean NOT NULL,
    repaired       boolean NOT NULL DEFAULT false,
    error          text,
    PRIMARY KEY (run_id, seq)
);

-- Citations point at chunks by id; the chunk's document row (kept when superseded) gives the
-- version (content hash), page and character offsets.
CREATE TABLE IF NOT EXISTS run_citations (
    run_id       uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    label        text NOT NULL,
    chunk_id     bigint,
    document_id  bigint,
    content_sha256 text,
    ticker       text,
    kind         text,
    period       text,
    section      text,
    page         integer,
    source_uri   text,
    PRIMARY KEY (run_id, label)
);
