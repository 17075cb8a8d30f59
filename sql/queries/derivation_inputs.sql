-- Consolidated, reported (not derived) duration facts of one company: the inputs of Q4 = FY - 9M and
-- of quarters from year-to-date differences.
SELECT DISTINCT ON (f.filing_key, f.concept, f.period_start, f.period_end, f.unit)
       f.id, f.ticker, f.concept, f.value, f.unit, f.decimals, f.period_start, f.period_end, f.duration,
       f.fiscal_year, f.fiscal_quarter, f.dims_key, f.label, f.display, f.filing_key, f.form,
       f.filing_period_end, f.filed_at, f.document_id, f.chunk_id, f.page, f.statement, f.derived,
       f.derivation, f.inputs, f.conflict, f.hidden, d.source_uri, d.title, d.kind
FROM facts f
LEFT JOIN documents d ON d.id = f.document_id
WHERE f.ticker = %(ticker)s
  AND NOT f.superseded AND NOT f.derived AND NOT f.is_nil
  AND f.dims_key = ''
  AND f.duration IN ('quarter', 'six_months', 'nine_months', 'year')
ORDER BY f.filing_key, f.concept, f.period_start, f.period_end, f.unit, (f.chunk_id IS NULL), f.hidden, f.id
