-- New metadata for a stored document (same content): its row; the chunks follow in the same transaction.
UPDATE documents
SET kind = %(kind)s, ticker = %(ticker)s, company_name = %(company_name)s, fiscal_year = %(fiscal_year)s,
    fiscal_quarter = %(fiscal_quarter)s, period_end = %(period_end)s,
    published_at = coalesce(%(published_at)s, published_at), title = %(title)s, metadata = %(metadata)s,
    filing_key = %(filing_key)s
WHERE id = %(document_id)s
