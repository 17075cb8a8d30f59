-- One filing, one document: copies of the same filing (iXBRL, XBRL instance, PDF, EDGAR submission,
-- a second download) are versions of one document instead of documents searched side by side.
-- filing_key = "<ticker>|<FORM>|<period end>" (the facts' filing key), with "|<accession>" added
-- when two copies name different accession numbers (two 8-Ks of one day are two filings).
ALTER TABLE documents ADD COLUMN IF NOT EXISTS filing_key text;
UPDATE documents
SET filing_key = ticker || '|' || upper(coalesce(metadata->>'form', kind)) || '|' || period_end::text
WHERE filing_key IS NULL
  AND kind IN ('10-K', '10-Q', '8-K') AND ticker IS NOT NULL AND period_end IS NOT NULL;
CREATE INDEX IF NOT EXISTS documents_filing_key_idx ON documents (filing_key);

-- `finagent db remove` leaves a 'removed' event per document it deletes (the history stays).
ALTER TABLE ingest_events DROP CONSTRAINT IF EXISTS ingest_events_state_check;
ALTER TABLE ingest_events ADD CONSTRAINT ingest_events_state_check CHECK (state IN
    ('discovered', 'parsed', 'embedded', 'ready', 'unchanged', 'updated', 'replaced', 'skipped', 'failed',
     'removed'));
