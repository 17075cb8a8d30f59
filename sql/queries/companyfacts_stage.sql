-- Staging rows of one company-facts file, streamed in by COPY while the file is parsed; dropped when
-- the file's transaction ends (only the rows of new filings move on to the facts table). The
-- transaction does not wait for its commit to reach disk: a crash can lose the last files stored
-- (each whole, never half), which a re-run stores again; bulk loads go much faster.
SET LOCAL synchronous_commit = off;
CREATE TEMP TABLE companyfacts_stage (
    accession    text NOT NULL,
    concept      text NOT NULL,
    unit         text,
    period_start date,
    period_end   date NOT NULL,
    value        numeric NOT NULL,
    decimals     integer,
    duration     text NOT NULL
) ON COMMIT DROP
