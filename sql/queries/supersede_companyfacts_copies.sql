-- New company-facts filings become current: earlier company-facts versions of the same filing (same
-- EDGAR source, or same filing key) are superseded with their facts (kept for old citations). Other
-- copies of the filing (its text as a PDF or HTML) stay as they are.
WITH older AS (
    SELECT id FROM documents
    WHERE (source_uri = ANY(%(sources)s::text[]) OR filing_key = ANY(%(filing_keys)s::text[]))
      AND metadata->>'format' = 'companyfacts'
      AND NOT (id = ANY(%(new_ids)s::bigint[]))
), facts_out AS (
    UPDATE facts SET superseded = true
    WHERE NOT superseded AND document_id IN (SELECT id FROM older)
)
UPDATE documents SET status = 'superseded', superseded_at = now()
WHERE id IN (SELECT id FROM older) AND status = 'ready'
RETURNING id
