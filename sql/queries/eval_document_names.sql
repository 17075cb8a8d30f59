-- Benchmark names of documents: the FinanceBench doc_name, else the source file's name without extension.
SELECT id, coalesce(metadata->>'doc_name', regexp_replace(source_uri, '^.*/|\.[^.]*$', '', 'g'))
FROM documents
WHERE id = ANY(%(ids)s)
