-- What the store holds for one company: one row per fiscal period and document kind (current versions),
-- with the passages stored flagged (text addressed to AI systems, hidden text: never evidence).
SELECT d.fiscal_year, d.fiscal_quarter, d.kind,
       min(d.period_end) AS period_end,
       count(*) AS documents,
       coalesce(sum(d.chunk_count), 0) AS chunks,
       array_agg(d.source_uri ORDER BY d.source_uri) AS sources,
       coalesce(sum(f.flagged), 0) AS flagged
FROM documents d
LEFT JOIN (SELECT document_id, count(*) AS flagged FROM chunks
           WHERE flagged_reason IS NOT NULL AND ticker = %(ticker)s GROUP BY document_id) f
       ON f.document_id = d.id
WHERE d.ticker = %(ticker)s
  AND d.status = 'ready'
GROUP BY d.fiscal_year, d.fiscal_quarter, d.kind
ORDER BY d.fiscal_year NULLS LAST, d.fiscal_quarter NULLS LAST, d.kind
