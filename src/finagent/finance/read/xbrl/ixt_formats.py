"""TODO docstring."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation, localcontext
from typing import Any

from lxml import etree

from finagent.finance.read.xbrl.xml import MAX_NUMBER_TEXT, TRANSFORM_NS
from finagent.finance.words import SCALE_NAMES

_WORDS_SMALL = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen".split()
    )
}


_WORDS_TENS = {
    w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())
}


_WORDS_SCALE = {name: 10**exponent for exponent, name in SCALE_NAMES.items()}


_WORDS_ZERO = frozenset(("no", "none", "nil", "zero"))


def _words_en(text: str) -> Decimal | None:
    """English number words: 'no' / 'none' -> 0, 'twenty-one', 'one hundred and five thousand'."""
    words = [w for w in re.split(r"[\s,\-]+", text.lower()) if w and w != "and"]
    if not words:
        return None
    if len(words) == 1 and words[0] in _WORDS_ZERO:
        return Decimal(0)
    total = current = 0
    for w in words:
        if w in _WORDS_SMALL:
            current += _WORDS_SMALL[w]
        elif w in _WORDS_TENS:
            current += _WORDS_TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w in _WORDS_SCALE:
            total += max(current, 1) * _WORDS_SCALE[w]
            current = 0
        else:
            return None
    return Decimal(total + current)


_DOT_DECIMAL = re.compile(r"^(?:\d{1,3}(?:[,' ]\d{3})+|\d+)?(?:\.\d*)?$")


_COMMA_DECIMAL = re.compile(r"^(?:\d{1,3}(?:[.' ]\d{3})+|\d+)?(?:,\d*)?$")


_UNIT_DECIMAL = re.compile(r"^(\d[\d,.' ]*?)\s*[^\d\s]+[^\d]*?(\d{1,2})?\s*[^\d]*$")


def _grouped(text: str, pattern: re.Pattern[str], decimal_mark: str) -> Decimal | None:
    s = text.replace("\u00a0", " ").replace("\u202f", " ").strip()
    if not s or not any(c.isdigit() for c in s) or not pattern.match(s):
        return None
    digits = s.replace(" ", "").replace("'", "").replace("," if decimal_mark == "." else ".", "")
    if decimal_mark == ",":
        digits = digits.replace(",", ".")
    try:
        return Decimal(digits)
    except InvalidOperation:
        return None


def _unit_decimal(text: str) -> Decimal | None:
    """'5 dollars 50 cents' -> 5.50 (integer part, unit words, optional 1-2 digit fraction)."""
    m = _UNIT_DECIMAL.match(text.replace("\u00a0", " ").strip())
    if not m:
        return None
    whole = _grouped(m.group(1), _DOT_DECIMAL, ".") or _grouped(m.group(1), _COMMA_DECIMAL, ",")
    if whole is None:
        return None
    return whole + (Decimal(m.group(2)) / 100 if m.group(2) else 0)


def plain_number(text: str) -> Decimal | None:
    """No format attribute: the content is an xs:decimal (or an xs:double's exponent form)."""
    s = text.strip()
    if len(s) > MAX_NUMBER_TEXT or not re.fullmatch(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,2})?", s):
        return None
    return Decimal(s)


# Local names of the numeric transforms, old (ixt 1-3) and new (ixt 4-5) spellings.
_TRANSFORMS: dict[str, Any] = {
    **dict.fromkeys(
        ("num-dot-decimal", "numdotdecimal", "numcommadot", "numspacedot"),
        lambda t: _grouped(t, _DOT_DECIMAL, "."),
    ),
    **dict.fromkeys(
        ("num-comma-decimal", "numcommadecimal", "numdotcomma", "numspacecomma"),
        lambda t: _grouped(t, _COMMA_DECIMAL, ","),
    ),
    **dict.fromkeys(("fixed-zero", "zerodash", "zero-dash", "numdash", "nocontent"), lambda t: Decimal(0)),
    **dict.fromkeys(("numwordsen", "num-word-en"), _words_en),
    **dict.fromkeys(("num-unit-decimal", "numunitdecimal"), _unit_decimal),
}


class Formats:
    """Resolves ``format`` QNames once per distinct value (prefix -> transformation namespace)."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[Any, str | None]] = {}

    def transform(self, el: etree._Element, fmt: str) -> tuple[Any, str | None]:
        """(function, None) or (None, reason)."""
        hit = self._cache.get(fmt)
        if hit is not None:
            return hit
        prefix, _, local = fmt.strip().rpartition(":")
        namespace = el.nsmap.get(prefix) if prefix and isinstance(el.tag, str) and el.tag[0] == "{" else None
        func = _TRANSFORMS.get(local.lower())
        if namespace is not None and not namespace.startswith(TRANSFORM_NS):
            result: tuple[Any, str | None] = (
                None,
                f"format {fmt!r} is not in a known transformation registry",
            )
        elif func is None:
            result = (None, f"unsupported format {fmt!r}")
        else:
            result = (func, None)
        self._cache[fmt] = result
        return result


def exact_value(value: Decimal, scale: int, negative: bool) -> Decimal:
    """value x 10**scale, negated, exactly (integral results without an exponent)."""
    with localcontext() as ctx:
        ctx.prec = 200
        out = value.scaleb(scale)
        if out.as_tuple().exponent > 0:  # type: ignore[operator]
            out = out.quantize(Decimal(1))
        if negative and out:
            out = -out
        return out if out else abs(out)
