-- Learnt facts (from filings and manifests) fill gaps in the built-in table, never blank it.
INSERT INTO companies (ticker, name, aliases, fiscal_year_end_month, fiscal_year_offset, cik, source)
VALUES (%(ticker)s, %(name)s, %(aliases)s, %(fiscal_year_end_month)s, %(fiscal_year_offset)s, %(cik)s, 'ingested')
ON CONFLICT (ticker) DO UPDATE SET
    name = COALESCE(companies.name, EXCLUDED.name),
    aliases = ARRAY(SELECT DISTINCT unnest(companies.aliases || EXCLUDED.aliases)),
    fiscal_year_end_month = COALESCE(EXCLUDED.fiscal_year_end_month, companies.fiscal_year_end_month),
    fiscal_year_offset = COALESCE(EXCLUDED.fiscal_year_offset, companies.fiscal_year_offset),
    cik = COALESCE(EXCLUDED.cik, companies.cik),
    updated_at = now()
