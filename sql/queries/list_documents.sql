-- Current documents (one per filing), optionally of one company, with what is searched of each: the
-- chunks and facts in use of its filing (a copy's part the newest copy lacks, such as the text
-- behind an XBRL instance, is still in use and counted here), which stored copies they come from, and
-- its passages stored flagged (addressed to AI systems or hidden: never evidence).
WITH in_use AS (
    SELECT d.id, coalesce(d.filing_key, 'document ' || d.id) AS filing,
           (SELECT count(*) FROM chunks c WHERE c.document_id = d.id AND NOT c.superseded) AS chunks,
           (SELECT count(*) FROM facts f WHERE f.document_id = d.id AND NOT f.superseded) AS facts,
           (SELECT count(*) FROM chunks c WHERE c.document_id = d.id AND NOT c.superseded
                                           AND c.flagged_reason IS NOT NULL) AS flagged
    FROM documents d
    WHERE (%(ticker)s::text IS NULL OR d.ticker = %(ticker)s::text)
)
SELECT d.id, d.ticker, d.kind, d.fiscal_year, d.fiscal_quarter, d.period_end, d.title, d.source_uri,
       sum(u.chunks)::bigint AS chunks, sum(u.facts)::bigint AS facts,
       array_agg(u.id ORDER BY u.id) FILTER (WHERE u.id <> d.id AND u.chunks > 0) AS text_from,
       array_agg(u.id ORDER BY u.id) FILTER (WHERE u.id <> d.id AND u.facts > 0) AS facts_from,
       sum(u.flagged)::bigint AS flagged
FROM documents d
JOIN in_use u ON u.filing = coalesce(d.filing_key, 'document ' || d.id)
WHERE d.status = 'ready'
  AND (%(ticker)s::text IS NULL OR d.ticker = %(ticker)s::text)
GROUP BY d.id
ORDER BY d.ticker NULLS LAST, d.kind, d.fiscal_year NULLS LAST, d.fiscal_quarter NULLS FIRST, d.period_end, d.id
