-- The derived facts of one company now in use (recomputed after every ingest that touches it).
SELECT id, concept, unit, period_start, period_end, derivation, inputs, value
FROM facts
WHERE ticker = %(ticker)s AND derived AND NOT superseded
