-- How many passages of current documents are stored flagged (never evidence).
SELECT count(*) FROM chunks WHERE flagged_reason IS NOT NULL AND NOT superseded
