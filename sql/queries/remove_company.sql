-- A removed company learnt from documents leaves the company table; a built-in one stays (its names
-- still resolve questions to "no documents for ...").
DELETE FROM companies WHERE ticker = %(ticker)s AND source <> 'builtin'
