"""The parts of a company (segments, products, regions) as XBRL axis members: their names as users
know them, the parts a question names, the kind of part asked to drive a change, and the arithmetic of
which part drove it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from finagent.agent.understand.named_parts import asked_parts, part_driver
from finagent.finance.compute.part_changes import contributions, summing_members
from finagent.finance.read.xbrl.members import axis_kind, kind_of_word, member_names, qname_words

SEG = "us-gaap:StatementBusinessSegmentsAxis"
PROD = "srt:ProductOrServiceAxis"
GEO = "srt:StatementGeographicalAxis"

ROWS = [
    ("AAPL", PROD, "aapl:IPhoneMember", "iPhone"),
    ("AAPL", PROD, "aapl:WearablesHomeandAccessoriesMember", "Wearables, Home and Accessories"),
    ("AAPL", PROD, "us-gaap:ServiceMember", "Services"),
    ("AAPL", SEG, "aapl:GreaterChinaSegmentMember", "Net sales"),
    ("AAPL", SEG, "aapl:AmericasSegmentMember", "Net sales"),
    ("AAPL", GEO, "country:CN", "China (1)"),
    ("AAPL", GEO, "country:US", "U.S."),
    ("AMZN", SEG, "amzn:AmazonWebServicesSegmentMember", "Net sales"),
    ("AMZN", SEG, "amzn:AmazonWebServicesSegmentMember", "Operating income"),
    ("AMZN", SEG, "amzn:NorthAmericaSegmentMember", "Net sales"),
    ("AMZN", SEG, "amzn:NorthAmericaSegmentMember", "Operating income (loss)"),
    ("AMZN", PROD, "amzn:AmazonWebServicesMember", "AWS"),
    ("AMZN", PROD, "amzn:OnlineStoresMember", "Online stores (1)"),
]


def test_a_member_is_named_as_the_filing_prints_it_else_from_its_qname() -> None:
    names = member_names([r[1:] for r in ROWS if r[0] == "AAPL"])
    assert names[(PROD, "aapl:IPhoneMember")].label == "iPhone"  # the row label, not "I Phone"
    assert names[(PROD, "aapl:WearablesHomeandAccessoriesMember")].label == "Wearables, Home and Accessories"
    assert names[(GEO, "country:CN")].label == "China"  # the footnote mark dropped
    # "Net sales" is every segment's row: it names the line, so the QName names the part
    assert names[(SEG, "aapl:GreaterChinaSegmentMember")].label == "Greater China"
    amazon = member_names([r[1:] for r in ROWS if r[0] == "AMZN"])
    aws = amazon[(SEG, "amzn:AmazonWebServicesSegmentMember")]
    assert aws.label == "Amazon Web Services" and "AWS" in aws.names
    assert amazon[(PROD, "amzn:OnlineStoresMember")].label == "Online stores"


def test_axes_and_words_name_kinds_of_part() -> None:
    assert axis_kind(SEG) == "segment" and axis_kind(PROD) == "product" and axis_kind(GEO) == "geography"
    assert axis_kind("nke:GeographicRegionAxis") == "geography"
    assert axis_kind("us-gaap:PlanNameAxis") is None
    assert kind_of_word("Regions") == "geography" and kind_of_word("category") == "product"
    assert kind_of_word("colour") is None
    assert qname_words("goog:AmericasExcludingUnitedStatesMember") == "Americas excluding United States"


@pytest.mark.parametrize(
    ("question", "ticker", "expected"),
    [
        ("How did Amazon's AWS segment operating income change in 2024?", "AMZN", ("Amazon Web Services",)),
        ("What was Apple's iPhone revenue in fiscal 2024?", "AAPL", ("iPhone",)),
        ("How much revenue did Apple make from Greater China in FY2024?", "AAPL", ("Greater China",)),
        ("What were Apple's Services net sales in 2024?", "AAPL", ("Services",)),
        ("What was Apple's revenue from products and services in FY2024?", "AAPL", ()),
        ("What was Amazon's operating income in 2024?", "AMZN", ()),
    ],
)
def test_the_parts_a_question_names(question: str, ticker: str, expected: tuple[str, ...]) -> None:
    found = asked_parts(question, [ticker], ROWS)
    assert tuple(p.label for p in found) == expected


def test_a_segment_named_by_its_acronym_is_the_segment_not_the_product_category() -> None:
    (part,) = asked_parts("AWS operating income in 2024", ["AMZN"], ROWS)
    assert (part.kind, part.member) == ("segment", "amzn:AmazonWebServicesSegmentMember")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which product category drove Apple's net sales change in fiscal 2024?", "product"),
        ("Which of Amazon's segments contributed most to its operating income growth in 2024?", "segment"),
        ("What region drove the increase in Nike's revenue in fiscal 2025?", "geography"),
        ("What drove the change in Walmart's revenue in fiscal 2025?", ""),
        ("Which region had the biggest drop in revenues?", ""),
    ],
)
def test_the_kind_of_part_asked_to_drive_a_change(question: str, kind: str) -> None:
    assert part_driver(question) == kind


def test_the_parts_that_add_up_are_found_among_two_breakdowns() -> None:
    values = {
        "us-gaap:ProductMember": Decimal(60),
        "us-gaap:ServiceMember": Decimal(40),
        "x:StoresMember": Decimal(70),
        "x:CloudMember": Decimal(30),
    }
    assert summing_members(values, Decimal(100)) == (("x:StoresMember", "x:CloudMember"), True)
    assert summing_members({"x:A": Decimal(10), "x:B": Decimal(20)}, Decimal(100))[1] is False


def test_the_part_that_moved_the_total_most_ranks_first_with_its_share() -> None:
    ranked = contributions(
        [("Mac", Decimal(29357), Decimal(29984)), ("Services", Decimal(85200), Decimal(96169))],
        Decimal(11596),
    )
    assert [c.label for c in ranked] == ["Services", "Mac"]
    assert ranked[0].change == Decimal(10969) and round(ranked[0].share or 0, 1) == 94.6
    falling = contributions([("A", Decimal(10), Decimal(4)), ("B", Decimal(10), Decimal(9))], Decimal(-7))
    assert falling[0].label == "A"


def test_a_part_printed_after_its_lines_name_is_named_by_its_own_words() -> None:
    rows = [
        ("HD", GEO, "us-gaap:NonUsMember", "Net sales – outside the U.S."),
        ("HD", GEO, "country:US", "Net sales – in the U.S."),
        ("HD", PROD, "aapl:IPadMember", "iPad®"),
    ]
    (part,) = asked_parts("What were Home Depot's net sales outside the U.S. in fiscal 2024?", ["HD"], rows)
    assert part.label == "Net sales – outside the U.S."
    assert member_names([r[1:] for r in rows])[(PROD, "aapl:IPadMember")].label == "iPad"  # no trademark sign


def test_segments_tagged_also_as_operating_segments_are_parts_and_a_renamed_member_is_one_part() -> None:
    """NVIDIA's FY2025 10-K tags each segment's revenue on the segment axis and, as segment notes do
    since 2024, as the operating segments' own figure: that qualifier does not make it two parts."""
    from finagent.agent.answer.part_figures import breakdown
    from finagent.finance.lines import REPORTED
    from finagent.finance.read.lookup import PeriodWanted
    from finagent.ingest.ixbrl import parse_ixbrl_html
    from tests.conftest import require_shared
    from tests.helpers import as_stored

    path = require_shared("filings", "edgar", "NVDA", "10-K", "nvda-10-k-2025-02-26.html")
    facts = as_stored(parse_ixbrl_html(path).facts, "NVDA", "NVDA|10-K|2025-01-26")
    found = breakdown(facts, "NVDA", REPORTED["revenue"], PeriodWanted(2025), "segment")
    assert found is not None and found.sums
    assert {p.label: p.figure.value / 10**6 for p in found.parts} == {
        "Compute and Networking": 116193,
        "Graphics": 14304,
    }
    assert found.part("nvda:GraphicsMember", "Graphics") is not None  # an earlier filing's member name


