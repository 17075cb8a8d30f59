"""A safe calculator, so that every derived figure (growth, margin, CAGR ...) is computed, not guessed.

``calculate("growth(80,000, 94,836)")`` -> 18.545 (percent). Accepted: numbers (thousands separators
"94,836", decimals, percentages "12%" = 0.12), ``+ - * / ** ^``, parentheses and the helpers
``growth(old, new)`` and ``margin(part, whole)`` (percent), ``cagr(start, end, years)`` (percent),
``ratio(a, b)``, ``diff(a, b)`` (a - b), ``avg(x, y, ...)``, ``abs(x)``, ``round(x, digits)``.
Separate arguments with ", " (comma and space): "1,000" is one thousand, not two arguments.

Safety: sympy's ``parse_expr`` evaluates Python code, so the input is first tokenised against a
whitelist (ASCII digits, operators, parentheses, commas, dots, %, whitespace, helper names only; at
most 500 characters) and rebuilt from those tokens. ``parse_expr`` then runs with a global namespace
holding no builtins and only inert node constructors, so parsing builds a tree and computes nothing;
the tree is evaluated here with exact sympy rationals and bounded exponents (``9**9**9`` is refused).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

from pydantic import BaseModel, Field
from sympy import Float as SympyFloat
from sympy import Integer as SympyInteger
from sympy import Rational
from sympy.parsing.sympy_parser import auto_number, parse_expr

MAX_LENGTH = 500
MAX_EXPONENT = 10_000  # |integer exponent|
MAX_DIGITS = 4_000  # estimated decimal digits of an exact power's numerator/denominator
MAX_MAGNITUDE = 1e300

HELPERS = ("growth", "cagr", "ratio", "margin", "diff", "avg", "abs", "round")
_ARITY: dict[str, tuple[int, int]] = {
    "growth": (2, 2),
    "cagr": (3, 3),
    "ratio": (2, 2),
    "margin": (2, 2),
    "diff": (2, 2),
    "avg": (2, 1000),
    "abs": (1, 1),
    "round": (1, 2),
}
_USAGE = {
    "growth": "growth(old, new)",
    "cagr": "cagr(start, end, years)",
    "ratio": "ratio(a, b)",
    "margin": "margin(part, whole)",
    "diff": "diff(a, b)",
    "avg": "avg(x, y, ...)",
    "abs": "abs(x)",
    "round": "round(x, digits)",
}
# Characters some models emit for the same operators; mapped before validation, nothing else is.
_FRIENDLY = str.maketrans({"\u2212": "-", "\u00d7": "*", "\u00f7": "/", "\u2013": "-"})
_TOKEN = re.compile(
    r"(?P<ws>[ \t\r\n]+)"
    r"|(?P<num>[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
    r"|(?P<name>[A-Za-z]+)"
    r"|(?P<op>\*\*|[-+*/^%(),])"
)


class CalculationError(ValueError):
    """The expression is refused or cannot be evaluated; the message says why."""


class CalcResult(BaseModel):
    """A computed figure together with the expression that produced it."""

    expression: str = Field(description="The expression as given.")
    result: float | None = Field(default=None, description="The value (None when ok is False).")
    result_text: str | None = Field(default=None, description="The value rounded for quoting.")
    ok: bool
    error: str | None = None

    def summary(self) -> str:
        """'growth(80000, 94836) = 18.545' or the reason it was refused."""
        if self.ok:
            return f"{self.expression} = {self.result_text}"
        return f"{self.expression!r} not computed: {self.error}"


# --------------------------------------------------------------------------- validation


def _tokens(expression: str) -> list[tuple[str, str]]:
    """Whitelist tokenisation: anything outside the grammar's alphabet is refused with its position."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(expression):
        m = _TOKEN.match(expression, pos)
        if m is None:
            char = expression[pos]
            raise CalculationError(
                f"character {char!r} at position {pos} is not allowed "
                "(only digits, + - * / ** ^ ( ) , . %, spaces and the helper functions)"
            )
        kind = m.lastgroup or ""
        if kind != "ws":
            tokens.append((kind, m.group()))
        pos = m.end()
    return tokens


