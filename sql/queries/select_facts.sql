-- Current facts of one company (consolidated unless dimensions are asked for), each with the filing
-- and document it comes from; optionally only some concepts, only reported (not derived) facts, only
-- some durations. One filing stored in two formats (iXBRL and an XBRL instance) reports a fact twice:
-- the copy displayed in readable text is kept.
SELECT DISTINCT ON (f.filing_key, f.concept, f.period_start, f.period_end, f.unit, f.dims_key, f.derived)
       f.id, f.ticker, f.concept, f.value, f.unit, f.decimals, f.period_start, f.period_end, f.duration,
       f.fiscal_year, f.fiscal_quarter, f.dims_key, f.label, f.display, f.filing_key, f.form,
       f.filing_period_end, f.filed_at, f.document_id, f.chunk_id, f.page, f.statement, f.derived,
       f.derivation, f.inputs, f.conflict, f.hidden, d.source_uri, d.title, d.kind
FROM facts f
LEFT JOIN documents d ON d.id = f.document_id
WHERE f.ticker = %(ticker)s
  AND (%(concepts)s::text[] IS NULL OR f.concept = ANY(%(concepts)s::text[]))
  AND (%(durations)s::text[] IS NULL OR f.duration = ANY(%(durations)s::text[]))
  AND NOT (%(reported_only)s AND f.derived)
  AND NOT f.superseded
  AND NOT f.is_nil
  AND (%(all_dimensions)s OR f.dims_key = '')
ORDER BY f.filing_key, f.concept, f.period_start, f.period_end, f.unit, f.dims_key, f.derived,
         (f.chunk_id IS NULL), f.hidden, f.id
