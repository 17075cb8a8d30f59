-- Listed companies (SEC's list) whose normalised name starts with one of the given letters: the
-- candidates a misspelt company name is compared with.
SELECT ticker, name, name_key
FROM listed_companies
WHERE left(name_key, 1) = ANY(%(initials)s)
ORDER BY ticker
