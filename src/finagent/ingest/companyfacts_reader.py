"""Stream an SEC company-facts JSON file (``CIK##########.json``) into staging rows, never loading it.

The file is one JSON object (``facts -> taxonomy -> concept -> units -> unit -> [fact, ...]``) that
can hold hundreds of thousands of facts; ijson's C parser yields its tokens and a small state machine
turns each fact into one tab-separated staging row as it goes by. Only what describes the company
and its filings (a few numbers per filing, one label per concept) is kept in memory.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import IO, cast

import ijson

from finagent.finance.fact_records import duration_class
from finagent.finance.read.sec_company_facts import TAXONOMIES, CompanyFile, FilingFacts, inferred_decimals

_ACCESSION = re.compile(r"^\d{10}-\d{2}-\d{6}$")
_FACT_DEPTH = 7  # root, facts, taxonomy, concept, units, unit array, fact
_FLUSH_ROWS = 4096
_NULL = "\\N"  # COPY's NULL
_TSV_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


class CompanyFactsFormatError(ValueError):
    """The JSON is well formed but is not an SEC company-facts file."""


def _tsv(text: str) -> str:
    return text.translate(_TSV_ESCAPES)


class _Reader:
    """The per-fact work of one file: staging rows, per-filing digests and summaries."""

    def __init__(self, write: Callable[[bytes], None]) -> None:
        self.write = write
        self.result = CompanyFile()
        self._digests: defaultdict[str, int] = defaultdict(int)
        self._counts: defaultdict[str, int] = defaultdict(int)
        self._filing_periods: dict[str, set[tuple[object, object, bool]]] = {}
        self._rows: list[str] = []
        self._dates: dict[str, date] = {}
        self._durations: dict[tuple[object, object, bool], str] = {}
        self._ends: dict[tuple[object, object, bool], date] = {}

    def day(self, text: object) -> date:
        if not isinstance(text, str):
            raise CompanyFactsFormatError(f"a fact's date is not a date: {text!r}")
        found = self._dates.get(text)
        if found is None:
            try:
                found = self._dates[text] = date.fromisoformat(text)
            except ValueError as exc:
                raise CompanyFactsFormatError(f"a fact's date is not a date: {text!r}") from exc
        return found

    def fact(self, taxonomy: str, concept: str, unit: str, fact: dict[str, object]) -> None:
        value = fact.get("val")
        if (
            isinstance(value, bool)
            or not isinstance(value, int | Decimal)
            or (isinstance(value, Decimal) and not value.is_finite())
        ):
            self.result.skipped["no numeric value"] += 1
            return
        accession = cast(str, fact.get("accn"))
        periods = self._filing_periods.get(accession)
        if periods is None:
            if not isinstance(accession, str) or not _ACCESSION.match(accession):
                self.result.skipped["no accession number"] += 1
                return
            periods = self._new_filing(accession, fact)
        start, end = fact.get("start"), fact.get("end")
        period = (start, end, taxonomy == "dei")
        duration = self._durations.get(period)
        if duration is None:
            duration = self._duration(period)
        periods.add(period)
        self._counts[accession] += 1
        if isinstance(value, int):
            decimals = (
                _NULL
                if value == 0
                else "-6"
                if value % 1_000_000 == 0
                else "-3"
                if value % 1000 == 0
                else "0"
            )
        else:
            inferred = inferred_decimals(value)
            decimals = _NULL if inferred is None else str(inferred)
        row = f"{accession}\t{concept}\t{unit}\t{start or _NULL}\t{end}\t{value}\t{decimals}\t{duration}\n"
        # Order-free digest of the filing's facts: the same facts in a newer file give the same one.
        self._digests[accession] += int.from_bytes(hashlib.blake2b(row.encode(), digest_size=16).digest())
        self._rows.append(row)
        if len(self._rows) >= _FLUSH_ROWS:
            self.flush()

    def _new_filing(self, accession: str, fact: dict[str, object]) -> set[tuple[object, object, bool]]:
        form, filed = fact.get("form"), fact.get("filed")
        fy, fp = fact.get("fy"), fact.get("fp")
        self.result.filings[accession] = FilingFacts(
            accession=accession,
            form=form.strip().upper() if isinstance(form, str) and form.strip() else "OTHER",
            filed=self.day(filed) if filed is not None else None,
            fy=fy if isinstance(fy, int) and not isinstance(fy, bool) else None,
            fp=fp if isinstance(fp, str) else None,
        )
        periods: set[tuple[object, object, bool]] = set()
        self._filing_periods[accession] = periods
        return periods

    def _duration(self, period: tuple[object, object, bool]) -> str:
        """Duration class of a (start, end) pair seen for the first time (dates checked here)."""
        start, end, _ = period
        end_day = self.day(end)
        duration = duration_class(self.day(start) if start is not None else None, end_day)
        self._durations[period] = duration
        self._ends[period] = end_day
        return duration

    def finish(self) -> tuple[CompanyFile, dict[str, int]]:
        """The company and its filings, each filing's periods and fact count folded in."""
        self.flush()
        for accession, filing in self.result.filings.items():
            for period in self._filing_periods[accession]:
                end = self._ends[period]
                filing.saw(self._durations[period], end, "dei" if period[2] else "")
                self.result.period_ends.add(end)
            filing.facts = self._counts[accession]
        self.result.facts = sum(self._counts.values())
        return self.result, {a: d % (1 << 128) for a, d in self._digests.items()}

    def flush(self) -> None:
        if self._rows:
            self.write("".join(self._rows).encode())
            self._rows = []


