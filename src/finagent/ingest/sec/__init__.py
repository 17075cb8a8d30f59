"""SEC filing structure for the HTML (iXBRL) and PDF readers: submissions, cover pages, Item headings."""
