-- One company's company-facts files are stored one at a time (held until the transaction ends).
SELECT pg_advisory_xact_lock(hashtext(%(key)s))
