-- The identity of the current document with this content (company, kind, fiscal period, dates).
SELECT id, kind, ticker, company_name, fiscal_year, fiscal_quarter, period_end, published_at, title, chunk_count
FROM documents
WHERE content_sha256 = %(content_sha256)s AND status = 'ready'
