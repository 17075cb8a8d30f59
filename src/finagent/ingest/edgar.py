"""Download filings from SEC EDGAR with sec-edgar-downloader into finagent's cache."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

from finagent.errors import ConfigError, FinagentError
from finagent.finance.company_registry import normalize_ticker
from finagent.settings import Settings, get_settings

_FORM = re.compile(r"^\d{1,2}-[A-Z]{1,2}(/A)?$", re.IGNORECASE)


def split_tickers_and_forms(args: list[str], forms: list[str]) -> tuple[list[str], list[str]]:
    """Accept `AAPL MSFT --forms 10-K 10-Q` (the shell leaves "10-Q" among the tickers) and "10-K,10-Q"."""
    tickers = [a for a in args if not _FORM.match(a)]
    all_forms = [f for f in forms for f in f.split(",")] + [a for a in args if _FORM.match(a)]
    return tickers, [f.strip().upper() for f in all_forms if f.strip()]


def download_filings(
    tickers: list[str],
    forms: list[str],
    *,
    after: date | None = None,
    before: date | None = None,
    limit: int | None = None,
    settings: Settings | None = None,
    on_progress: Callable[[str, int], None] | None = None,
) -> Path:
    """Download into <cache>/edgar (sec-edgar-downloader layout) and return that folder."""
    settings = settings or get_settings()
    tickers, forms = split_tickers_and_forms(tickers, forms)
    forms = forms or ["10-K", "10-Q"]
    if not tickers:
        raise FinagentError("name at least one ticker, e.g. finagent ingest edgar AAPL --forms 10-K")
    tickers = [normalize_ticker(t) for t in tickers]
    if not settings.edgar_user_name or not settings.edgar_user_email:
        raise ConfigError(
            "SEC EDGAR requires a user agent: set FINAGENT_EDGAR_USER_NAME and FINAGENT_EDGAR_USER_EMAIL "
            "(in the environment or .env)"
        )
    import requests
    from sec_edgar_downloader import Downloader

    folder = settings.cache_dir / "edgar"
    folder.mkdir(parents=True, exist_ok=True)
    report = on_progress or (lambda label, total: None)
    try:
        downloader = Downloader(settings.edgar_user_name, settings.edgar_user_email, folder)
        for ticker in tickers:
            for form in forms:
                report(f"{ticker} {form}", len(tickers) * len(forms))
                try:
                    downloader.get(
                        form, ticker, limit=limit, after=after, before=before, download_details=True
                    )
                except ValueError as exc:  # unknown ticker / form / date range
                    raise FinagentError(f"EDGAR refused {ticker} {form}: {exc}") from exc
    except (requests.RequestException, OSError) as exc:
        raise FinagentError(
            f"cannot reach SEC EDGAR (offline?): {type(exc).__name__}. "
            "Ingest filings you already have with: finagent ingest path <folder>"
        ) from exc
    return folder
