r"""The phrase rules: the table of patterns that turn a question's words into ``Atom``\ s (a date or
period) or ``TimeSpec``\ s (a count, a span, a report). Tokens are in ``tokens``, what each rule
makes of its match in ``handlers``."""

from __future__ import annotations

import re

from finagent.finance.periods.handlers import (
    calendar_year,
    first_quarters,
    half,
    lone_atom,
    month_atom,
    month_pair_atom,
    months_of,
    n_months,
    n_quarters,
    n_reports,
    n_years,
    quarter_atom,
    quarter_span,
    reported,
    spec_rule,
    to_date,
    year_atom,
    years_to,
)
from finagent.finance.periods.spec import TimeSpec
from finagent.finance.periods.tokens import (
    FISCAL_WORD,
    IGNORE_CASE,
    LATEST_WORD,
    MON,
    MON2,
    NORMALISE,
    NOT_NAMED,
    NUM,
    NUM2,
    ORD,
    RECENT,
    Y4,
    YEAR_END,
    YEXPR,
    Atom,
    Handler,
)

__all__ = ["FISCAL_WORD", "NORMALISE", "RULES", "Atom"]

_SIX_NINE = r"(?P<m>six|6|nine|9)[- ]months?"
_QUARTER_NAMED = (
    r"(?:Q(?P<q>[1-4])|(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)[-\s]+(?:fiscal\s+)?quarter)"
)
_TO_DATE = r"(?:year[- ]to[- ]date|YTD)"

