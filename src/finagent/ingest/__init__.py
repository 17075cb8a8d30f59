"""Ingestion: parsers turn files into ParsedDocument; the pipeline chunks, embeds and stores them."""
