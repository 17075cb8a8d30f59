-- New company-facts filings become current: earlier versions of the same filing (same EDGAR source)
-- and other copies of it (same filing key) are superseded, with their facts (kept for old citations).
-- Text of a copy (a PDF of the filing) stays searchable: company facts have none.
WITH older AS (
    SELECT id FROM documents
    WHERE (source_uri = ANY(%(sources)s::text[]) OR filing_key = ANY(%(filing_keys)s::text[]))
      AND NOT (id = ANY(%(new_ids)s::bigint[]))
), facts_out AS (
    UPDATE facts SET superseded = true
    WHERE NOT superseded AND document_id IN (SELECT id FROM older)
)
UPDATE documents SET status = 'superseded', superseded_at = now()
WHERE id IN (SELECT id FROM older) AND status = 'ready'
RETURNING id
