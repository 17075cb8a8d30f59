-- What the store holds for one company: one row per fiscal period and document kind (current versions),
-- with the chunks searched for them (a filing's text kept from an earlier copy included) and the
-- passages stored flagged (text addressed to AI systems, hidden text: never evidence).
WITH searched AS (
    SELECT c.fiscal_year, c.fiscal_quarter, c.kind, count(*) AS chunks,
           count(*) FILTER (WHERE c.flagged_reason IS NOT NULL) AS flagged
    FROM chunks c
    WHERE c.ticker = %(ticker)s AND NOT c.superseded
    GROUP BY c.fiscal_year, c.fiscal_quarter, c.kind
)
SELECT d.fiscal_year, d.fiscal_quarter, d.kind,
       min(d.period_end) AS period_end,
       count(*) AS documents,
       coalesce(max(s.chunks), 0) AS chunks,
       array_agg(d.source_uri ORDER BY d.source_uri) AS sources,
       coalesce(max(s.flagged), 0) AS flagged
FROM documents d
LEFT JOIN searched s ON s.fiscal_year IS NOT DISTINCT FROM d.fiscal_year
                    AND s.fiscal_quarter IS NOT DISTINCT FROM d.fiscal_quarter
                    AND s.kind = d.kind
WHERE d.ticker = %(ticker)s
  AND d.status = 'ready'
GROUP BY d.fiscal_year, d.fiscal_quarter, d.kind
ORDER BY d.fiscal_year NULLS LAST, d.fiscal_quarter NULLS LAST, d.kind
