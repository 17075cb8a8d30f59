-- Store a chunk's later-window vectors (an empty array: it fits in one window).
UPDATE chunks SET windows = %(windows)s WHERE id = %(id)s;
