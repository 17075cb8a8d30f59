-- Of some companies, those with no stored document of a dated kind (a news article, a call transcript)
-- published in a window of days, each with the first and last day its stored documents of the kind
-- cover (NULL when it holds none): a question asking what the news or a call said then cannot be
-- answered from them.
SELECT t.ticker,
       (SELECT min(d.published_at)::date FROM documents d
        WHERE d.kind = %(kind)s AND d.ticker = t.ticker AND d.status = 'ready') AS first_day,
       (SELECT max(d.published_at)::date FROM documents d
        WHERE d.kind = %(kind)s AND d.ticker = t.ticker AND d.status = 'ready') AS last_day
FROM unnest(%(tickers)s::text[]) WITH ORDINALITY AS t(ticker, position)
WHERE NOT EXISTS (
    SELECT 1 FROM documents d
    WHERE d.kind = %(kind)s
      AND d.ticker = t.ticker
      AND d.status = 'ready'
      AND d.published_at::date BETWEEN %(start)s::date AND %(end)s::date
)
ORDER BY t.position
