-- Facts of one filing without a readable chunk: what to look for in the text copy.
SELECT id, value, decimals, unit, label
FROM facts
WHERE filing_key = %(filing_key)s AND chunk_id IS NULL AND NOT superseded AND NOT derived AND NOT is_nil
