"""The finance domain, pure: figures, periods, fiscal calendars, statements. No I/O, no database,
no graph; everything here is plain functions and records that the rest of finagent builds on."""
