-- Facts held for one company per fiscal period and duration (current, consolidated; derived apart).
SELECT fiscal_year, fiscal_quarter, duration,
       count(*) FILTER (WHERE NOT derived) AS reported,
       count(*) FILTER (WHERE derived) AS derived,
       count(DISTINCT concept) AS concepts,
       max(period_end) AS period_end
FROM facts
WHERE ticker = %(ticker)s AND NOT superseded AND dims_key = ''
GROUP BY fiscal_year, fiscal_quarter, duration
ORDER BY fiscal_year NULLS LAST, fiscal_quarter NULLS LAST, duration
