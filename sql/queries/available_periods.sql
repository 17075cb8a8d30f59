-- What the store holds per company and fiscal period: one row per (ticker, kind, fiscal year, quarter),
-- with the first filing date (calendar phrases such as "reported in 2023" read it).
-- Only current document versions count; undated documents cannot be targeted by period.
SELECT d.ticker, d.kind, d.fiscal_year, d.fiscal_quarter,
       min(d.period_end) AS first_period_end, max(d.period_end) AS last_period_end,
       count(*) AS documents, min(d.published_at) AS filed
FROM documents d
WHERE d.ticker = ANY(%(tickers)s)
  AND d.status = 'ready'
  AND d.fiscal_year IS NOT NULL
GROUP BY d.ticker, d.kind, d.fiscal_year, d.fiscal_quarter
ORDER BY d.ticker, d.fiscal_year, d.fiscal_quarter NULLS LAST, d.kind
