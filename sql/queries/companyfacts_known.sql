-- Stored documents that may be the filings of a company-facts file: the same accession number, the
-- same filing key, or the same content. Whether each still supplies current facts, and from what
-- format (company facts, or the filing itself as iXBRL / XBRL instance). Only the company's own
-- documents: co-registrants (a parent and its subsidiary) file one report under one accession.
SELECT d.id, d.filing_key, d.metadata->>'accession' AS accession, d.content_sha256, d.status,
       coalesce(d.metadata->>'format', '') AS format,
       EXISTS (SELECT 1 FROM facts f WHERE f.document_id = d.id AND NOT f.superseded) AS has_facts
FROM documents d
WHERE d.ticker = %(ticker)s
  AND (d.metadata->>'accession' = ANY(%(accessions)s::text[])
       OR d.filing_key = ANY(%(filing_keys)s::text[])
       OR d.content_sha256 = ANY(%(hashes)s::text[]))