def test_a_part_named_with_an_ampersand_is_the_part_named_with_and() -> None:
    rows = [("NVDA", SEG, "nvda:ComputeAndNetworkingSegmentMember", "Revenue")]
    (part,) = asked_parts("How did NVIDIA's Compute & Networking operating income change?", ["NVDA"], rows)
    assert part.label == "Compute and Networking"


def test_a_parts_own_figure_beats_the_operating_segments_figure_of_it_and_spans_are_read() -> None:
    """Exxon Mobil's income statement prints "Sales and other operating revenue" (a product member of
    Revenues, 170,397 for the six months); its segment note tags the segments' sum of it (170,348)."""
    from datetime import date
    from decimal import Decimal

    from finagent.agent.answer.part_figures import member_figure
    from finagent.finance.fact_records import StoredFact
    from finagent.finance.lines import REPORTED
    from finagent.finance.read.lookup import PeriodWanted

    sales = f"{PROD}=xom:SalesAndOtherOperatingRevenueMember"

    def stored(id_: int, dims: str, millions: int) -> StoredFact:
        return StoredFact(
            id=id_,
            ticker="XOM",
            concept="us-gaap:Revenues",
            value=Decimal(millions) * 10**6,
            unit="USD",
            decimals=-6,
            period_start=date(2024, 1, 1),
            period_end=date(2024, 6, 30),
            duration="six_months",
            fiscal_year=2024,
            fiscal_quarter=2,
            dims_key=dims,
            label="Sales and other operating revenue",
            statement="income_statement",
        )

    facts = [stored(1, f"srt:ConsolidationItemsAxis=us-gaap:OperatingSegmentsMember;{sales}", 170348)]
    wanted = PeriodWanted(2024, 2, "6M")
    args = (REPORTED["revenue"], wanted, PROD, "xom:SalesAndOtherOperatingRevenueMember")
    alone = member_figure(facts, "XOM", *args)
    assert alone is not None and alone.value == Decimal(170348) * 10**6  # the segments' figure, when alone
    both = member_figure([*facts, stored(2, sales, 170397)], "XOM", *args)
    assert both is not None and both.value == Decimal(170397) * 10**6
