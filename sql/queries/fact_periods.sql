-- Fiscal periods with reported figures (consolidated facts), per company: quarters and fiscal years,
-- with the actual period end. Resolution treats them as available for explicitly named periods.
SELECT ticker, fiscal_year, CASE WHEN duration = 'year' THEN NULL ELSE fiscal_quarter END AS fiscal_quarter,
       min(period_end) AS first_period_end, max(period_end) AS last_period_end, count(*) AS facts
FROM facts
WHERE ticker = ANY(%(tickers)s)
  AND NOT superseded AND dims_key = '' AND duration IN ('quarter', 'year')
  AND fiscal_year IS NOT NULL
GROUP BY ticker, fiscal_year, CASE WHEN duration = 'year' THEN NULL ELSE fiscal_quarter END
ORDER BY ticker, fiscal_year, 3 NULLS LAST