_COUNT_ARGUMENTS = {"cagr": 2, "round": 1}
"""Helper arguments (by position) that count rather than state a figure: a CAGR's years, the digits a
result is rounded to."""


def count_arguments(expression: str) -> list[float]:
    """The numbers an expression passes as counts (the 2 of "cagr(65398, 65984, 2)", of "round(x, 2)"),
    which no passage prints; empty for an expression the calculator refuses."""
    try:
        tokens = _tokens(expression)
    except CalculationError:
        return []
    found: list[float] = []
    calls: list[list[Any]] = []  # open parentheses: [helper name or None, argument index]
    name = None
    for kind, text in tokens:
        if kind == "name":
            name = text.lower()
            continue
        if text == "(":
            calls.append([name, 0])
        elif text == ")" and calls:
            calls.pop()
        elif text == "," and calls:
            calls[-1][1] += 1
        elif kind == "num" and calls and _COUNT_ARGUMENTS.get(calls[-1][0]) == calls[-1][1]:
            found.append(float(text.replace(",", "")))
        name = None
    return found


def _normalise(tokens: list[tuple[str, str]]) -> str:
    """Rebuild the expression from validated tokens (the only text parse_expr ever sees)."""
    out: list[str] = []
    opens: list[int] = []  # indices in ``out`` of the open parentheses (and their function names)
    for index, (kind, text) in enumerate(tokens):
        if kind == "num":
            out.append(text.replace(",", ""))
        elif kind == "name":
            name = text.lower()
            if name not in HELPERS:
                raise CalculationError(f"unknown name '{text}'; allowed functions: {', '.join(HELPERS)}")
            following = tokens[index + 1] if index + 1 < len(tokens) else ("", "")
            if following != ("op", "("):
                raise CalculationError(f"'{text}' must be called with parentheses, e.g. {_USAGE[name]}")
            out.append(name)
        elif text == "(":
            called = bool(out) and out[-1] in HELPERS
            opens.append(len(out) - 1 if called else len(out))
            out.append("(")
        elif text == ")":
            if not opens:
                raise CalculationError("unbalanced parentheses: ')' without '('")
            out.append(")")
            start = opens.pop()
            if index + 1 < len(tokens) and tokens[index + 1] == ("op", "%"):
                out.insert(start, "(")
                out.append("/100)")
        elif text == "%":
            previous = tokens[index - 1] if index else ("", "")
            if previous[0] == "num":
                out[-1] = f"({out[-1]}/100)"
            elif previous != ("op", ")"):
                raise CalculationError("'%' must follow a number, as in 12% (there is no modulo operator)")
            # after ')' the group was already divided by 100
        elif text == "^":
            out.append("**")
        else:
            out.append(text)
    if opens:
        raise CalculationError("unbalanced parentheses: '(' without ')'")
    return " ".join(out)


# ------------------------------------------------------------------------- inert parse tree


class _Node:
    """Parse-tree node: built by parse_expr's generated code, evaluated only by ``_eval``."""

    __slots__ = ("args", "op")

    def __init__(self, op: str, *args: Any) -> None:
        self.op = op
        self.args = args

    def __neg__(self) -> _Node:
        return _Node("neg", self)

    def __pos__(self) -> _Node:
        return self


def _number(value: Any = 0, *_: Any, **__: Any) -> _Node:
    """Integer('12') / Float('1.5') of parse_expr's auto_number -> an exact rational leaf."""
    return _Node("num", Rational(str(value)))


def _operator(op: str) -> Callable[..., _Node]:
    def build(*args: Any, evaluate: bool = False) -> _Node:
        return _Node(op, *args)

    return build


def _helper(name: str) -> Callable[..., _Node]:
    def build(*args: Any, **_: Any) -> _Node:
        return _Node("call", name, *args)

    return build


def _namespaces() -> tuple[dict[str, Any], dict[str, Any]]:
    """Fresh namespaces per call: no builtins, only inert constructors (parse_expr may mutate them)."""
    global_dict: dict[str, Any] = {
        "__builtins__": {},
        "Integer": _number,
        "Float": _number,
        "Rational": _number,
        "Add": _operator("add"),
        "Mul": _operator("mul"),
        "Pow": _operator("pow"),
    }
    local_dict: dict[str, Any] = {name: _helper(name) for name in HELPERS}
    return global_dict, local_dict


