"""User-facing errors: each carries a message a person can act on (the CLI prints it, no traceback)."""

from __future__ import annotations


class FinagentError(Exception):
    """Base class for errors that are reported to the user as a clear message."""


class ConfigError(FinagentError):
    """Settings are missing or inconsistent."""


class DatabaseError(FinagentError):
    """The store cannot be reached or is not usable (e.g. missing pgvector)."""


class ParseError(FinagentError):
    """A file could not be parsed into a document; carries the path and the reason."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class SearchInputError(FinagentError):
    """A search request is invalid (empty query, impossible period, ...)."""


class SkipDocument(ParseError):
    """An input that is deliberately not ingested (placeholder row, duplicate, mislabelled file).

    Reported as skipped with its reason, not as a failure: nothing is wrong with the run.
    """
