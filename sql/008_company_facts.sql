-- SEC company facts are stored as one document per filing (accession): copies of a filing are found
-- by accession number (an iXBRL or XBRL instance copy of the same filing counts once), so the
-- accession gets an index.
CREATE INDEX IF NOT EXISTS documents_accession_idx ON documents ((metadata->>'accession'));
