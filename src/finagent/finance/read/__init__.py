"""Reading figures by their period: statement tables, XBRL facts, SEC company facts, the stored facts'
lookup and derivations, statement titles, filing sections and figures written in prose. Builds on the
shared vocabulary of ``finance`` only."""
