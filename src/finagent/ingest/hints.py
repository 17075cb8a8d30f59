"""What the user told ``finagent ingest`` about its files (``--ticker/--form/--period-end``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True, slots=True)
class Hints:
    """The user's word on a file's company, form and date. Every filing reader takes it
    (``sec.cover.read_identity`` weighs it against the filing's own statements, PDFs in
    ``pdf_metadata``); news takes the ticker."""

    ticker: str | None = None
    form: str | None = None
    period_end: date | None = None
