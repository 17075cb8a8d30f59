UPDATE facts SET chunk_id = %(chunk_id)s, page = %(page)s, statement = %(statement)s WHERE id = %(id)s
