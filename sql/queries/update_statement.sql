-- Store a chunk's recomputed primary-statement label.
UPDATE chunks SET statement = %(statement)s WHERE id = %(id)s;
