INSERT INTO run_searches (run_id, seq, round, ticker, period_label, query, filters, results, ms, error)
VALUES (%(run_id)s, %(seq)s, %(round)s, %(ticker)s, %(period_label)s, %(query)s, %(filters)s, %(results)s,
        %(ms)s, %(error)s)
