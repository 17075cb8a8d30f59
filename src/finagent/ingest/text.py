"""Plain-text normalisation shared by the readers (odd characters, spaces) and long written dates."""

from __future__ import annotations

import re
from datetime import date

from finagent.finance.dates import parse_month_day_year

# Ligatures and odd spaces that pymupdf may emit; expanding them keeps words searchable.
_CHAR_MAP = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
    "\xa0": " ",
    "\u2002": " ",
    "\u2003": " ",
    "\u2009": " ",
    "\u200a": " ",
    "\u202f": " ",
    "\u200b": "",
    "\u2011": "-",
    "\ufeff": "",
}


_ODD_CHARS = re.compile("[" + "".join(_CHAR_MAP) + "]")


# Only runs of spaces or non-space blanks: rewriting every single space would be slow.
_SPACES = re.compile(r"[ \t\f\v]{2,}|[\t\f\v]")


def normalize_text(text: str) -> str:
    """Expand ligatures and odd spaces, collapse runs of spaces (newlines are kept)."""
    if not text.isascii():  # every odd character is non-ASCII; the check is a fast C loop
        text = _ODD_CHARS.sub(lambda m: _CHAR_MAP[m.group()], text)
    if "  " in text or "\t" in text or "\f" in text or "\v" in text:
        text = _SPACES.sub(" ", text)
    return text


DATE = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?\s+\d{1,2}\s*,?\s*\d{4}"
)


def parse_long_date(text: str) -> date | None:
    """Parse "June 25, 2022" / "Sept. 30 2022"; None when it is not a real date."""
    return parse_month_day_year(text)
