SELECT count(*) FROM listed_companies
