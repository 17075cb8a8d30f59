-- Documents and chunks a (benchmark) store holds, for the build summary.
SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks;
