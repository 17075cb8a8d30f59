-- Company-facts filings whose filing is already a current document (its text): kept as copies that
-- supply the filing's facts, the text document stays the one listed and searched.
UPDATE documents SET status = 'superseded', superseded_at = now()
WHERE id = ANY(%(ids)s::bigint[]) AND status = 'ready'
