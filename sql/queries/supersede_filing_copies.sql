-- A newly stored copy of a filing becomes its current document: the other copies are superseded
-- (kept for audits and old citations).
UPDATE documents
SET status = 'superseded', superseded_at = now()
WHERE filing_key = %(filing_key)s AND id <> %(document_id)s AND status = 'ready'
RETURNING id
