SELECT count(*) FROM documents WHERE status = 'ready';
