INSERT INTO listed_companies (ticker, cik, name, name_key)
VALUES (%(ticker)s, %(cik)s, %(name)s, %(name_key)s)
ON CONFLICT (ticker) DO UPDATE SET cik = EXCLUDED.cik, name = EXCLUDED.name, name_key = EXCLUDED.name_key
