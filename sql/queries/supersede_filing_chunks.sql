-- The filing's text now comes from the new copy: other copies' chunks leave every search.
UPDATE chunks SET superseded = true
WHERE NOT superseded
  AND document_id IN (SELECT id FROM documents WHERE filing_key = %(filing_key)s AND id <> %(document_id)s)
