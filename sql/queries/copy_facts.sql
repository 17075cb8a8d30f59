COPY facts (document_id, ticker, cik, filing_key, form, filing_period_end, filed_at, concept, value, is_nil,
            unit, decimals, period_start, period_end, duration, dimensions, dims_key, fiscal_year,
            fiscal_quarter, label, display, hidden, conflict, chunk_id, page, statement)
FROM STDIN
