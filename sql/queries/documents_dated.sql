-- Current documents of a company (or any) dated within %(days)s days of a day: an 8-K or release by
-- its event date (period_end) or its filing date, a periodic report by its filing date. Nearest first.
WITH dated AS (
    SELECT d.id, d.ticker, d.kind, d.title, d.fiscal_year, d.fiscal_quarter, d.period_end,
           (d.published_at AT TIME ZONE 'UTC')::date AS filed,
           least(
               CASE WHEN d.kind IN ('8-K', 'earnings_release') THEN abs(d.period_end - %(day)s::date) END,
               abs((d.published_at AT TIME ZONE 'UTC')::date - %(day)s::date)
           ) AS distance
    FROM documents d
    WHERE d.status = 'ready'
      AND (%(ticker)s::text IS NULL OR d.ticker = %(ticker)s::text)
      AND d.kind = ANY(%(kinds)s)
)
SELECT id, ticker, kind, title, fiscal_year, fiscal_quarter, period_end, filed, distance
FROM dated
WHERE distance <= %(days)s
ORDER BY distance, id
