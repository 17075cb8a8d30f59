-- The axis members a company's facts are tagged with one at a time (a segment, a product, a region),
-- with the row labels the filings print them under: how a question's words find a part it names.
-- A segment's figure tagged also "as the operating segments report it" is tagged with one part
-- (finance/read/xbrl/members.SEGMENTS_OWN is that qualifier).
SELECT DISTINCT f.ticker, d.key AS axis, d.value AS member, f.label
FROM facts f
CROSS JOIN LATERAL jsonb_each_text(f.dimensions) d
WHERE f.ticker = ANY(%(tickers)s)
  AND NOT f.superseded
  AND f.dims_key <> ''
  AND position(';' IN replace(replace(f.dims_key,
        'srt:ConsolidationItemsAxis=us-gaap:OperatingSegmentsMember;', ''),
        ';srt:ConsolidationItemsAxis=us-gaap:OperatingSegmentsMember', '')) = 0
ORDER BY f.ticker, axis, member, f.label
