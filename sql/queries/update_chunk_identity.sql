-- The filter columns denormalised onto a document's chunks, after its metadata changed.
UPDATE chunks
SET ticker = %(ticker)s, kind = %(kind)s, fiscal_year = %(fiscal_year)s, fiscal_quarter = %(fiscal_quarter)s,
    period_end = %(period_end)s
WHERE document_id = %(document_id)s
