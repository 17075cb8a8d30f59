-- finagent schema v3: XBRL facts, one row per reported number, with its period, and derived figures.
-- A figure is a value for a company *and a period*: every fact carries its own start/end (or instant),
-- duration class and fiscal period, derived from its own dates (a 10-K states three years).

-- The year-naming offset each company's own filings teach (-1: a year ending in January is named
-- after the year it began, as retailers do).
ALTER TABLE companies ADD COLUMN IF NOT EXISTS fiscal_year_offset smallint
    CHECK (fiscal_year_offset BETWEEN -1 AND 1);

CREATE TABLE IF NOT EXISTS facts (
    id                bigserial PRIMARY KEY,
    -- The document that reports it (NULL for a derived fact, whose inputs say where it comes from).
    document_id       bigint REFERENCES documents (id) ON DELETE CASCADE,
    ticker            text NOT NULL,
    cik               text,
    -- One filing whatever format it was ingested in (iXBRL, XBRL instance): "<ticker>|<form>|<period end>";
    -- queries count a filing's fact once even when two formats of it are stored.
    filing_key        text NOT NULL,
    form              text,
    filing_period_end date,
    filed_at          date,
    concept           text NOT NULL,
    value             numeric,               -- exact (Decimal), sign and scale applied; NULL when nil
    is_nil            boolean NOT NULL DEFAULT false,
    unit              text,                  -- USD, USD/shares, shares, pure, ...
    decimals          integer,               -- NULL = INF
    period_start      date,                  -- NULL for an instant
    period_end        date NOT NULL,
    duration          text NOT NULL CHECK (duration IN
                          ('instant', 'quarter', 'six_months', 'nine_months', 'year', 'other')),
    dimensions        jsonb NOT NULL DEFAULT '{}'::jsonb,  -- {axis: member}; {} = the consolidated total
    dims_key          text NOT NULL DEFAULT '',            -- the same, as sorted text, for grouping
    fiscal_year       integer,
    fiscal_quarter    smallint CHECK (fiscal_quarter BETWEEN 1 AND 4),
    label             text,
    display           text,                  -- the number as printed ("637,959")
    hidden            boolean NOT NULL DEFAULT false,
    conflict          boolean NOT NULL DEFAULT false,  -- the filing reported other values for it too
    -- Provenance: the chunk (and page) where the number is displayed, so a citation opens readable text.
    chunk_id          bigint REFERENCES chunks (id) ON DELETE SET NULL,
    page              integer,
    statement         text,                  -- primary statement of that chunk (income_statement, ...)
    derived           boolean NOT NULL DEFAULT false,
    derivation        text,                  -- how a derived fact was computed (e.g. 'fy_minus_9m')
    inputs            bigint[] NOT NULL DEFAULT '{}',
    superseded        boolean NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS facts_lookup_idx
    ON facts (ticker, concept, fiscal_year, fiscal_quarter, duration) WHERE NOT superseded;
CREATE INDEX IF NOT EXISTS facts_document_idx ON facts (document_id);
CREATE INDEX IF NOT EXISTS facts_filing_idx ON facts (ticker, filing_key);

-- Every company listed on US exchanges (SEC's company_tickers.json), so a question about a company
-- the store does not hold gets a fast, clear answer instead of a search of everything.
CREATE TABLE IF NOT EXISTS listed_companies (
    ticker      text PRIMARY KEY,
    cik         text NOT NULL,
    name        text NOT NULL,
    name_key    text NOT NULL                -- normalised name for matching
);
CREATE INDEX IF NOT EXISTS listed_companies_name_idx ON listed_companies (name_key);