# ------------------------------------------------------------------------------ evaluation

Number = Any  # a sympy Rational (exact) or Float (after a fractional power)


def _check(value: Number) -> Number:
    if not value.is_real:
        raise CalculationError("the result is not a real number")
    if value.is_Float and not math.isfinite(float(value)):
        raise CalculationError("the result is too large")
    if abs(value) > MAX_MAGNITUDE:
        raise CalculationError("the result is too large")
    return value


def _digits(value: Number) -> float:
    """Decimal digits of the larger of numerator/denominator (exponent-size guard)."""
    if value.is_Rational:
        return math.log10(max(abs(int(value.p)), abs(int(value.q)), 1))
    return math.log10(abs(float(value)) + 1)


def _power(base: Number, exponent: Number) -> Number:
    if base == 0 and exponent < 0:
        raise CalculationError("division by zero")
    if exponent.is_Integer:
        if abs(int(exponent)) > MAX_EXPONENT or _digits(base) * abs(int(exponent)) > MAX_DIGITS:
            raise CalculationError("exponent too large")
        return base ** int(exponent)
    if base < 0:
        raise CalculationError("a negative number to a fractional power is not a real number")
    if base == 0:
        return Rational(0)
    magnitude = abs(float(exponent)) * abs(math.log10(float(base)))
    if magnitude > 300:
        raise CalculationError("exponent too large")
    return SympyFloat(float(base) ** float(exponent), 15)


def _round(value: Number, digits: Number | None) -> Number:
    places = Rational(0) if digits is None else digits
    if not places.is_Integer or not 0 <= int(places) <= 12:
        raise CalculationError("round(x, digits) needs a whole number of digits from 0 to 12")
    with localcontext() as ctx:
        ctx.prec = 400  # enough for any value below MAX_MAGNITUDE with 12 decimals
        exact = (
            Decimal(int(value.p)) / Decimal(int(value.q))
            if value.is_Rational
            else Decimal(repr(float(value)))
        )
        rounded = exact.quantize(Decimal(1).scaleb(-int(places)), rounding=ROUND_HALF_UP)
    return Rational(str(rounded))


def _call(name: str, args: list[Number]) -> Number:
    low, high = _ARITY[name]
    if not low <= len(args) <= high:
        raise CalculationError(
            f"{name} takes {_USAGE[name]} but got {len(args)} argument(s) "
            "(note: '1,000' is one number; separate arguments with ', ')"
        )
    if name == "growth":
        old, new = args
        if old == 0:
            raise CalculationError("growth from zero is undefined (division by zero)")
        return (new - old) / abs(old) * 100
    if name == "cagr":
        start, end, years = args
        if start <= 0 or end < 0 or years <= 0:
            raise CalculationError("cagr(start, end, years) needs start > 0, end >= 0 and years > 0")
        return (_power(end / start, 1 / years) - 1) * 100
    if name in ("ratio", "margin"):
        a, b = args
        if b == 0:
            raise CalculationError(f"division by zero in {name}")
        return a / b * (100 if name == "margin" else 1)
    if name == "diff":
        return args[0] - args[1]
    if name == "avg":
        return sum(args, Rational(0)) / len(args)
    if name == "abs":
        return abs(args[0])
    return _round(args[0], args[1] if len(args) > 1 else None)


def _eval(node: Any, depth: int = 0) -> Number:
    if depth > 200:
        raise CalculationError("expression is nested too deeply")
    if isinstance(node, int) and not isinstance(node, bool):  # parse_expr's literal -1 in a - b
        return SympyInteger(node)
    if not isinstance(node, _Node):
        raise CalculationError("the expression must be a single number, not a list")
    if node.op == "num":
        return node.args[0]
    if node.op == "neg":
        return -_eval(node.args[0], depth + 1)
    if node.op == "call":
        name, *rest = node.args
        return _check(_call(name, [_eval(a, depth + 1) for a in rest]))
    values = [_eval(a, depth + 1) for a in node.args]
    if node.op == "add":
        return _check(sum(values, Rational(0)))
    if node.op == "mul":
        result: Number = Rational(1)
        for value in values:
            result = _check(result * value)
        return result
    if node.op == "pow" and len(values) == 2:
        return _check(_power(values[0], values[1]))
    raise CalculationError(f"unsupported operation '{node.op}'")


