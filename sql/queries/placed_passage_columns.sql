-- The columns of a passage read by its place, not found by its score (a part's opening, the passages
-- beside a hit): a search hit's fields, scored 0 (the search node places them). Chunks c, documents d.
c.id AS chunk_id, c.document_id, 0.0::float8 AS fused_score,
       NULL::float8 AS vector_score, NULL::float8 AS keyword_score,
       c.ticker, c.kind, c.fiscal_year, c.fiscal_quarter, c.period_end, c.section, c.section_title,
       c.page, c.char_start, c.char_end, c.is_table, c.statement, c.text, c.metadata,
       d.title, d.source_uri, d.company_name, d.published_at, d.content_sha256
