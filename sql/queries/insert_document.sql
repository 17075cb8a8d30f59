INSERT INTO documents (kind, ticker, company_name, fiscal_year, fiscal_quarter, period_end, published_at,
                       title, source_uri, content_sha256, chunk_count, metadata, filing_key)
VALUES (%(kind)s, %(ticker)s, %(company_name)s, %(fiscal_year)s, %(fiscal_quarter)s, %(period_end)s,
        %(published_at)s, %(title)s, %(source_uri)s, %(content_sha256)s, %(chunk_count)s, %(metadata)s,
        %(filing_key)s)
RETURNING id
