-- What the store holds for one company: one row per fiscal period and document kind (current versions).
SELECT d.fiscal_year, d.fiscal_quarter, d.kind,
       min(d.period_end) AS period_end,
       count(*) AS documents,
       coalesce(sum(d.chunk_count), 0) AS chunks,
       array_agg(d.source_uri ORDER BY d.source_uri) AS sources
FROM documents d
WHERE d.ticker = %(ticker)s
  AND d.status = 'ready'
GROUP BY d.fiscal_year, d.fiscal_quarter, d.kind
ORDER BY d.fiscal_year NULLS LAST, d.fiscal_quarter NULLS LAST, d.kind
