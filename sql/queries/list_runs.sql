SELECT r.id::text AS id, r.started_at, r.status, r.question, r.confidence, r.iterations,
       r.input_tokens + r.output_tokens AS tokens,
       extract(epoch FROM r.finished_at - r.started_at) AS seconds,
       r.validation ->> 'status' AS validation,
       (SELECT count(*) FROM run_citations c WHERE c.run_id = r.id) AS citations
FROM runs r
ORDER BY r.started_at DESC
LIMIT %(limit)s
