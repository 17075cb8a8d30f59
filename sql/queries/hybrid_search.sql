-- One hybrid sub-search in one round trip.
-- vector_leg placeholder: an exact scan of the filtered rows, or an HNSW (iterative scan) over all rows.
-- filters placeholder: AND-ed filter predicates on chunks c (composed from parameters, never from text).
-- Keyword leg: any query term may match (OR); chunks matching all terms rank double, and double
-- again when they hold the query as a phrase ("total net sales" as written);
-- each leg is min-max normalised over its candidates before the weighted fusion (or RRF).
WITH query AS (
    SELECT websearch_to_tsquery('finagent', finagent_normalize(%(query)s)) AS all_terms,
           phraseto_tsquery('finagent', finagent_normalize(%(query)s)) AS phrase
),
query_terms AS (
    SELECT all_terms, phrase, replace(all_terms::text, ' & ', ' | ')::tsquery AS any_term FROM query
),
vector_ranked AS (
    {vector_leg}
),
-- Statement routing: the pages of the statements the question needs (a metric's cash-flow statement)
-- are always candidates, even when narrative pages outrank them on both legs.
routed_raw AS (
    SELECT c.id, 1 - (c.embedding <=> %(query_vector)s::halfvec) AS score
    FROM chunks c
    WHERE c.statement = ANY(%(statements)s) AND {filters}
    ORDER BY c.embedding <=> %(query_vector)s::halfvec, c.id
    LIMIT %(routed)s
),
-- An 8-K's own Items (its account of the event, not the exhibits filed under Item 9.01) are always
-- candidates of a company's search: a 140-page credit agreement filed with it must not crowd out the
-- page that says what happened. The rule (event_item, composed in db/search.py) is
-- finance.filing_sections.event_item's.
events_raw AS (
    SELECT c.id, 1 - (c.embedding <=> %(query_vector)s::halfvec) AS score
    FROM chunks c
    WHERE %(event_candidates)s > 0 AND {event_item} AND {filters}
    ORDER BY c.embedding <=> %(query_vector)s::halfvec, c.id
    LIMIT %(event_candidates)s
),
vector_raw AS (
    SELECT id, score FROM vector_ranked
    UNION
    SELECT id, score FROM routed_raw
    UNION
    SELECT id, score FROM events_raw
),
keyword_raw AS (
    SELECT c.id,
           ts_rank_cd(c.tsv, q.any_term, 1)
               * (1 + (c.tsv @@ q.all_terms)::int)
               * (1 + (c.tsv @@ q.phrase)::int) AS score
    FROM chunks c, query_terms q
    -- Written out (not q.any_term) so the planner folds it to a constant and can estimate it.
    WHERE c.tsv @@ replace(websearch_to_tsquery('finagent', finagent_normalize(%(query)s))::text, ' & ', ' | ')::tsquery
      AND {filters}
    ORDER BY score DESC, c.id
    LIMIT %(candidates)s
),
vector_leg AS (
    SELECT id, score, row_number() OVER (ORDER BY score DESC, id) AS rnk FROM vector_raw
),
keyword_leg AS (
    SELECT id, score, row_number() OVER (ORDER BY score DESC, id) AS rnk FROM keyword_raw
),
bounds AS (
    SELECT (SELECT min(score) FROM vector_leg) AS vmin, (SELECT max(score) FROM vector_leg) AS vmax,
           (SELECT min(score) FROM keyword_leg) AS kmin, (SELECT max(score) FROM keyword_leg) AS kmax
),
fused AS (
    SELECT coalesce(v.id, k.id) AS id,
           v.score AS vector_score,
           k.score AS keyword_score,
           CASE WHEN %(fusion)s = 'rrf' THEN
                    coalesce(%(vector_weight)s / (60.0 + v.rnk), 0) + coalesce(%(keyword_weight)s / (60.0 + k.rnk), 0)
                ELSE
                    %(vector_weight)s * coalesce(CASE WHEN b.vmax > b.vmin
                        THEN (v.score - b.vmin) / (b.vmax - b.vmin) ELSE 1.0 END * (v.id IS NOT NULL)::int, 0)
                  + %(keyword_weight)s * coalesce(CASE WHEN b.kmax > b.kmin
                        THEN (k.score - b.kmin) / (b.kmax - b.kmin) ELSE 1.0 END * (k.id IS NOT NULL)::int, 0)
           END AS fused_score
    FROM vector_leg v
    FULL OUTER JOIN keyword_leg k ON v.id = k.id
    CROSS JOIN bounds b
)
-- A primary statement (income, balance sheet, cash flow, equity) holding every query term, or one
-- of the statements the question is routed to, is where a reported line item is authoritative; it
-- gets an additive lift over MD&A/segment tables that repeat the line. An 8-K's own Items get theirs.
SELECT f.id AS chunk_id, c.document_id,
       f.fused_score + greatest(
           %(statement_boost)s * (c.statement IS NOT NULL AND c.tsv @@ q.all_terms)::int,
           %(route_boost)s * coalesce(c.statement = ANY(%(statements)s), false)::int
       ) + %(event_boost)s * coalesce({event_item}, false)::int AS fused_score,
       f.vector_score, f.keyword_score,
       c.ticker, c.kind, c.fiscal_year, c.fiscal_quarter, c.period_end, c.section, c.section_title,
       c.page, c.char_start, c.char_end, c.is_table, c.statement, c.text, c.metadata,
       d.title, d.source_uri, d.company_name, d.published_at, d.content_sha256
FROM fused f
-- The filters again (every fused row passed them): the lookup reads only the partitions they select.
JOIN chunks c ON c.id = f.id AND {filters}
JOIN documents d ON d.id = c.document_id
CROSS JOIN query_terms q
ORDER BY 3 DESC, f.id
LIMIT %(k)s
