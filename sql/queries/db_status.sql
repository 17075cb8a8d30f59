SELECT d.ticker, d.kind, d.fiscal_year, d.fiscal_quarter, min(d.period_end) AS period_end,
       count(*) AS documents, sum(d.chunk_count) AS chunks
FROM documents d
WHERE d.status = 'ready'  -- current versions; superseded ones are kept for audits only
GROUP BY d.ticker, d.kind, d.fiscal_year, d.fiscal_quarter
ORDER BY d.ticker NULLS LAST, d.kind, d.fiscal_year NULLS LAST, d.fiscal_quarter NULLS FIRST
