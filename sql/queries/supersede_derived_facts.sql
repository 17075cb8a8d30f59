-- Derived facts whose inputs changed are kept for old citations but leave every lookup.
UPDATE facts SET superseded = true WHERE id = ANY(%(ids)s)
