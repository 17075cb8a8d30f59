"""One sub-search's task as the fan-outs build it: the document kinds a period is searched in, and
the priors by kind that rank its passages (the newest year, the kind the question names, a release
for what releases report)."""

from __future__ import annotations

from finagent.agent.state import SearchTask, Target
from finagent.agent.understand.question import Question
from finagent.finance.periods import FACTS_KIND

FILING_KINDS_QUARTER = ["10-Q", "earnings_release", "8-K"]


REPORT_KINDS = frozenset({"10-K", "annual_report", "10-Q", "earnings_release"})


def search_kinds(target: Target, plan: Question, extra: list[str] | None = None) -> list[str]:
    """Document kinds to search for a target: the period's report, plus transcripts/news when needed
    (news when the question's own words ask for it, or the evaluation does).

    A fiscal year is its 10-K, its Q4 earnings release and its 8-Ks (``search_priors`` ranks the
    10-K first unless the question asks for what releases report).
    """
    sources = plan.sources
    held = set(target.get("kinds") or []) - {FACTS_KIND}  # figures, not documents to search
    if target.get("fiscal_quarter") is None:
        wanted = {"10-K", "annual_report", "earnings_release", "8-K"}
    else:
        wanted = set(FILING_KINDS_QUARTER)
    if "transcript" in sources or (extra and "transcript" in extra):
        wanted.add("transcript")
    if "news" in plan.asked_sources or (extra and "news" in extra):  # "per the news": its articles
        wanted.add("news")
    if held and not held & wanted:
        wanted |= held - {"news"}  # only transcripts cover this period: better than nothing
    # the news asked is searched whatever the period's inventory holds: articles are dated by the day
    # they came out, not held as a period's reports
    asked_news = {"news"} & wanted
    if target.get("fiscal_year") is None:
        return sorted(held | asked_news) if held else sorted(wanted | {"10-K", "10-Q"})
    return sorted((wanted & held) | asked_news) if held & wanted else sorted(wanted)


def make_task(
    target: Target,
    query: str,
    kinds: list[str],
    k: int,
    round_: int,
    statements: list[str] | None = None,
    priors: dict[str, float] | None = None,
) -> SearchTask:
    annual = target.get("fiscal_year") is not None and target.get("fiscal_quarter") is None
    task = SearchTask(
        ticker=target.get("ticker"),
        fiscal_year=target.get("fiscal_year"),
        fiscal_quarter=target.get("fiscal_quarter"),
        annual=annual,
        period_label=target.get("label") or "any period",
        query=query,
        kinds=kinds,
        statements=list(statements or []),
        priors=dict(priors or {}),
        k=k,
        round=round_,
    )
    if target.get("document_ids"):  # a document named by its day: it alone, whatever its period
        task["document_ids"] = list(target["document_ids"])
    return task


# Document priors added to fused scores: the newest of several fiscal years restates the older ones
# (a 10-K shows three years), and adjusted figures or guidance are what earnings releases report.
NEWEST_PERIOD_PRIOR = 0.5


RELEASE_PRIOR = 0.2


REPORT_PRIOR = 0.1


NAMED_KIND_PRIOR = 0.2  # as a release's prior: what the question names is what it reads


def search_priors(
    target: Target, targets: list[Target], plan: Question, narrow: bool = True
) -> dict[str, float]:
    """Score priors for one target's sub-searches, by document kind ("*" for every kind): the newest of
    several years, the kind the question names, else a release for what releases report, else the
    report of the period named."""
    priors: dict[str, float] = {}
    years = [
        t
        for t in targets
        if t.get("ticker") == target.get("ticker")
        and t.get("fiscal_year")
        and t.get("fiscal_quarter") is None
    ]
    if len(years) > 1 and target is max(years, key=lambda t: t["fiscal_year"]):
        priors["*"] = NEWEST_PERIOD_PRIOR
    named = set(plan.named_kinds) if narrow else set()
    if named:
        # The kind the question names wins: "in its 10-K" over the release of the same period (whose
        # words — guidance, adjusted — would lift it), "the press release" over the 10-K of the year.
        priors |= dict.fromkeys(sorted(named), NAMED_KIND_PRIOR)
    elif plan.release:
        priors["earnings_release"] = RELEASE_PRIOR
    elif target.get("fiscal_year") and narrow and plan.time_specs:
        # "FY2022" means the annual report, "Q2 FY2024" the quarterly report. A question that names
        # no period says nothing about the kind of report: the latest one searched by default gets
        # no lift over the 8-Ks, releases or sections other rules search.
        if target.get("fiscal_quarter") is None:
            priors["10-K"] = priors["annual_report"] = REPORT_PRIOR
        else:
            priors["10-Q"] = REPORT_PRIOR
    return priors
