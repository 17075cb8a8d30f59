-- A restored document version brings its facts back.
UPDATE facts SET superseded = false WHERE document_id = %(document_id)s AND superseded
