INSERT INTO facts (document_id, ticker, cik, filing_key, form, filing_period_end, filed_at, concept, value,
                   unit, decimals, period_start, period_end, duration, fiscal_year, fiscal_quarter,
                   label, derived, derivation, inputs)
VALUES (NULL, %(ticker)s, NULL, %(filing_key)s, %(form)s, %(filing_period_end)s, %(filed_at)s, %(concept)s,
        %(value)s, %(unit)s, %(decimals)s, %(period_start)s, %(period_end)s, %(duration)s, %(fiscal_year)s,
        %(fiscal_quarter)s, %(label)s, true, %(derivation)s, %(inputs)s)
