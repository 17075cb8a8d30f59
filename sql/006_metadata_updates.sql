-- A stored document ingested again with new metadata (--ticker/--form/--period-end, or a better
-- reading of its cover) is updated in place: the audit trail records it as 'updated'.
ALTER TABLE ingest_events DROP CONSTRAINT IF EXISTS ingest_events_state_check;
ALTER TABLE ingest_events ADD CONSTRAINT ingest_events_state_check CHECK (state IN
    ('discovered', 'parsed', 'embedded', 'ready', 'unchanged', 'updated', 'replaced', 'skipped', 'failed',
     'removed'));
