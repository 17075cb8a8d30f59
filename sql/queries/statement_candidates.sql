-- Chunks whose primary-statement label is (re)computed: tables, and every chunk of page-chunked
-- documents (a page chunk mixes a statement with its title). Keyset-paged by chunk id.
SELECT c.id, c.text, c.metadata->>'caption' AS caption, c.statement,
       coalesce(d.metadata->>'chunking', 'blocks') = 'pages' AS whole_pages
FROM chunks c
JOIN documents d ON d.id = c.document_id
WHERE c.id > %(after)s
  AND (c.is_table OR coalesce(d.metadata->>'chunking', 'blocks') = 'pages')
ORDER BY c.id
LIMIT %(batch)s;
