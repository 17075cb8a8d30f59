-- Every content hash the store holds (current or superseded): a reader of another engine does not
-- chunk or embed these again, the writer only checks their metadata.
SELECT content_sha256 FROM documents
