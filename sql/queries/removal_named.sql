-- Documents a removal names: by id, by the source they were read from (the filings of a company-facts
-- file by that file), or every one of a company.
SELECT id FROM documents
WHERE id = %(id)s OR source_uri = ANY(%(sources)s::text[])
   OR metadata->>'companyfacts_file' = ANY(%(sources)s::text[]) OR ticker = %(ticker)s
