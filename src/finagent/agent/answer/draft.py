"""The one draft loop of every answer the model writes words for: draft → check → one rewrite →
withhold.

The model's text is cut to whole sentences (a draft stopped by the token limit loses its unfinished
sentence), composed into the answer, and checked: every figure must be the value of the company and
period its sentence names, and a ranking it states must be the computed one. When a sentence cannot
stand the model rewrites once, told why; what still cannot stand is withheld whole, with the reason
in the warnings, and the rest of the answer (computed sentences, table, citations) is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from finagent.agent.answer.prose import sentences, withhold
from finagent.finance.check.answer_shape import unanswered
from finagent.finance.check.support import is_verdict
from finagent.finance.check.verify import Validation
from finagent.finance.citations import cited_labels
from finagent.finance.words import NOT_AN_ABBREVIATION
from finagent.llm.structured import text_call
from finagent.resources import read_prompt

# A sentence ends at . ! ? (then closing quotes, brackets or a citation), or at a citation; a list or
# table line is whole. Not at the period of an abbreviation or an initial ("Apple Inc. (“Apple”)").
_WHOLE_END = re.compile(r"(?:[.!?][\"')\]*]*|\])(?:\s*\[[^\]]{1,40}\])*[\"')\]*]*$")
_SENTENCE_END = re.compile(rf"[.!?]{NOT_AN_ABBREVIATION}[\"')\]*]*(?:\s*\[[^\]]{{1,40}}\])*(?=\s)")


def whole_sentences(text: str) -> str:
    """``text`` without a trailing unfinished sentence ("… had the highest revenue, then")."""
    text = text.rstrip()
    if not text or _WHOLE_END.search(text):
        return text
    last_line = text.rsplit("\n", 1)[-1].lstrip()
    if last_line.startswith(("-", "*", "|")) or re.match(r"\d+[.)]\s", last_line):
        return text
    ends = list(_SENTENCE_END.finditer(text))
    return text[: ends[-1].end()].rstrip() if ends else ""


def without_repeats(text: str) -> str:
    """``text`` with each sentence said once, and none that is no words: a small model loops ("The
    quick ratio was 0.71 [10K3]. This ratio is calculated as ... The quick ratio was 0.71 [10K3].
    ...") and leaves list numbers and citations behind the sentences withheld from a list ("2 [ER2].
    3 [ER1]."); a list number before a sentence that stays is kept."""
    seen: list[set[str]] = []
    spans: list[tuple[str, bool]] = []  # (span, has a word)
    start = 0
    for end in [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text)]:
        span = text[start:end]
        start = end
        bare = re.sub(r"\[[^\]]{1,40}\]", " ", span)  # the same sentence citing another passage
        words = {w for w in re.sub(r"[^\w%.$]+", " ", bare).lower().split() if len(w) > 2}
        if any(_restates(words, earlier) for earlier in seen):
            continue
        seen.append(words)
        spans.append((span, bool(re.search(r"[^\W\d_]", bare))))
    kept = [
        span
        for index, (span, worded) in enumerate(spans)
        if worded or not span.strip() or _numbers_an_item(span, spans[index + 1 :])
    ]
    return "".join(kept)


REPEAT_SHARE = 0.9


def _restates(words: set[str], earlier: set[str]) -> bool:
    """A sentence of four or more words whose words are (nine in ten of them) an earlier sentence's:
    the loop says the same with another verb ("The press release mentions …", "… states …")."""
    return len(words) >= 4 and len(words & earlier) >= REPEAT_SHARE * len(words)


def _numbers_an_item(span: str, after: list[tuple[str, bool]]) -> bool:
    """ "2." before "Costs fell.": a list number, uncited, whose item follows."""
    following = next((s for s in after if s[0].strip()), None)
    return "[" not in span and following is not None and following[1]


def basis(passages: Sequence[Mapping[str, Any]], *texts: str) -> str:
    """What a draft is written from, whatever order and labels its passages get in this round: their
    chunk ids (or text, for a passage that is no chunk) and ``texts`` (market data, news). Figures read
    again from the same passages are nothing new. A follow-up round that leaves it as it was would
    only re-roll the model."""
    shown = sorted(str(p.get("chunk_id") or p.get("text") or "") for p in passages)
    return hashlib.sha256(json.dumps([shown, list(texts)]).encode()).hexdigest()


@dataclass
class Composed:
    """An answer built around the model's prose: the whole text, where the prose sits in it, notes."""

    answer: str
    prose: str
    offset: int
    notes: list[str] = field(default_factory=list)


@dataclass
class Checked:
    """The figures check of a composed answer: its validation, the prose that stands, and why the
    other sentences do not (one reason per withheld sentence)."""

    validation: Validation
    kept: str
    reasons: list[str]
    rewrite: bool = False  # something in the prose cannot stand as written


