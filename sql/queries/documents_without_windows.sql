-- Documents with chunks stored before their later windows had vectors (sql/013), current ones first.
SELECT document_id FROM chunks WHERE windows IS NULL GROUP BY document_id ORDER BY bool_and(superseded), document_id
