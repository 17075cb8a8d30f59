"""The questions a compound question asks one after the other ("What does Meta do, and where does
nearly all of its revenue come from?"): each is searched and answered by quotes of its own, since
the passages that answer the first seldom answer the second, and a question's words read as one
find neither well.
"""

from __future__ import annotations

import re

_ASKING = r"(?:what|where|which|who|whom|whose|how|when|why|whether|does|did|do|is|are|was|were|has|have)\b"
_JOINS = re.compile(
    rf"(?:,\s*|\s+)(?:and|but|as\s+well\s+as|plus)\s+(?={_ASKING})"  # "…, and where does …"
    rf"|\?\s+(?=\S)"  # "… do? Where does …"
    r"|;\s+",
    re.IGNORECASE,
)
MIN_WORDS = 3
"""Words of three letters or more a part must have to ask something itself ("and why?" does not)."""


_ASKS = re.compile(rf"^{_ASKING}", re.IGNORECASE)


def sub_asks(question: str) -> tuple[str, ...]:
    """The parts of a compound question, in order; empty when it asks one thing. A part after the
    first that does not ask (an instruction: "Answer in USD millions.", "If the ratio is not
    relevant, state that") belongs to the question before it."""
    parts: list[str] = []
    for piece in (p.strip(" ,;?.") for p in _JOINS.split(question)):
        if parts and not _ASKS.match(piece):
            parts[-1] = f"{parts[-1]}. {piece}"
        elif piece:
            parts.append(piece)
    asked = [p for p in parts if len(re.findall(r"[A-Za-z]{3,}", p)) >= MIN_WORDS]
    return tuple(asked) if len(asked) > 1 and len(asked) == len(parts) else ()
