-- Re-file a company stored under its CIK symbol under its listed ticker: its company row, documents,
-- chunks and facts (derived ones too) in one statement, filing keys included ("<ticker>|<form>|..."),
-- named as the list names it (SEC's company-facts files name companies in capitals).
WITH company AS (
    INSERT INTO companies (ticker, name, aliases, fiscal_year_end_month, cik, source, fiscal_year_offset)
    SELECT %(new)s, coalesce(%(name)s, name), aliases, fiscal_year_end_month, cik, source, fiscal_year_offset
    FROM companies
    WHERE ticker = %(old)s
    RETURNING ticker
), gone AS (
    DELETE FROM companies WHERE ticker = %(old)s RETURNING ticker
), docs AS (
    UPDATE documents
    SET ticker = %(new)s,
        filing_key = CASE WHEN starts_with(filing_key, %(old)s || '|')
                          THEN %(new)s || substr(filing_key, length(%(old)s) + 1) ELSE filing_key END
    WHERE ticker = %(old)s
    RETURNING id
), chunk_rows AS (
    UPDATE chunks SET ticker = %(new)s WHERE ticker = %(old)s RETURNING id
), fact_rows AS (
    UPDATE facts
    SET ticker = %(new)s,
        filing_key = CASE WHEN starts_with(filing_key, %(old)s || '|')
                          THEN %(new)s || substr(filing_key, length(%(old)s) + 1) ELSE filing_key END
    WHERE ticker = %(old)s
    RETURNING id
)
SELECT (SELECT count(*) FROM docs), (SELECT count(*) FROM fact_rows), (SELECT count(*) FROM company)
