"""A screen written out: the computed sentence that answers it (the leader, or the companies past the
threshold, each with its own period), the companies lacking the figure in one sentence, then the cited
table. Every number comes from ``finance.compute.screen_rank``; no model writes here."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from finagent.agent.answer.wording import (
    company,
    counted,
    format_amount,
    joined,
    metric_scales,
    period_phrase,
)
from finagent.finance.compute.compare import Cell
from finagent.finance.compute.screen_rank import PERCENT, Lacking, ScreenEntry, ScreenOutcome
from finagent.finance.looked_up import Figure, Provenance

Labeller = Callable[[Provenance], str]
NAMED_IN_PROSE = 5
"""Companies a ranking's sentence names after the first (the table lists every one)."""


def in_sentence(label: str) -> str:
    """A label inside a sentence: "operating margin", but "diluted EPS" and "R&D" keep their capitals."""
    first = label.split(" ", 1)[0]
    return label if first.isupper() and len(first) > 1 else label[:1].lower() + label[1:]


def _cell(entry: ScreenEntry) -> Cell:
    return Cell(entry.ticker, "screen", entry.period, entry.period_end, entry.value, entry.unit, 0, ())


def _scale(entries: Sequence[ScreenEntry]) -> int:
    return metric_scales(_cell(e) for e in entries).get("screen", 0)


def _value(entry: ScreenEntry, scale: int) -> str:
    if entry.unit == PERCENT:
        return format_amount(entry.value, PERCENT, 0)
    return format_amount(entry.value, entry.unit, 0 if "/" in entry.unit else scale)


def _cite(labels: Sequence[str]) -> str:
    shown = list(dict.fromkeys(x for x in labels if x))
    return f" [{', '.join(shown)}]" if shown else ""


def _sources(entry: ScreenEntry, label: Labeller) -> str:
    return _cite([label(f.provenance) for f in entry.figures])


def _named(entry: ScreenEntry, names: dict[str, list[str]], scale: int, label: Labeller) -> str:
    """ "Apple (AAPL) 31.5% in FY2024 (the year ended September 28, 2024) [10K1]"."""
    when = period_phrase(_cell(entry))
    return f"{company(entry.ticker, names)} {_value(entry, scale)} in {when}{_sources(entry, label)}"


def _bound(outcome: ScreenOutcome) -> str:
    """ "above 10.0%", "below $5,000 million", "above 5.0% and below 20.0%": the threshold asked."""
    ask = outcome.ask
    unit = PERCENT if outcome.metric.percent else (outcome.ranked[0].unit if outcome.ranked else "USD")
    scale = 0 if unit == PERCENT else _scale(outcome.ranked)
    parts = [f"above {format_amount(ask.lower, unit, scale)}" if ask.lower is not None else ""]
    parts.append(f"below {format_amount(ask.upper, unit, scale)}" if ask.upper is not None else "")
    return " and ".join(p for p in parts if p)


def companies(n: int) -> str:
    """ "one company", "three companies"."""
    return f"{counted(n)} {'company' if n == 1 else 'companies'}"


def _ranking_sentence(outcome: ScreenOutcome, names: dict[str, list[str]], label: Labeller, when: str) -> str:
    """ "Of the 24 companies with operating margin for their latest fiscal year, NVIDIA (NVDA) had the
    highest operating margin: 62.4% in FY2025 (...) [10K1]; then ... (18 more in the table)."."""
    ask, what = outcome.ask, in_sentence(outcome.metric.label)
    scale = _scale(outcome.ranked)
    kept = outcome.kept
    end = "highest" if ask.highest_first else "lowest"
    first = kept[0]
    head = (
        f"Of the {companies(len(outcome.ranked))} with {what} {when}, {company(first.ticker, names)} had the "
        f"{end} {what}: {_value(first, scale)} in {period_phrase(_cell(first))}{_sources(first, label)}"
    )
    shown = kept[1 : NAMED_IN_PROSE + 1] if ask.top is None else kept[1:]
    if not shown:
        return f"{head}."
    more = len(kept) - 1 - len(shown)
    tail = f" ({counted(more)} more in the table)" if more > 0 else ""
    return f"{head}; then {joined([_named(e, names, scale, label) for e in shown])}{tail}."


def _filter_sentence(outcome: ScreenOutcome, names: dict[str, list[str]], label: Labeller, when: str) -> str:
    """ "Of the 24 companies with revenue growth for fiscal 2024, three had revenue growth above 10.0%:
    ..." (none: the closest one)."""
    what = in_sentence(outcome.metric.label)
    scale = _scale(outcome.ranked)
    bound = _bound(outcome)
    of = f"Of the {companies(len(outcome.ranked))} with {what} {when}"
    if not outcome.kept:
        lead = f"{of}, none had {what} {bound}"
        if outcome.ranked:
            values = sorted(outcome.ranked, key=lambda e: e.value, reverse=outcome.ask.lower is not None)
            return f"{lead}; the closest was {_named(values[0], names, scale, label)}."
        return f"{lead}."
    listed = joined([_named(e, names, scale, label) for e in outcome.kept])
    return f"{of}, {counted(len(outcome.kept))} had {what} {bound}: {listed}."


