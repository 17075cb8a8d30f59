-- Newest stored news articles of one ticker (company_news tool, offline path), with an opening
-- excerpt of the first chunk for the snippet (never a flagged one: untrusted text stays out).
-- since is a date or NULL.
SELECT d.id,
       d.title,
       d.published_at,
       d.source_uri,
       left(coalesce((SELECT c.text FROM chunks c
                      WHERE c.document_id = d.id AND c.flagged_reason IS NULL
                      ORDER BY c.ordinal LIMIT 1), ''),
            800) AS text
FROM documents d
WHERE d.kind = 'news'
  AND d.ticker = %(ticker)s
  AND d.status = 'ready'
  AND (%(since)s::date IS NULL OR d.published_at >= %(since)s::date)
ORDER BY d.published_at DESC NULLS LAST, d.id DESC
LIMIT %(limit)s
