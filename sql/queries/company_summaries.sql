-- One row per company that has current documents: counts, kinds and the fiscal span the store holds;
-- chunks are those searched (a filing's text kept from an earlier copy included).
SELECT c.ticker, c.name, c.fiscal_year_end_month,
       count(d.id) AS documents,
       (SELECT count(*) FROM chunks k WHERE k.ticker = c.ticker AND NOT k.superseded) AS chunks,
       array_agg(DISTINCT d.kind ORDER BY d.kind) AS kinds,
       min(d.fiscal_year) AS first_fiscal_year,
       max(d.fiscal_year) AS last_fiscal_year,
       max(d.period_end) AS last_period_end
FROM companies c
JOIN documents d ON d.ticker = c.ticker AND d.status = 'ready'
GROUP BY c.ticker, c.name, c.fiscal_year_end_month
ORDER BY c.ticker