def _lacking_sentence(lacking: Sequence[Lacking], names: dict[str, list[str]]) -> str:
    """ "Not ranked, for lack of the figures: Delta (DELT) for FY2024 and ..." (one sentence)."""
    if not lacking:
        return ""
    listed = joined(
        [f"{company(x.ticker, names)}{f' for {x.period.label}' if x.period else ''}" for x in lacking]
    )
    return f"Not ranked, for lack of the figures: {listed} (the table says which)."


def _others_sentence(outcome: ScreenOutcome, names: dict[str, list[str]], label: Labeller) -> str:
    if not outcome.other_currency:
        return ""
    scale = _scale(outcome.other_currency)
    listed = joined([_named(e, names, scale, label) for e in outcome.other_currency])
    return f"Reported in another currency, so not ranked with the others: {listed}."


def _from(entry: ScreenEntry, scale: int, label: Labeller) -> str:
    """What a computed value is computed from: each figure with its period and citation."""
    if len(entry.figures) < 2 and entry.unit != PERCENT:
        return ""

    def shown(f: Figure) -> str:
        unit = str(f.unit or "USD")
        value = format_amount(f.value, unit, scale)
        return f"{in_sentence(f.metric_label)} {f.period.label} {value}{_cite([label(f.provenance)])}"

    return "; ".join(shown(f) for f in entry.figures)


def _table(outcome: ScreenOutcome, names: dict[str, list[str]], label: Labeller) -> str:
    title = outcome.metric.label
    money = metric_scales(_cell(e) for e in (*outcome.ranked, *outcome.other_currency)).get("screen", 0)
    inputs = metric_scales(
        Cell(e.ticker, "in", f.period, f.period_end, f.value, str(f.unit or "USD"), 0, ())
        for e in outcome.ranked
        for f in e.figures
    ).get("in", 6)
    head = ["Rank", "Company", "Period", title]
    filtered = outcome.filtered
    head += [f"{_bound(outcome).capitalize()}?"] if filtered else []
    computed = outcome.metric.kind != "line"
    head += ["Computed from"] if computed else []
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    kept = {e.ticker for e in outcome.kept}
    shown = outcome.ranked if filtered or outcome.ask.top is None else outcome.kept
    for rank, entry in enumerate(shown, 1):
        cells = [str(rank), company(entry.ticker, names), period_phrase(_cell(entry))]
        cells.append(_value(entry, money) + (_sources(entry, label) if not computed else ""))
        cells += ["yes" if entry.ticker in kept else "no"] if filtered else []
        cells += [_from(entry, inputs, label)] if computed else []
        rows.append("| " + " | ".join(cells) + " |")
    for entry in outcome.other_currency:
        cells = ["–", company(entry.ticker, names), period_phrase(_cell(entry)), _value(entry, money)]
        cells += ["not ranked (another currency)"] if filtered else []
        cells += [_from(entry, inputs, label)] if computed else []
        rows.append("| " + " | ".join(cells) + " |")
    for gap in outcome.lacking:
        cells = [
            "–",
            company(gap.ticker, names),
            gap.period.label if gap.period else "–",
            f"not found: {gap.reason}",
        ]
        cells += ["–"] if filtered else []
        cells += ["–"] if computed else []
        rows.append("| " + " | ".join(cells) + " |")
    hidden = len(outcome.ranked) - len(shown)
    note = f"\n\n{companies(hidden).capitalize()} more ranked below these." if hidden > 0 else ""
    return "\n".join(rows) + note


def screen_text(
    outcome: ScreenOutcome,
    names: dict[str, list[str]],
    label: Labeller,
    period_words: str = "",
    sector: str = "",
) -> str:
    """The screen's answer: its computed sentences, then the table (see the module docstring); a
    question limited to an industry is told first that the store knows none."""
    when = f"for {period_words}" if period_words else "for their latest fiscal year"
    what = in_sentence(outcome.metric.label)
    if not outcome.ranked and not outcome.other_currency:
        opening = f"None of the {companies(len(outcome.lacking))} screened has {what} {when} in the store."
    elif outcome.filtered:
        opening = _filter_sentence(outcome, names, label, when)
    else:
        opening = _ranking_sentence(outcome, names, label, when)
    unknown = (
        f"The store holds no industry of its companies, so every company in it was screened, not only "
        f"{sector} companies."
        if sector
        else ""
    )
    sentences = [unknown, opening, _others_sentence(outcome, names, label)]
    if outcome.ranked or outcome.other_currency:
        sentences.append(_lacking_sentence(outcome.lacking, names))
    return " ".join(s for s in sentences if s) + "\n\n" + _table(outcome, names, label)
