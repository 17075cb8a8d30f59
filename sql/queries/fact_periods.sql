-- Fiscal periods with reported figures (consolidated facts), per company: quarters and fiscal years,
-- with the actual period end. Resolution treats them as available for explicitly named periods. A
-- balance at a fiscal year's end (a later 10-Q's prior-year-end column) makes that year answerable.
WITH periods AS (
    SELECT ticker, fiscal_year,
           CASE WHEN duration = 'year' OR (duration = 'instant' AND fiscal_quarter = 4) THEN NULL
                ELSE fiscal_quarter END AS fiscal_quarter,
           period_end
    FROM facts
    WHERE ticker = ANY(%(tickers)s)
      AND NOT superseded AND dims_key = '' AND fiscal_year IS NOT NULL
      AND (duration IN ('quarter', 'year') OR (duration = 'instant' AND fiscal_quarter = 4))
)
SELECT ticker, fiscal_year, fiscal_quarter, min(period_end) AS first_period_end,
       max(period_end) AS last_period_end, count(*) AS facts
FROM periods
GROUP BY ticker, fiscal_year, fiscal_quarter
ORDER BY ticker, fiscal_year, 3 NULLS LAST
