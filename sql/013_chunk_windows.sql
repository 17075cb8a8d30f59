-- Vectors of a chunk's later windows. The embedding model reads the first 256 tokens of a text; a page
-- chunk runs to about 700 (median ~480), so its second half had no vector and a company's search by
-- meaning never saw it. `embedding` stays the first window's vector (the one the HNSW index walks);
-- `windows` holds the vectors of the windows after it, each 254 tokens, 30 shared with the one before.
-- An empty array: the chunk fits in one window. NULL: stored before this column; `finagent db windows`
-- embeds them (the search then reads such a chunk by its first window, as before).
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS windows halfvec(384)[];
