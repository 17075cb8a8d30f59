-- Which of these companies have reported figures (XBRL facts) in the store.
SELECT DISTINCT ticker FROM facts WHERE ticker = ANY(%(tickers)s) AND NOT superseded
