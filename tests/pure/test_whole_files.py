"""A file cut short is refused with its reason, never read as a shorter document; every real file of
../shared passes the same checks."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from finagent.errors import ParseError
from finagent.ingest.ixbrl import cut_short_html, parse_edgar_submission, parse_ixbrl_html
from finagent.ingest.pdf import cut_short_pdf, load_pdf
from finagent.ingest.xbrl_instance import is_xbrl_instance, parse_xbrl_instance, unread_facts
from tests.bad_inputs import Case, params
from tests.conftest import SHARED_DATA, require_shared
from tests.pure.test_ixbrl import _IX_DOC, _submission


def _cut(source: Path, target: Path, size: float) -> Path:
    data = source.read_bytes()
    target.write_bytes(data[: int(len(data) * size) if size < 1 else int(size)])
    return target


def _refused(load: object, path: Path) -> str:
    with pytest.raises(ParseError) as caught:
        load(path)  # type: ignore[operator]
    return caught.value.reason


READERS = {"ixbrl": parse_ixbrl_html, "instance": parse_xbrl_instance, "pdf": load_pdf}


@pytest.mark.parametrize("case", params("test_a_cut_file_is_refused"))
def test_a_cut_file_is_refused(case: Case, tmp_path: Path) -> None:
    """A real filing cut short is refused with the reason the user reads (PyMuPDF would even repair
    a PDF missing only its last bytes)."""
    source = require_shared(*case.options["source"].split("/"))
    cut = _cut(source, tmp_path / source.name, case.options["size"])
    assert _refused(READERS[case.options["reader"]], cut).startswith(case.expect)


def test_an_instance_reading_far_fewer_facts_than_its_tags_is_refused() -> None:
    data = b"<xbrl>" + b'<a contextRef="c" unitRef="u">1</a>' * 100 + b"</xbrl>"
    assert unread_facts(data, 100) is None
    assert (
        unread_facts(data, 40)
        == "the file is damaged: only 40 of the 100 numeric facts it declares could be read"
    )


def test_a_submission_with_an_unclosed_document_is_refused(tmp_path: Path) -> None:
    whole = _submission(_IX_DOC.format(fy="2024", form="10-Q"))
    path = tmp_path / "full-submission.txt"
    path.write_text(whole, encoding="ascii")
    assert parse_edgar_submission(path).ticker == "EXMP"
    cut = whole[: whole.rindex("</DOCUMENT>")]
    path.write_text(cut, encoding="ascii")
    assert "<DOCUMENT> 2 of 2 is never closed" in _refused(parse_edgar_submission, path)
    primary_cut = whole[: whole.index("</html>")]
    path.write_text(primary_cut, encoding="ascii")
    assert "cut short" in _refused(parse_edgar_submission, path)


def test_no_real_file_is_refused() -> None:
    """Every filing, instance and PDF of ../shared/data passes the whole-file checks."""
    require_shared("filings")
    checked = {"html": 0, "instance": 0, "pdf": 0}
    for path in sorted(SHARED_DATA.rglob("*")):
        name = path.name.lower()
        if name.endswith((".htm", ".html")):
            assert cut_short_html(path.read_bytes()) is None, path
            checked["html"] += 1
        elif name.endswith(".pdf"):
            data = path.read_bytes()
            with pymupdf.open(stream=data, filetype="pdf") as doc:
                assert cut_short_pdf(data, repaired=doc.is_repaired) is None, path
            checked["pdf"] += 1
        elif name.endswith(".xml") and is_xbrl_instance(path):
            assert parse_xbrl_instance(path).facts, path
            checked["instance"] += 1
    assert checked["html"] >= 34 and checked["pdf"] >= 45 and checked["instance"] >= 11, checked