def read_company_facts(
    stream: IO[bytes], write: Callable[[bytes], None]
) -> tuple[CompanyFile, dict[str, int]]:
    """Parse ``stream`` and ``write`` staging rows (tab-separated text for COPY, in batches):
    accession, concept ('us-gaap:Revenues'), unit, start, end, value, decimals, duration class.

    Returns the company and filings read, and an order-free digest of each filing's facts. Raises
    ijson.JSONError for malformed or truncated JSON, CompanyFactsFormatError for JSON that is not
    company facts.
    """
    reader = _Reader(write)
    seen_facts = _walk(stream, reader)
    if not reader.result.cik or not reader.result.cik.isdigit():
        raise CompanyFactsFormatError("no 'cik': not an SEC company-facts file")
    if not seen_facts:
        raise CompanyFactsFormatError("no 'facts': not an SEC company-facts file")
    return reader.finish()


def _walk(stream: IO[bytes], reader: _Reader) -> bool:
    """Feed ``reader`` every fact of ``stream`` and the company's cik, name and concept labels;
    whether the file has a ``facts`` object. One loop over ijson's events, its state in locals: it
    runs for every token of files of hundreds of thousands of facts."""
    result = reader.result
    opened: list[str | None] = [None] * 32
    depth = 0
    key: str | None = None
    fact: dict[str, object] = {}
    taxonomy = concept = unit = ""
    keep = False
    seen_facts = False
    for event, value in ijson.basic_parse(stream, use_float=False):
        if event == "map_key":
            key = value
        elif depth == _FACT_DEPTH:
            if event == "end_map":
                depth -= 1
                if keep:
                    reader.fact(taxonomy, concept, unit, fact)
                else:
                    result.skipped[f"taxonomy {taxonomy}"] += 1
            elif event == "start_map" or event == "start_array":
                opened[depth] = key
                depth += 1
            else:
                fact[key] = value  # type: ignore[index]
        elif event == "start_map" or event == "start_array":
            if depth >= len(opened):
                raise CompanyFactsFormatError("nested deeper than company facts are")
            opened[depth] = key
            depth += 1
            if depth == 3 and opened[1] == "facts":
                taxonomy = str(key)
                keep = taxonomy in TAXONOMIES
                seen_facts = True
            elif depth == 4 and opened[1] == "facts":
                concept = _tsv(f"{taxonomy}:{key}")
            elif depth == 6 and opened[1] == "facts" and opened[4] == "units":
                unit = _tsv(str(key).replace("-per-", "/"))
            elif depth == _FACT_DEPTH:
                if opened[1] != "facts" or opened[4] != "units" or event != "start_map":
                    depth -= 1
                    raise CompanyFactsFormatError("a fact is not where company facts keep them")
                fact = {}
        elif event == "end_map" or event == "end_array":
            depth -= 1
        elif depth == 1 and key == "cik":
            result.cik = str(value).strip()
        elif depth == 1 and key == "entityName" and isinstance(value, str):
            result.name = value.strip() or None
        elif depth == 4 and key == "label" and keep and isinstance(value, str) and opened[1] == "facts":
            result.labels[concept] = value
    if depth != 0:
        raise CompanyFactsFormatError("the file is cut short")
    return seen_facts
