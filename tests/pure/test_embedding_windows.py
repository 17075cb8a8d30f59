"""A chunk longer than the model reads is cut into windows, each read whole."""

from __future__ import annotations

from finagent.embeddings import WINDOW_STRIDE, WINDOW_TOKENS, model_source_path, tail_windows


def _one_token_words(count: int) -> list[str]:
    """Whole words of the model's vocabulary: one token each."""
    vocabulary = (model_source_path() / "vocab.txt").read_text(encoding="utf-8").split()
    return [w for w in vocabulary if w.isalpha() and w.isascii() and len(w) >= 4][:count]


def test_a_text_the_model_reads_whole_has_no_later_window() -> None:
    assert tail_windows(["Net sales rose 8% on iPhone demand.", ""]) == [[], []]


def test_the_windows_cover_the_rest_of_a_long_text_and_overlap() -> None:
    words = _one_token_words(700)
    (windows,) = tail_windows([" ".join(words)])
    assert len(windows) == 2  # windows start every 224 tokens: at 224, then 448 (it reads to the end)
    assert windows[0].split()[0] == words[WINDOW_STRIDE]
    assert [len(w.split()) for w in windows] == [WINDOW_TOKENS, 700 - 2 * WINDOW_STRIDE]
    assert windows[-1].split()[-1] == words[-1]  # the text's end is read
    for earlier, later in zip(windows, windows[1:], strict=False):
        assert earlier.split()[-30:] == later.split()[:30]  # 30 tokens shared: a cut sentence is whole in one