@dataclass
class Writer:
    """What one answer's draft loop needs: the model and its prompt, how prose becomes the answer,
    how the answer is verified, the computed rankings the prose may not contradict."""

    model: Any
    messages: list[BaseMessage]
    compose: Callable[[str], Composed]
    verify: Callable[[str], Validation]
    ranks: Sequence[dict[str, Any]] = ()
    names: dict[str, list[str]] = field(default_factory=dict)
    withhold_unfound: bool = True
    """Withhold a sentence whose figure is found nowhere (False: it stays, marked [unverified]); a
    figure that is another company's or period's value is always withheld."""
    support: Callable[[str], str | None] | None = None
    """Why a sentence of the prose is not supported by the passages it cites (None: it is)."""
    verdict: Callable[[str, list[str]], str | None] | None = None
    """Why the prose's opening yes or no, which cites nothing, does not stand on the passages its
    supported sentences cite (None: it does); unset, it is held to ``support`` like any sentence."""
    rewrites: int = 1
    """Model calls allowed after the first (0: what cannot stand is withheld at once, one call in all)."""
    basis: str = ""
    """What the model reads (``basis``): the same as the last draft's, and drafting again is a re-roll."""

    def stands(self, state: Mapping[str, Any]) -> bool:
        """A later round's draft would be written from just what the last one was: that one stands."""
        return bool(state.get("iterations")) and bool(self.basis) and self.basis == state.get("drafted_from")

    def check(self, composed: Composed) -> Checked:
        validation = self.verify(composed.answer)
        end = composed.offset + len(composed.prose)
        unverified = [c for c in validation.unverified if not c.minor and composed.offset <= c.start < end]
        bad = {c.start: f"{c.text}: {c.how}" for c in unverified if c.wrong or self.withhold_unfound}
        bad |= self._unsupported(composed)
        kept, reasons = withhold(composed.prose, composed.offset, bad, self.ranks, self.names)
        return Checked(validation, kept, reasons, rewrite=bool(unverified) or bool(reasons))

    def _unsupported(self, composed: Composed) -> dict[int, str]:
        """Sentences of the prose their cited passages do not support, by answer offset."""
        if self.support is None:
            return {}
        found: dict[int, str] = {}
        grounds: list[str] = []
        opening: tuple[int, str] | None = None
        for index, (start, sentence) in enumerate(sentences(composed.prose)):
            if index == 0 and self.verdict is not None and is_verdict(sentence):
                opening = (start, sentence)
                continue
            why = self.support(sentence)
            if why:
                found[composed.offset + start] = why
            else:
                grounds += cited_labels(sentence)
        if opening is not None and self.verdict is not None:
            why = self.verdict(opening[1], grounds)
            if why:
                found[composed.offset + opening[0]] = why
        return found


@dataclass
class Drafted:
    """The answer after the loop, its validation, warnings, the model calls, and whether the model
    wrote anything usable."""

    answer: str
    validation: Validation
    warnings: list[str]
    calls: list[dict[str, Any]]
    wrote: bool
    prose: str = ""  # the model's words that stood, as placed in the answer
    withheld: int = 0  # sentences withheld as unsupported


def _why(checked: Checked) -> list[str]:
    """What could not stand: the withheld sentences' reasons, else the unsupported figures."""
    return checked.reasons or [f"{c.text} ({c.how})" for c in checked.validation.unverified if not c.minor]


def feedback(reasons: Sequence[str]) -> str:
    """The one rewrite instruction: what could not stand and why."""
    return read_prompt("feedback").substitute(listed="; ".join(reasons[:6]))


async def draft(writer: Writer) -> Drafted:
    """Draft, check, rewrite once if a sentence cannot stand, then withhold what still cannot."""
    text, call = await text_call(writer.model, writer.messages, role="generate")
    calls = [call.to_dict()]
    warnings: list[str] = []
    why = unanswered(whole_sentences(text)) if call.ok and writer.rewrites else None
    if why:
        retry = [*writer.messages, AIMessage(text), HumanMessage(read_prompt("complete").substitute(why=why))]
        text, call = await text_call(writer.model, retry, role="generate")
        calls.append(call.to_dict())
        warnings.append(f"the model's first answer was not an answer ({why}); it was asked again")
    text = without_repeats(whole_sentences(text))
    composed = writer.compose(text)
    warnings += composed.notes
    checked = writer.check(composed)
    if checked.rewrite and call.ok and text.strip() and writer.rewrites and not why:
        retry = [*writer.messages, AIMessage(text), HumanMessage(feedback(_why(checked)))]
        again, call = await text_call(writer.model, retry, role="generate")
        calls.append(call.to_dict())
        warnings.append(f"the answer was rewritten once: {'; '.join(_why(checked)[:3])}")
        if again.strip():
            text = without_repeats(whole_sentences(again))
            composed = writer.compose(text)
            warnings += [n for n in composed.notes if n not in warnings]
            checked = writer.check(composed)
    reasons: list[str] = []
    for _ in range(3):  # what stood on a withheld sentence (a yes or no on its citation) goes too
        if not checked.reasons:
            break
        reasons += checked.reasons
        kept = without_repeats(checked.kept)  # what a withheld sentence of a list leaves behind
        composed = writer.compose(kept)
        warnings += [n for n in composed.notes if n not in warnings]
        checked = writer.check(composed)
        if not kept.strip():
            break  # nothing the model wrote stands: what is composed now is code's stand-in
    withheld = len(reasons)
    if reasons:
        warnings.append(
            f"withheld {withheld} sentence(s) that stated figures, rankings or claims the "
            "evidence does not support for the company and period named: " + "; ".join(reasons[:4])
        )
    wrote = call.ok and bool(text.strip())
    return Drafted(composed.answer, checked.validation, warnings, calls, wrote, composed.prose, withheld)
