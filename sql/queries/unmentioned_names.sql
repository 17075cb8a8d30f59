-- The names a question gives (capitalised words, "Agentforce") that no current passage of the asked
-- companies mentions, in the kinds of document it names (none named: any): the store cannot answer
-- about them. A name the keyword configuration reads as no term at all (a stop word) is never reported.
SELECT n.name
FROM unnest(%(names)s::text[]) WITH ORDINALITY AS n(name, position)
WHERE numnode(plainto_tsquery('finagent', finagent_normalize(n.name))) > 0
  AND NOT EXISTS (
      SELECT 1
      FROM chunks c
      WHERE c.ticker = ANY(%(tickers)s)
        AND NOT c.superseded
        AND (cardinality(%(kinds)s::text[]) = 0 OR c.kind = ANY(%(kinds)s::text[]))
        AND c.tsv @@ plainto_tsquery('finagent', finagent_normalize(n.name))
  )
ORDER BY n.position
