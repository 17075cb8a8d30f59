-- The filing's facts now come from the new copy: other copies' facts leave every lookup.
UPDATE facts SET superseded = true
WHERE NOT superseded
  AND document_id IN (SELECT id FROM documents WHERE filing_key = %(filing_key)s AND id <> %(document_id)s)
