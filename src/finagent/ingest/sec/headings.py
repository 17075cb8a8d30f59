"""How Item and Part headings of 10-K and 10-Q filings are worded (shared by the HTML readers)."""

from __future__ import annotations

import re

ITEM_RE = re.compile(
    r"^(?:part\s+(?P<part>iv|i{1,3})\b[\s.,:;\-–—]*)?"
    r"item\s*(?P<num>\d{1,2})(?:\.(?P<sub>\d{2}))?(?P<letter>[a-c])?(?![\w])"
    r"\s*[.:\-–—]?\s*(?P<title>.*)$",
    re.I | re.S,
)


PART_RE = re.compile(r"^part\s+(?P<part>iv|i{1,3})\b\s*[.:\-–—]?\s*(?P<rest>.*)$", re.I | re.S)
