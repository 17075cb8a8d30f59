COPY chunks (document_id, ordinal, ticker, kind, fiscal_year, fiscal_quarter, period_end, section,
             section_title, page, char_start, char_end, is_table, statement, text, metadata, embedding,
             flagged_reason)
FROM STDIN WITH (FORMAT BINARY)
