-- Staging rows of one company-facts file, streamed in by COPY while the file is parsed; dropped when
-- the file's transaction ends (only the rows of new filings move on to the facts table).
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
