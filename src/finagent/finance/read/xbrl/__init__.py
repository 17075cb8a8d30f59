"""Exact numeric XBRL facts from inline XBRL (iXBRL) filings and XBRL 2.1 instance documents.

Why: a figure question is answered best from the filer's own tagged number (concept, period,
dimensions, unit, exact value), not from table text. This module turns ``ix:nonFraction``
elements (and the numeric facts of an EX-101.INS instance) into :class:`Fact` records.

Pure: takes bytes or lxml trees, never touches files or the network. Document text is untrusted
data: XML is parsed without entity resolution or network access, values are only ever parsed as
numbers, and anything that does not parse is skipped with a recorded reason, never guessed.
Why plain lxml rather than an XBRL library: see docs/xbrl-libraries.md.

Modules: ``xml`` (safe parsing, element helpers), ``contexts`` (contexts and units), ``ixt_formats``
(ixt transforms), ``ixbrl_facts`` (iXBRL facts), ``instance`` (instance documents and label linkbases),
``calendar`` (a filer's fiscal calendar from its dei facts).

Trees come in two shapes and both are handled: namespaced XHTML (the XML parser; ix namespace
2013 or 2008) and un-namespaced HTML (lxml.html fallback: tags ``ix:nonfraction``, lower-case
attribute names ``contextref``).
"""

from finagent.finance.read.xbrl.calendar import filing_calendar, fye_month
from finagent.finance.read.xbrl.instance import (
    extract_instance_facts,
    instance_facts,
    is_instance_root,
    linkbase_labels,
)
from finagent.finance.read.xbrl.ixbrl_facts import extract_ixbrl_facts, ixbrl_facts
from finagent.finance.read.xbrl.xml import (
    FACT_TAGS,
    IX_NAMESPACES,
    XBRLI,
    FactExtraction,
    XbrlError,
    fact_elements,
    parse_ixbrl,
    parse_xml,
    raw_fact_count,
)

__all__ = [
    "FACT_TAGS",
    "IX_NAMESPACES",
    "XBRLI",
    "FactExtraction",
    "XbrlError",
    "extract_instance_facts",
    "extract_ixbrl_facts",
    "fact_elements",
    "filing_calendar",
    "fye_month",
    "instance_facts",
    "is_instance_root",
    "ixbrl_facts",
    "linkbase_labels",
    "parse_ixbrl",
    "parse_xml",
    "raw_fact_count",
]
