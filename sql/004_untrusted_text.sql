-- Document text is untrusted data. A chunk that addresses an AI system or holds text the document
-- hides (finance.untrusted) is stored flagged, with why, and never handed to a model as evidence:
-- searches skip it and only count it for the answer's warnings. NULL = an ordinary passage.
-- Chunks stored before this migration are assessed once right after it (db/chunks.rescan_flags);
-- `finagent db rescan` assesses them again after the rules change.
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS flagged_reason text;
CREATE INDEX IF NOT EXISTS chunks_flagged_idx ON chunks (ticker, document_id) WHERE flagged_reason IS NOT NULL;
