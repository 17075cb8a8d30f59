"""Writing the answer: figures chosen, computed statements, the table, the draft loop, citations."""