RULES: tuple[tuple[re.Pattern[str], Handler], ...] = (
    # Year-to-date spans a 10-Q reports: "the first nine months of fiscal 2024", "the six months ended
    # June 30, 2024", "year to date through Q3 2025".
    (
        re.compile(
            rf"\b(?:the\s+|its\s+|their\s+)?first\s+{_SIX_NINE}\s+(?:of|in)\s+(?:the\s+)?{YEXPR}",
            IGNORE_CASE,
        ),
        spec_rule(months_of),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?{_SIX_NINE}\s+(?:period\s+)?(?:that\s+)?(?:ended|ending|through|thru|to)\s+"
            rf"(?:on\s+|in\s+)?{MON}\s+(?:(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+)?(?P<y4>{Y4}){YEAR_END}",
            IGNORE_CASE,
        ),
        spec_rule(months_of),
    ),
    (
        re.compile(
            rf"\b{_TO_DATE}\s+(?:(?:through|thru|to|as\s+of|at|in|for|ended|ending)\s+)?(?:the\s+end\s+of\s+)?"
            rf"(?:the\s+|its\s+|their\s+)?(?:fiscal\s+)?{_QUARTER_NAMED}"
            rf"(?:\s*,?\s*(?:of\s+|in\s+)?(?:the\s+)?{YEXPR})?",
            IGNORE_CASE,
        ),
        spec_rule(to_date),
    ),
    (
        re.compile(
            rf"(?<![\w$])(?:fiscal\s+)?Q(?P<q>[1-4])\s*(?:(?:of\s+)?(?:FY\s*'?)?(?P<y4>{Y4}){YEAR_END}\s*)?"
            rf"\s+{_TO_DATE}\b",
            IGNORE_CASE,
        ),
        spec_rule(to_date),
    ),
    # "the first three quarters of fiscal 2024": its Q1 to Q3.
    (
        re.compile(
            rf"\b(?:the\s+|its\s+|their\s+)?first\s+{NUM}\s+(?:fiscal\s+)?quarters\s+(?:of|in)\s+"
            rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?(?P<y4>{Y4}){YEAR_END}",
            IGNORE_CASE,
        ),
        spec_rule(first_quarters),
    ),
    # "the three years ended 2024": fiscal 2022 to 2024; a growth over them ("a three-year CAGR through
    # 2024", "revenue growth in the three years to 2024") starts from the year before: 2021.
    (
        re.compile(
            r"(?:\b(?P<growth>cagr|growth|compound(?:ed)?\s+annual(?:\s+growth)?(?:\s+rate)?)\s+"
            r"(?:(?:in|over|for|during)\s+)?(?:the\s+)?)?"
            rf"\b{NUM}[- ](?:fiscal\s+)?years?\b(?P<mid>(?:\s+[\w-]+){{0,3}}?)\s+"
            r"(?:to|through|thru|ending(?:\s+in)?|ended(?:\s+in)?)\s+"
            rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?(?P<y4>{Y4}){YEAR_END}",
            IGNORE_CASE,
        ),
        spec_rule(years_to),
    ),
    # "the second quarter of 2024 and the same quarter of 2023": that quarter of fiscal 2023.
    (
        re.compile(
            r"\b(?:the\s+)?(?:same|corresponding|comparable|equivalent|like)\s+(?:fiscal\s+)?"
            r"(?:quarter|three[- ]month\s+period|period)\s+(?:of|in|for|during|a\s+year\s+earlier,?\s+in)\s+"
            rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?(?P<y4>{Y4}){YEAR_END}",
            IGNORE_CASE,
        ),
        spec_rule(lambda m: TimeSpec("same_quarter", year=int(m.group("y4")))),
    ),
    # "the same quarter last year" compares quarters; it names no period of its own.
    (
        re.compile(
            r"\b(?:the\s+)?(?:same|year[- ]ago|prior[- ]year|comparable)\s+(?:quarter|period)"
            r"(?:\s+(?:of\s+|in\s+)?(?:the\s+)?(?:last|prior|previous)\s+(?:fiscal\s+)?year"
            r"|\s+a\s+year\s+(?:ago|earlier|before))?\b",
            IGNORE_CASE,
        ),
        lambda m: True,
    ),
    # Periods by filing date: "the first three fiscal quarters reported in 2023", "10-Ks filed in 2023".
    (
        re.compile(
            rf"(?:\b(?:the\s+)?(?:(?P<first>first)\s+(?:{NUM}\s+)?)?(?:fiscal\s+)?"
            r"(?P<what>(?:annual\s+|quarterly\s+|full[- ]year\s+)?(?:quarters?|periods?|10-?Qs?|10-?Ks?"
            r"|(?:fiscal\s+)?years?|results|reports?|filings?"
            r"|figures|financials|numbers))\s+(?:that\s+(?:were|was)\s+|which\s+(?:were|was)\s+)?)?"
            r"\b(?:reported|filed|released)\s+(?:in|during|within|throughout|over)\s+(?:the\s+)?"
            rf"(?:course\s+of\s+)?(?:calendar\s+)?(?:year\s+)?(?:{MON},?\s+)?(?P<y4>{Y4}){YEAR_END}"
            r"(?!\s*(?:10-?[KQ]|annual|quarterly|form|filing|report|earnings|results|fiscal|calendar|-))",
            IGNORE_CASE,
        ),
        spec_rule(reported),
    ),
    # "the last three 10-Qs" counts 10-Qs (no Q4); "the last two 10-Ks" counts fiscal years.
    (
        re.compile(
            rf"\b(?:the\s+|their\s+|its\s+)?{RECENT}\s+{NUM}\s+(?:10-?Qs|quarterly\s+(?:reports|filings))\b"
            rf"|\b(?:the\s+|their\s+|its\s+)?{NUM2}\s+(?:most\s+recent|latest|last|past"
            r"|previous|prior)\s+(?:10-?Qs|quarterly\s+(?:reports|filings))\b",
            IGNORE_CASE,
        ),
        spec_rule(lambda m: n_reports(m, "10-Q")),
    ),
    (
        re.compile(
            rf"\b(?:the\s+|their\s+|its\s+)?{RECENT}\s+{NUM}\s+(?:10-?Ks|annual\s+(?:reports|filings))\b"
            rf"|\b(?:the\s+|their\s+|its\s+)?{NUM2}\s+(?:most\s+recent|latest|last|past"
            r"|previous|prior)\s+(?:10-?Ks|annual\s+(?:reports|filings))\b",
            IGNORE_CASE,
        ),
        spec_rule(lambda m: n_reports(m, "10-K")),
    ),
    (
        re.compile(rf"\b(?:the\s+)?{RECENT}\s+{NUM}\s+(?:fiscal\s+|reported\s+)?quarters\b", IGNORE_CASE),
        spec_rule(n_quarters),
    ),
    (  # "the four quarters ended March 2023" (the anchor joins it when parsing)
        re.compile(
            rf"\b(?:the\s+)?{NUM}\s+(?:fiscal\s+)?quarters(?=\s*,?\s+(?:that\s+)?(?:ended|ending|through|thru|up\s+to)\b)",
            IGNORE_CASE,
        ),
        spec_rule(n_quarters),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?{NUM}\s+(?:most\s+recent|latest|last|past|previous|prior|trailing)\s+"
            r"(?:fiscal\s+|reported\s+)?quarters\b",
            IGNORE_CASE,
        ),
        spec_rule(n_quarters),
    ),
    (
        re.compile(rf"\b(?:the\s+)?(?:last|past|previous|prior|trailing)\s+{NUM}\s+months\b", IGNORE_CASE),
        spec_rule(n_months),
    ),
    (
        re.compile(r"\b(?:TTM|LTM)\b|\btrailing\s+(?:twelve|12)[-\s]months?\b", IGNORE_CASE),
        spec_rule(lambda m: TimeSpec.last_quarters(4)),
    ),
    (
        re.compile(rf"\b(?:the\s+)?{RECENT}\s+{NUM}\s+(?:fiscal\s+|full\s+)?years\b", IGNORE_CASE),
        spec_rule(n_years),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?{NUM}\s+(?:most\s+recent|latest|last|past|previous|prior)\s+(?:fiscal\s+)?years\b",
            IGNORE_CASE,
        ),
        spec_rule(n_years),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?(?:{LATEST_WORD}|current|recent|last\s+reported)\s+(?:fiscal\s+|reported\s+)?"
            r"(?:quarter(?:ly)?|10-?Q)\b",
            IGNORE_CASE,
        ),
        spec_rule(lambda m: TimeSpec.latest(unit="quarter")),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?(?:{LATEST_WORD}|current|recent|last\s+reported)\s+"
            r"(?:fiscal\s+year|full[- ]year|year|annual(?:\s+report)?|10-?K)\b",
            IGNORE_CASE,
        ),
        spec_rule(lambda m: TimeSpec.latest(unit="year")),
    ),
    (
        re.compile(
            r"\b(?:the\s+)?(?:last|past|previous|prior|preceding)\s+(?:fiscal\s+|reported\s+)?quarter\b",
            IGNORE_CASE,
        ),
        spec_rule(lambda m: TimeSpec.last_quarters(1)),
    ),
    (
        re.compile(
            r"\b(?:the\s+)?(?:last|past|previous|prior|preceding)\s+(?:fiscal\s+|full\s+)?year\b", IGNORE_CASE
        ),
        spec_rule(lambda m: TimeSpec.last_years(1)),
    ),
    (re.compile(rf"\b(?:the\s+)?{LATEST_WORD}\b", IGNORE_CASE), spec_rule(lambda m: TimeSpec.latest())),
    # No period named, but many meant: "across these quarters", "in these 10-Qs", "over time".
    (
        re.compile(
            rf"\b(?:across|over|throughout|in|from|during|for)\s+(?:all\s+)?(?:the\s+|these\s+|those\s+|its\s+)?"
            r"(?:multiple\s+|several\s+|various\s+|different\s+|successive\s+|consecutive\s+)?"
            r"(?:reported\s+|covered\s+|available\s+|fiscal\s+|quarterly\s+|reporting\s+|historical\s+)?"
            rf"(?:quarters|periods|10-?Qs|reports|filings|timeframe)\b{NOT_NAMED}"
            rf"|\b(?:these|those|all\s+the|each\s+of\s+the)\s+(?:reported\s+|quarterly\s+)?"
            rf"(?:quarters|periods|10-?Qs|reports|filings)\b{NOT_NAMED}"
            r"|\beach\s+(?:reporting|reported|fiscal)\s+period\b"
            r"|\b(?:to|with|against)\s+(?:the\s+)?(?:previous|prior|earlier|preceding)\s+ones\b"
            r"|\b(?:previous|prior|preceding|earlier|past|other)\s+quarters\b"
            r"|\bover\s+time\b|\bquarter[- ]over[- ]quarter\b|\bfrom\s+quarter\s+to\s+quarter\b",
            IGNORE_CASE,
        ),
        spec_rule(lambda m: TimeSpec.held(unit="quarter")),
    ),
    # Calendar years are spans of months: "calendar 2023" is FY2023 only for December year ends.
    (
        re.compile(
            r"\b(?:during|throughout|over\s+the\s+course\s+of|in\s+the\s+course\s+of)\s+(?:the\s+)?"
            rf"(?:calendar\s+)?(?:years?\s+)?(?P<y4>{Y4}){YEAR_END}"
            rf"(?:\s*(?:-|to|through|until)\s*(?P<to3>{Y4}){YEAR_END})?(?:\s+calendar\s+years?\b)?"
            r"(?!\s*(?:-|to\b|through\b|and\b)\s*(?:FY|fiscal|Q[1-4]|\d))"
            rf"|\bCY\s*'?(?P<fy>\d{{4}}|\d{{2}})(?!\d)(?:\s*(?:-|to|through)\s*(?:CY\s*)?'?(?P<to>\d{{4}}|\d{{2}})(?!\d))?"
            rf"|\bcalendar\s+(?:years?\s+)?(?P<y4b>{Y4}){YEAR_END}"
            rf"(?:\s*(?:-|to|through)\s*(?P<to2>{Y4}){YEAR_END})?"
            rf"|\b(?:the\s+)?(?P<y4c>{Y4})\s+calendar\s+year\b",
            IGNORE_CASE,
        ),
        spec_rule(calendar_year),
    ),
    # Dates and months; "March/April 2023" and "March-June 2023" first.
    (
        re.compile(
            rf"\b(?:(?P<op>between|from)\s+)?{MON}\s*(?P<sep>/|&|-|\bor\b|\band\b|\bto\b|\bthrough\b|\bthru\b)"
            rf"\s*{MON2},?\s+(?:of\s+)?(?:(?P<y4>{Y4}){YEAR_END}|'(?P<y2>\d{{2}})(?!\d))",
            IGNORE_CASE,
        ),
        month_pair_atom,
    ),
    (
        re.compile(rf"(?<![\w.])(?P<y4>{Y4})-(?P<m>\d{{2}})-(?P<day>\d{{2}})(?!\d)"),
        month_atom,
    ),
    (
        re.compile(rf"(?<![\w./])(?P<m>\d{{1,2}})/(?P<day>\d{{1,2}})/(?P<y4>{Y4})(?!\d)"),
        month_atom,
    ),
    (
        re.compile(rf"\b{MON}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y4>{Y4}){YEAR_END}", IGNORE_CASE),
        month_atom,
    ),
    (
        re.compile(
            rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MON},?\s+(?P<y4>{Y4}){YEAR_END}", IGNORE_CASE
        ),
        month_atom,
    ),
    (
        re.compile(
            rf"\b{MON},?\s+(?:of\s+)?(?:(?P<y4>{Y4}){YEAR_END}|'(?P<y2>\d{{2}})(?!\d))(?:\s+quarter\b)?",
            IGNORE_CASE,
        ),
        month_atom,
    ),
    # Halves and spans of quarters within one year.
    (
        re.compile(
            r"\b(?:H(?P<h>[12])|(?P<hw>first|second|1st|2nd)\s+half)\s*(?:of\s+)?(?:the\s+)?"
            rf"(?:{YEXPR}|'(?P<y2>\d{{2}})(?!\d))",
            IGNORE_CASE,
        ),
        spec_rule(half),
    ),
    (
        re.compile(
            rf"(?<![\w$.,])(?P<h>[12])H\s*(?:FY\s*)?(?:'?(?P<y2>\d{{2}})(?!\d)|(?P<y4>{Y4}){YEAR_END})",
            IGNORE_CASE,
        ),
        spec_rule(half),
    ),
    (
        re.compile(
            r"(?<![\w$])Q(?P<q1>[1-4])\s*(?:-|to|through|thru)\s*Q(?P<q2>[1-4])\s*(?:of\s+)?(?:the\s+)?"
            rf"(?:{YEXPR}|'(?P<y2>\d{{2}})(?!\d))",
            IGNORE_CASE,
        ),
        spec_rule(quarter_span),
    ),
    # Quarters: "Q2 2024", "Q2 FY2024", "Q2 of FY2024", "fiscal Q2 2024", "Q2'24", "2Q24", "2024 Q2",
    # "second quarter of 2024", "third quarter of fiscal 2023", "fiscal 2023 third quarter".
    (
        re.compile(
            r"(?<![\w$])(?:\bfiscal\s+(?:year\s+)?)?Q(?P<q>[1-4])[\s-]*(?:of\s+)?(?:the\s+)?"
            rf"(?:fiscal\s+(?:year\s+)?|FY\s*'?)?(?P<y4>{Y4}){YEAR_END}",
            IGNORE_CASE,
        ),
        quarter_atom,
    ),
    (
        re.compile(
            r"(?<![\w$])(?:\bfiscal\s+)?Q(?P<q>[1-4])\s*(?:of\s+)?(?:FY\s*'?|')(?P<y2>\d{2})(?!\d)",
            IGNORE_CASE,
        ),
        quarter_atom,
    ),
    (
        re.compile(
            rf"(?<![\w$.,])(?P<q>[1-4])Q(?:\s*FY\s*'?|\s*'|\s*)(?:(?P<y4>{Y4}){YEAR_END}|(?P<y2>\d{{2}})(?!\d))",
            IGNORE_CASE,
        ),
        quarter_atom,
    ),
    (re.compile(rf"{YEXPR}\s*-?\s*Q(?P<q>[1-4])\b", IGNORE_CASE), quarter_atom),
    (
        re.compile(
            rf"\b(?:the\s+)?(?:fiscal\s+)?{ORD}[-\s]+(?:fiscal[-\s]+)?quarter\s*,?\s*(?:of\s+|in\s+)?(?:the\s+)?"
            rf"{YEXPR}",
            IGNORE_CASE,
        ),
        quarter_atom,
    ),
    (re.compile(rf"{YEXPR}\s+{ORD}[-\s]+(?:fiscal[-\s]+)?quarter\b", IGNORE_CASE), quarter_atom),
    # Years.
    (
        re.compile(
            r"\bFY\s*'?(?P<fy>\d{4}|\d{2})(?!\d)(?:\s*-\s*(?:FY\s*)?'?(?P<to>\d{2})(?![\d-]))?" + YEAR_END,
            IGNORE_CASE,
        ),
        year_atom,
    ),
    (
        re.compile(
            rf"\bfiscal\s+(?:years?\s+)?(?:of\s+)?(?:(?P<y4>{Y4}){YEAR_END}|'(?P<y2>\d{{2}})(?!\d))",
            IGNORE_CASE,
        ),
        year_atom,
    ),
    (re.compile(rf"(?<![\w$.,/#])(?P<y4>{Y4})\s*-\s*(?P<to>\d{{2}})(?![\d-])"), year_atom),
    (
        re.compile(
            rf"(?<![\w$.,/#])(?P<y4>{Y4})"
            r"(?!\d|[.,]\d|\s*%|-\d{1,2}(?!\d)|\s*(?:million|billion|thousand|bn|mn|mm|k|m|b)\b|\w)",
            IGNORE_CASE,
        ),
        year_atom,
    ),
    # Quarters without a year ("Q4 revenue in FY2023"): they borrow the nearest year later.
    (re.compile(r"(?<![\w$])Q(?P<q>[1-4])(?!\w)", IGNORE_CASE), lone_atom),
    (
        re.compile(rf"\b(?:the\s+)?(?:fiscal\s+)?{ORD}[-\s]+(?:fiscal[-\s]+)?quarter\b(?!s)", IGNORE_CASE),
        lone_atom,
    ),
)
