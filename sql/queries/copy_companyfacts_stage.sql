COPY companyfacts_stage (accession, concept, unit, period_start, period_end, value, decimals, duration)
FROM STDIN
