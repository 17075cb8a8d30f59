-- Documents a removal names: by id, by the source they were read from, or every one of a company.
SELECT id FROM documents
WHERE id = %(id)s OR source_uri = ANY(%(sources)s::text[]) OR ticker = %(ticker)s
