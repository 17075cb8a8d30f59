"""Which companies a question names: ``$TICKER``, bare capital tickers, company names and aliases.

Deterministic on purpose: the graph must know the companies before it asks any model, and a rule
that is wrong is easier to see and fix than a model that is sometimes wrong. Rules:

* ``$TICKER`` (any case) always counts when the ticker is known (``$nvda`` is NVDA);
* a bare ticker counts only when written in capitals and not in the small stoplist of English
  words and finance abbreviations below (``IT``, ``ON``, ``EPS``...), unless the store holds the
  company's filings and it is written possessive ("LOW's"); one-letter tickers need ``$``;
* names and aliases (the registrant's name, SEC's list title, the built-in aliases) match
  case-insensitively on word boundaries, with or without legal suffixes ("Apple Inc." or "Apple",
  "Lowe's Companies" or "Lowe's"), possessives included ("Microsoft’s"); the longest match wins,
  and nothing matches inside a word ("Metadata" is not Meta). Apostrophes are optional both ways
  ("MCDONALDS CORP" is "McDonald's", "Macy's" is "Macys") and " & " is " and " ("Johnson and
  Johnson"). A one-word name that is an everyday word ("Block", "Target"), or that only an
  all-capital title spells ("GAP INC"), needs its capital letter. Short all-capital aliases
  ("GOOG", "FB", "XYZ") follow the ticker rules;
* the first word of a stored company's name, capitalised and possessive ("Costco's" for "COSTCO
  WHOLESALE CORP"), names it when no other stored company's name starts with that word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from finagent.db.companies import StoredCompany

# Capital words that are also tickers somewhere but in a question are usually just words.
STOP_TICKERS = frozenset(
    {
        "A", "AI", "ALL", "AM", "AN", "ANY", "ARE", "AS", "AT", "BE", "BIG", "BY", "CAN", "CEO", "CFO",
        "COO", "CPI", "DO", "EBIT", "EPS", "ESG", "EU", "FAST", "FCF", "FOR", "FY", "GAAP", "GDP", "GO",
        "HAS", "HE", "I", "IPO", "IS", "IT", "KEY", "LOW", "ME", "MY", "NEW", "NO", "NOW", "OK", "ON",
        "ONE", "OR", "OUT", "PE", "PM", "Q", "QOQ", "ROE", "ROI", "SEC", "SEE", "SO", "TAM", "TO", "TTM",
        "UK", "UP", "US", "USA", "USD", "WE", "YOY",
    }
)  # fmt: skip

# Names that are everyday words: they count only with a capital first letter ("target price").
COMMON_WORD_NAMES = frozenset({"block", "square", "target", "visa"})

_LEGAL_SUFFIX = re.compile(
    r"[\s,]+(?:inc|incorporated|corp|corporation|company|companies|cos|co|plc|ltd|limited|llc|lp|l\.p|holdings|group"
    r"|n\.v|nv|s\.a|sa|ag|se)\.?$",
    re.IGNORECASE,
)
_LEADING_THE = re.compile(r"^the\s+", re.IGNORECASE)
_TICKER_LIKE = re.compile(r"[A-Z]{1,5}")
_DOLLAR = re.compile(r"(?<![\w$])\$([A-Za-z][A-Za-z0-9]{0,5}(?:[.\-][A-Za-z]{1,2})?)(?![\w])")
_CAPS = re.compile(r"(?<![\w$&])([A-Z][A-Z0-9]{0,5}(?:\.[A-Z]{1,2})?)(?![\w&]|-[A-Za-z0-9])")


@dataclass(frozen=True)
class CompanyMatch:
    """One company named in the question, with the text and offset that named it."""

    ticker: str
    text: str
    start: int
    via: str = "name"
    """How it was named: "$ticker", "ticker" (bare capitals) or "name" (name or alias)."""

    @property
    def end(self) -> int:
        return self.start + len(self.text)


@dataclass(frozen=True)
class _Matcher:
    """Compiled lookup for one company table (built once per table, see ``_matcher``)."""

    tickers: dict[str, str]  # symbol (ticker or ticker-like alias) -> ticker
    names: tuple[tuple[re.Pattern[str], str], ...]  # (pattern, ticker), longest name first
    held: frozenset[str] = frozenset()  # tickers the store holds documents of


_STATE_SUFFIX = re.compile(r"\s*/[A-Za-z]{2,4}/?$")  # SEC's "WELLS FARGO & COMPANY/MN", "…/DE/", "/NEW/"


def strip_legal_suffixes(name: str) -> str:
    """ "The Home Depot, Inc." -> "Home Depot": the form people write in questions."""
    text = _LEADING_THE.sub("", _STATE_SUFFIX.sub("", name.strip()))
    while True:
        shorter = _LEGAL_SUFFIX.sub("", text).rstrip(" ,&")
        if shorter == text or not shorter:
            return text
        text = shorter


def _forms(raw: str | None) -> set[str]:
    """A name as written and without its legal suffixes ("VISA INC." -> "VISA INC", "VISA")."""
    variants: set[str] = set()
    if not raw or not raw.strip():
        return variants
    for form in (_STATE_SUFFIX.sub("", raw.strip()).rstrip("."), strip_legal_suffixes(raw)):
        if form:
            variants.add(form)
            if form.lower().endswith(".com") and len(form) > 4:
                variants.add(form[:-4])
    return variants


_AND = "\x00"  # " & " or " and " between two words of a name: either is written
_S_ENDING = re.compile(r"(?<=[A-Za-z]{3})(?<![sS])([sS])(?![\w'’])")  # "LOWES": "Lowe's" too


def _needs_capital(form: str, raw: str) -> bool:
    """One word that is an everyday word ("Target"), or known only in capitals ("GAP INC"): a
    capital first letter tells the company from the word ("the gap between")."""
    if " " in form or not form[:1].isalpha():
        return False
    return form.lower() in COMMON_WORD_NAMES or (raw.upper() == raw and raw.lower() != raw)


def _name_body(name: str) -> list[str]:
    """Regex parts for one name: flexible spaces, hyphens, apostrophes and ampersands."""
    text = _S_ENDING.sub(r"'\1", re.sub(r"(?i)\s+(?:&|and)\s+", _AND, name))
    text = re.sub(r"['’]{2,}", "'", text)
    parts: list[str] = []
    for ch in text:
        if ch.isspace():  # a name's words may also be written joined ("ExxonMobil")
            if not parts or parts[-1] != r"\s*":
                parts.append(r"\s*")
        elif ch == "-":
            parts.append(r"[-\s]?")
        elif ch in "'’":
            parts.append("['’]?")
        elif ch == "&":
            parts.append(r"\s*&\s*")
        elif ch == _AND:
            parts.append(r"(?:\s*&\s*|\s+and\s+)")
        else:
            parts.append(re.escape(ch))
    return parts


def _name_pattern(name: str, capital: bool = False, possessive: bool = False) -> re.Pattern[str]:
    """Regex for one name, never inside a word; ``capital``: its first letter must be a capital;
    ``possessive``: it counts only followed by an apostrophe ("Costco's")."""
    parts = _name_body(name)
    after = r"(?=['’])" if possessive else r"(?![\w&])"
    if name[0].isdigit():
        # "3M": exact case, and never an amount such as "$3M" or "1.3M".
        return re.compile(rf"(?<![\w&$.,]){''.join(parts)}{after}")
    if capital or possessive:
        first, rest = re.escape(name[0].upper()), "".join(parts[1:])
        return re.compile(rf"(?<![\w&]){first}(?i:{rest}){after}")
    return re.compile(rf"(?<![\w&]){''.join(parts)}{after}", re.IGNORECASE)


_FIRST_WORD = re.compile(r"[A-Za-z][A-Za-z.\-]{3,}")


def _first_words(named: list[tuple[str, str, bool]]) -> list[tuple[str, str]]:
    """(first word, ticker) of many-word names whose first word starts no other company's name and
    is no generic word ("Costco" of "COSTCO WHOLESALE"; never "American" or "Bank")."""
    owners: dict[str, set[str]] = {}
    for form, ticker, _ in named:
        word = _LEADING_THE.sub("", form).split()[0]
        owners.setdefault(word.lower(), set()).add(ticker)
    found: dict[str, tuple[str, str]] = {}
    for form, ticker, _ in named:
        words = _LEADING_THE.sub("", form).split()
        key = words[0].lower()
        generic = key in _NOT_NAMES or key in _QUESTION_WORDS
        if len(words) > 1 and _FIRST_WORD.fullmatch(words[0]) and owners[key] == {ticker} and not generic:
            found.setdefault(key, (words[0], ticker))
    return list(found.values())


@lru_cache(maxsize=32)
def _matcher(companies: tuple[StoredCompany, ...]) -> _Matcher:
    tickers: dict[str, str] = {}
    for company in companies:
        tickers[company.ticker.upper()] = company.ticker.upper()
    named: list[tuple[str, str, bool]] = []  # (form, ticker, needs a capital)
    for company in companies:
        ticker = company.ticker.upper()
        for raw in (company.name, *company.aliases):
            for variant in _forms(raw):
                # An alias written as a ticker ("GOOG", "FB") follows the ticker rules; a legal name in
                # capitals ("VISA INC.") is still a name: "Visa" names it.
                if _TICKER_LIKE.fullmatch(variant) and variant == (raw or "").strip():
                    tickers.setdefault(variant, ticker)  # a real ticker always wins over an alias
                else:
                    named.append((variant, ticker, _needs_capital(variant, raw or "")))
    # Case-insensitive when any source allows it ("Target" the alias, "TARGET" the title: capital).
    capital = {(f.lower(), t): c for f, t, c in sorted(named, key=lambda n: n[2], reverse=True)}
    forms = sorted({(f.lower(), t): f for f, t, _ in named}.items(), key=lambda i: (-len(i[1]), i[1]))
    patterns = [(_name_pattern(f, capital[key]), key[1]) for key, f in forms]
    patterns += [(_name_pattern(w, possessive=True), t) for w, t in _first_words(named)]
    held = frozenset(c.ticker.upper() for c in companies if c.documents)
    return _Matcher(tickers=tickers, names=tuple(patterns), held=held)


def _held_possessive(m: re.Match[str], matcher: _Matcher) -> bool:
    """ "LOW's revenue": a ticker that is also a word names the company in the possessive, when the
    store holds its filings."""
    return m.group(1) in matcher.held and bool(re.match(r"['’]s\b", m.string[m.end() :]))


def find_companies(question: str, companies: Sequence[StoredCompany]) -> list[CompanyMatch]:
    """Every known company the question names, in order of first appearance, one entry per ticker."""
    matcher = _matcher(tuple(companies))
    candidates: list[CompanyMatch] = []
    for m in _DOLLAR.finditer(question):
        ticker = matcher.tickers.get(m.group(1).upper())
        if ticker:
            candidates.append(CompanyMatch(ticker, m.group(0), m.start(), "$ticker"))
    for m in _CAPS.finditer(question):
        symbol = m.group(1)
        ticker = matcher.tickers.get(symbol)
        if ticker and len(symbol) > 1 and (symbol not in STOP_TICKERS or _held_possessive(m, matcher)):
            candidates.append(CompanyMatch(ticker, symbol, m.start(), "ticker"))
    for pattern, ticker in matcher.names:
        for m in pattern.finditer(question):
            candidates.append(CompanyMatch(ticker, m.group(0), m.start(), "name"))
    # Longest match first at each position, then no overlaps ("Meta Platforms" over "Meta").
    candidates.sort(key=lambda c: (c.start, -len(c.text)))
    chosen: list[CompanyMatch] = []
    taken_until = -1
    for candidate in candidates:
        if candidate.start >= taken_until:
            chosen.append(candidate)
            taken_until = candidate.end
    seen: set[str] = set()
    result: list[CompanyMatch] = []
    for match in chosen:
        if match.ticker not in seen:
            seen.add(match.ticker)
            result.append(match)
    return result


def unknown_ticker_mentions(question: str, companies: Sequence[StoredCompany]) -> list[str]:
    """``$XYZ`` tokens that name no company in the table, upper-cased, so the caller can warn."""
    matcher = _matcher(tuple(companies))
    unknown: list[str] = []
    for m in _DOLLAR.finditer(question):
        symbol = m.group(1).upper()
        if symbol not in matcher.tickers and symbol not in unknown:
            unknown.append(symbol)
    return unknown


# Capitalised words that open or fill questions, never company names on their own.
_QUESTION_WORDS = frozenset(
    """
    what which who whose how why when where was were is are did does do compare comparing show tell
    give list rank find explain the a an in of for and or vs versus between during over from to its their
    q1 q2 q3 q4 fy fiscal quarter quarters year years revenue revenues sales income net total
    """.split()
)
_NAME_RUN = re.compile(r"(?:(?<![\w&$])[A-Z][\w&.\-]*(?:['’]s)?[?!,;:)]*(?:\s+|$))+")


def listed_name_candidates(question: str) -> tuple[list[str], list[str]]:
    """Symbols and normalised name fragments that might name a listed company the store lacks.

    Symbols: ``$TICKER`` tokens and bare capitals (not stop words). Names: every run of up to four
    capitalised words, possessives stripped ("Tesla's" -> "tesla", "Berkshire Hathaway"), in the form
    ``company_registry.normalize_name`` gives SEC's titles ("Tesla, Inc." -> "tesla").
    """
    from finagent.finance.company_registry import normalize_name

    symbols = [m.group(1).upper() for m in _DOLLAR.finditer(question)]
    symbols += [
        m.group(1)
        for m in _CAPS.finditer(question)
        if len(m.group(1)) > 1 and m.group(1) not in STOP_TICKERS and m.group(1).replace(".", "").isalpha()
    ]
    names: list[str] = []
    runs = [run.group(0) for run in _NAME_RUN.finditer(question + " ")]
    # Possessive dropped ("Tesla's" -> "tesla") and kept as a name's own s ("Lowe's" -> "lowes").
    for words in [
        [re.sub(r"['’]s$", joined, w.rstrip("?!,;:)")).strip(".,") for w in run.split()]
        for run in runs
        for joined in ("", "s")
    ]:
        for size in range(min(4, len(words)), 0, -1):
            for start in range(len(words) - size + 1):
                part = words[start : start + size]
                if size == 1 and part[0].lower() in _QUESTION_WORDS:
                    continue
                key = normalize_name(" ".join(part))
                if key and key not in _QUESTION_WORDS:
                    names.append(key)
    return list(dict.fromkeys(symbols)), list(dict.fromkeys(names))


# Capitalised words that take a possessive or a legal suffix without being a company's name.
_NOT_NAMES = frozenset(
    """
    company company's firm group management board segment segments business bank fund government
    fed federal america american nation country world industry market sector street wall it that
    there here let he she what who where how when why ceo cfo coo chairman investor investors
    january february march april may june july august september october november december
    """.split()
)
_WORD = r"[A-Z][\w&\-]*"
_POSSESSIVE = re.compile(rf"(?<![\w&$])({_WORD}(?:\s+{_WORD}){{0,3}})['’]s?(?!\w)")
_WITH_SUFFIX = re.compile(
    rf"(?<![\w&$])({_WORD}(?:\s+{_WORD}){{0,3}}),?\s+(?:Inc|Corp|Corporation|Co|Ltd|plc|PLC|LLC|Holdings)\b\.?"
)


def company_like_mentions(question: str) -> list[str]:
    """Names the question treats as a company ("Teslaa's revenue", "Foobar Corp"): possessives and
    capitalised words with a legal suffix, minus question words, months and generic nouns.

    Used only when no stored or listed company matched: such a question is about a company the store
    cannot answer for, and searching every company's filings would answer about someone else.
    """
    mentions: list[str] = []
    for pattern in (_POSSESSIVE, _WITH_SUFFIX):
        for m in pattern.finditer(question):
            words = m.group(1).split()
            while words and (words[0].lower() in _QUESTION_WORDS or words[0].lower() in _NOT_NAMES):
                words = words[1:]  # "What Foobar's" -> "Foobar"; "The Company's" -> nothing
            if not words or all(w.lower() in _NOT_NAMES or w.lower() in _QUESTION_WORDS for w in words):
                continue
            if re.fullmatch(r"(?i)(?:q[1-4]|fy\d*|h[12]|\d+)", words[0]):
                continue
            mentions.append(" ".join(words))
    return list(dict.fromkeys(mentions))