# ---------------------------------------------------------------------------------- public


def format_number(value: float) -> str:
    """Rounded for quoting: integers exact, else 4 decimals (4 significant digits below 1)."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    magnitude = abs(value)
    if magnitude >= 1e15:
        return f"{value:.6g}"
    if magnitude >= 1:
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return f"{value:.4g}"


def calculate(expression: str) -> CalcResult:
    """Evaluate arithmetic safely; never raises — a refused or failed expression gives ok=False."""
    if not isinstance(expression, str):
        return CalcResult(expression=repr(expression), ok=False, error="the expression must be text")
    shown = expression if len(expression) <= MAX_LENGTH else expression[:MAX_LENGTH] + "…"
    try:
        if len(expression) > MAX_LENGTH:
            raise CalculationError(f"expression longer than {MAX_LENGTH} characters")
        text = expression.translate(_FRIENDLY).strip()
        text = re.sub(r"\$(?=[0-9.])", "", text)  # "$1,200" -> "1,200"
        if not text:
            raise CalculationError("empty expression")
        if not text.isascii():
            raise CalculationError("only ASCII digits, operators and helper names are allowed")
        code = _normalise(_tokens(text))
        global_dict, local_dict = _namespaces()
        try:
            tree = parse_expr(
                code,
                local_dict=local_dict,
                global_dict=global_dict,
                transformations=(auto_number,),
                evaluate=False,
            )
        except Exception as exc:  # SyntaxError, TokenError, TypeError ...: not arithmetic
            raise CalculationError(f"malformed expression ({type(exc).__name__})") from exc
        value = _check(_eval(tree))
        number = float(value)
        if not math.isfinite(number):
            raise CalculationError("the result is too large")
    except CalculationError as exc:
        return CalcResult(expression=shown, ok=False, error=str(exc))
    except ZeroDivisionError:
        return CalcResult(expression=shown, ok=False, error="division by zero")
    except (OverflowError, MemoryError, RecursionError):
        return CalcResult(expression=shown, ok=False, error="the computation is too large")
    except Exception as exc:  # anything else is a malformed input, never a crash of the agent
        return CalcResult(expression=shown, ok=False, error=f"cannot evaluate ({type(exc).__name__})")
    return CalcResult(expression=expression, result=number, result_text=format_number(number), ok=True)


def _num(value: float | int | Decimal) -> str:
    """A number as calculator input (no thousands separators, no exponent notation); exact for
    ``Decimal`` figures read from filings."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise CalculationError(f"{value!r} is not a finite number")
        text = format(value.normalize(), "f")
        return f"({text})" if value < 0 else text
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CalculationError(f"{value!r} is not a finite number")
    if isinstance(value, int):
        return str(value) if value >= 0 else f"({value})"
    text = format(Decimal(repr(value)), "f")
    return f"({text})" if value < 0 else text


Number_ = float | int | Decimal


def _build(name: str, *values: Number_) -> CalcResult:
    try:
        expression = f"{name}({', '.join(_num(v) for v in values)})"
    except CalculationError as exc:
        return CalcResult(expression=f"{name}{values!r}", ok=False, error=str(exc))
    return calculate(expression)


def growth_pct(old: Number_, new: Number_) -> CalcResult:
    """Percent change from ``old`` to ``new``, e.g. revenue growth year over year."""
    return _build("growth", old, new)


def cagr_pct(start: Number_, end: Number_, years: Number_) -> CalcResult:
    """Compound annual growth rate in percent over ``years``."""
    return _build("cagr", start, end, years)


def ratio(a: Number_, b: Number_) -> CalcResult:
    """a / b (e.g. a current ratio or a multiple)."""
    return _build("ratio", a, b)


def margin_pct(part: Number_, whole: Number_) -> CalcResult:
    """part / whole in percent (e.g. gross margin)."""
    return _build("margin", part, whole)


def difference(a: Number_, b: Number_) -> CalcResult:
    """a - b (e.g. how much more one company earned than another)."""
    return _build("diff", a, b)
