-- Documents that may be copies of one filing: the same accession number, or the same base key
-- ("<ticker>|<FORM>|<period end>"); the caller picks the key a new copy joins.
SELECT filing_key, metadata->>'accession' AS accession
FROM documents
WHERE filing_key IS NOT NULL
  AND ((%(accession)s::text IS NOT NULL AND metadata->>'accession' = %(accession)s::text)
       OR filing_key = %(base_key)s)
ORDER BY id DESC
