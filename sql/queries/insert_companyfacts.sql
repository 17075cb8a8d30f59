-- The staged facts of the new filings into the facts table: each with its filing (document, key,
-- form, period, filing date), its fiscal period from its own end date, and its concept's label.
INSERT INTO facts (document_id, ticker, cik, filing_key, form, filing_period_end, filed_at, concept, value,
                   unit, decimals, period_start, period_end, duration, fiscal_year, fiscal_quarter, label)
SELECT a.document_id, %(ticker)s, %(cik)s, a.filing_key, a.form, a.period_end, a.filed, s.concept, s.value,
       s.unit, s.decimals, s.period_start, s.period_end, s.duration, p.fiscal_year, p.fiscal_quarter, l.label
FROM companyfacts_stage s
JOIN unnest(%(accessions)s::text[], %(document_ids)s::bigint[], %(filing_keys)s::text[], %(forms)s::text[],
            %(filing_ends)s::date[], %(filed)s::date[])
     AS a (accession, document_id, filing_key, form, period_end, filed) ON a.accession = s.accession
JOIN unnest(%(ends)s::date[], %(years)s::integer[], %(quarters)s::smallint[])
     AS p (period_end, fiscal_year, fiscal_quarter) ON p.period_end = s.period_end
LEFT JOIN unnest(%(concepts)s::text[], %(labels)s::text[]) AS l (concept, label) ON l.concept = s.concept
