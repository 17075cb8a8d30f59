SELECT d.ticker, d.kind, d.fiscal_year, d.fiscal_quarter, min(d.period_end) AS period_end,
       count(*) AS documents, sum(d.chunk_count) AS chunks, coalesce(sum(f.flagged), 0) AS flagged
FROM documents d
-- Flagged passages (finance.untrusted): stored, never used as evidence.
LEFT JOIN (SELECT document_id, count(*) AS flagged FROM chunks
           WHERE flagged_reason IS NOT NULL GROUP BY document_id) f ON f.document_id = d.id
WHERE d.status = 'ready'  -- current versions; superseded ones are kept for audits only
GROUP BY d.ticker, d.kind, d.fiscal_year, d.fiscal_quarter
ORDER BY d.ticker NULLS LAST, d.kind, d.fiscal_year NULLS LAST, d.fiscal_quarter NULLS FIRST
