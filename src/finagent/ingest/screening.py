"""Untrusted document text at ingest: every chunk is assessed (finance.untrusted) and stored flagged
when it addresses an AI system or hides text; flagged chunks are never evidence."""

from __future__ import annotations

import importlib

from finagent.errors import ConfigError
from finagent.finance.document_records import Block, ChunkDraft
from finagent.finance.untrusted import Classifier, assess, assess_passage
from finagent.settings import Settings


def load_classifier(settings: Settings) -> Classifier | None:
    """The configured classifier hook (FINAGENT_INJECTION_CLASSIFIER="package.module:function")."""
    spec = (settings.injection_classifier or "").strip()
    if not spec:
        return None
    module_name, _, name = spec.partition(":")
    try:
        function = getattr(importlib.import_module(module_name), name or "score")
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigError(
            f"FINAGENT_INJECTION_CLASSIFIER={spec!r} cannot be loaded ({exc}); give 'package.module:function'"
        ) from None
    if not callable(function):
        raise ConfigError(f"FINAGENT_INJECTION_CLASSIFIER={spec!r} is not a function")
    return function


def flag_blocks(blocks: list[Block], classifier: Classifier | None = None) -> None:
    """Mark the paragraphs (and tables) that address AI systems before chunking: the chunker keeps a
    marked block apart (``metadata["flagged"]``), so its neighbours stay evidence and every piece of
    a long marked paragraph is flagged, even one without the words that gave it away."""
    for block in blocks:
        if block.metadata.get("hidden"):
            continue
        flag = assess(block.text, classifier=classifier)
        if flag is not None:
            block.metadata["flagged"] = flag.stored


def flag_chunks(chunks: list[ChunkDraft], classifier: Classifier | None = None) -> int:
    """Set each chunk's ``flagged_reason``; returns how many are flagged."""
    flagged = 0
    for chunk in chunks:
        flag = assess_passage(
            chunk.text, title=chunk.section_title, metadata=chunk.metadata, classifier=classifier
        )
        chunk.flagged_reason = flag.stored if flag else None
        flagged += flag is not None
    return flagged
