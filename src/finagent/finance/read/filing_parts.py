"""A filing's parts as people name them: "Item 1A", "Part II, Item 1A", "Item 2.02", "the cover page".

Ingestion stores each chunk's part as a code (``item_1a``, ``part2_item_1a``, ``item_2_02``, ``cover``,
``prepared_remarks``); a reader of a Sources table or a user narrowing a search writes the part as the
form prints it. One table turns each into the other, so the CLI, the answer's sources and the MCP
tools name a part alike.
"""

from __future__ import annotations

import re

_ROMAN = {"1": "I", "2": "II", "3": "III", "4": "IV"}
_ARABIC = {roman: arabic for arabic, roman in _ROMAN.items()}
_NAMED = {
    "cover": "Cover page",
    "exhibits": "Exhibits",
    "prepared_remarks": "Prepared remarks",
    "qa": "Q&A",
    "participants": "Call participants",
    "article": "Article",
    # an earnings release's parts
    "highlights": "Highlights",
    "outlook": "Outlook and guidance",
    "segment_results": "Segment results",
    "capital_returns": "Capital returns",
    "statements": "Financial statements",
    "non_gaap": "Non-GAAP measures and reconciliations",
    "release_notes": "Forward-looking statements, the call and contacts",
}
_CODE = re.compile(r"^(?:part(?P<part>[1-4])_)?item_(?P<item>\d{1,2}[a-c]?)(?:_(?P<sub>\d{2}))?$")
_WRITTEN = re.compile(
    r"^(?:part\s*(?P<part>[1-4]|iv|iii|ii|i)\b[\s,.-]*)?(?:item\s*)?(?P<item>\d{1,2}[a-c]?)"
    r"(?:\.(?P<sub>\d{2}))?$",
    re.I,
)


def part_name(code: str | None) -> str:
    """ "part2_item_1a" -> "Part II, Item 1A"; "item_2_02" -> "Item 2.02"; "cover" -> "Cover page";
    an unknown code as it is, and none as empty."""
    if not code:
        return ""
    if code in _NAMED:
        return _NAMED[code]
    match = _CODE.match(code)
    if match is None:
        return code
    item = match["item"].upper() + (f".{match['sub']}" if match["sub"] else "")
    return f"Part {_ROMAN[match['part']]}, Item {item}" if match["part"] else f"Item {item}"


def part_codes(written: str) -> list[str]:
    """The stored codes a written part means: "1A" -> both forms' Item 1A (a 10-K's ``item_1a`` and a
    10-Q's ``part2_item_1a``); "Part II Item 1A" -> ``part2_item_1a`` only; "2.02" -> ``item_2_02``;
    "cover" or "Q&A" -> its code; a code as it is. Empty when the text names no part."""
    text = " ".join(written.strip().lower().replace("item", " item ").split())
    named = next((code for code, name in _NAMED.items() if text in (code, name.lower())), None)
    if named is not None:
        return [named]
    if _CODE.match(text.replace(" ", "")):
        return [text.replace(" ", "")]
    match = _WRITTEN.match(text)
    if match is None:
        return []
    item = match["item"].lower()
    if match["sub"]:
        return [f"item_{item}_{match['sub']}"]
    part = match["part"]
    if part:
        return [f"part{_ARABIC.get(part.upper(), part)}_item_{item}"]
    return [f"item_{item}", *(f"part{p}_item_{item}" for p in ("1", "2"))]
