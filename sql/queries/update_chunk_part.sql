-- A stored chunk's part, as a new reading of its document assigns it (its vector is untouched).
UPDATE chunks SET section = %(section)s, section_title = %(section_title)s WHERE id = %(id)s;
