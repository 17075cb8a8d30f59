-- Derived facts computed from removed facts go with them (the company's current ones are recomputed
-- afterwards); removing a company removes all of its derived facts.
DELETE FROM facts
WHERE derived
  AND (inputs && ARRAY(SELECT id FROM facts WHERE document_id = ANY(%(ids)s)) OR ticker = %(ticker)s)
