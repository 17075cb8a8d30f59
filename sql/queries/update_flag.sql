-- Store a chunk's (re)assessed untrusted-text flag (NULL: an ordinary passage).
UPDATE chunks SET flagged_reason = %(reason)s WHERE id = %(id)s;
