"""How a reported figure is printed, and where: the text forms of an exact value at its precision.

XBRL instance documents carry values without text; to cite a fact to readable text we look for the
number as a statement prints it ("383,285" for 383,285,000,000 reported in millions).
"""

from __future__ import annotations

import re
from decimal import Decimal


def printed_forms(value: Decimal, decimals: int | None) -> list[str]:
    """The value as statements print it at its reported precision, most likely form first.

    ``decimals=-6`` (millions) gives "383,285"; ``-8`` ("$94.9 billion") gives "94.9"; per-share
    values keep their cents ("6.13"); an exact value is also tried in full.
    """
    magnitude = abs(value)
    forms: list[str] = []
    if decimals is not None and decimals < 0:
        scale = -(decimals // 3) * 3  # the multiple of 3 at or above -decimals (millions for -6, -5)
        places = scale + decimals
        forms.append(f"{magnitude.scaleb(-scale):,.{places}f}")
        millions = magnitude.scaleb(-6)
        if scale != 6 and -decimals >= 6 and millions == millions.to_integral_value():
            forms.append(f"{int(millions):,}")
    elif decimals is not None:
        forms.append(f"{magnitude:,.{decimals}f}")
    if magnitude == magnitude.to_integral_value():
        forms.append(f"{int(magnitude):,}")
    return list(dict.fromkeys(f for f in forms if f.strip("0.,")))


def contains_number(text: str, printed: str) -> bool:
    """``printed`` occurs in ``text`` as a whole number ("1,797" is not in "81,797")."""
    return re.search(rf"(?<![\d,.]){re.escape(printed)}(?![\d]|,\d|\.\d)", text) is not None
