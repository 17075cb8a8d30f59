-- Of some companies, those with no stored news article published in a window of days, each with the
-- first and last day its stored news covers (NULL when it holds none): a question asking what the news
-- said then cannot be answered from news.
SELECT t.ticker,
       (SELECT min(d.published_at)::date FROM documents d
        WHERE d.kind = 'news' AND d.ticker = t.ticker AND d.status = 'ready') AS first_day,
       (SELECT max(d.published_at)::date FROM documents d
        WHERE d.kind = 'news' AND d.ticker = t.ticker AND d.status = 'ready') AS last_day
FROM unnest(%(tickers)s::text[]) WITH ORDINALITY AS t(ticker, position)
WHERE NOT EXISTS (
    SELECT 1 FROM documents d
    WHERE d.kind = 'news'
      AND d.ticker = t.ticker
      AND d.status = 'ready'
      AND d.published_at::date BETWEEN %(start)s::date AND %(end)s::date
)
ORDER BY t.position
