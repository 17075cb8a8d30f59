"""The support check of an answer's sentences: words, company, year, modality, causes, news."""

from __future__ import annotations

import pytest

from finagent.finance.check.answer_shape import unanswered
from finagent.finance.check.support import Passage, support_problem

NAMES = {"AAPL": ["Apple", "Apple Inc."], "MSFT": ["Microsoft"]}
MDNA = Passage(
    "10Q1",
    "Total net sales decreased 5% during the first quarter of 2023 compared to the same quarter in 2022, "
    "due primarily to lower net sales of iPhone, Mac and Wearables, Home and Accessories. "
    "Research and development expense increased due to higher headcount-related expenses.",
    ticker="AAPL",
    kind="10-Q",
    period="Q1 FY2023",
)
NEWS = Passage(
    "N1",
    "Could Apple acquire Peloton in 2024? Analysts say a deal might make sense for the iPhone maker.",
    ticker="AAPL",
    kind="news",
    period="2024-02-03",
)
RISK = Passage(
    "10K1",
    "New export controls could restrict our ability to sell data center products to China, which may "
    "harm our business and results of operations.",
    ticker="NVDA",
    kind="10-K",
    period="FY2024",
)
PASSAGES = {p.label: p for p in (MDNA, NEWS, RISK)}


def test_a_sentence_that_says_what_its_passage_says_stands() -> None:
    sentence = "Apple's net sales decreased 5% due to lower net sales of iPhone and Mac [10Q1]."
    assert support_problem(sentence, PASSAGES, NAMES) is None


def test_a_cause_the_passage_does_not_give_for_that_line_is_refused() -> None:
    sentence = (
        "Apple's net sales decline was driven by increased research and development expenses "
        "and higher headcount [10Q1]."
    )
    assert "cause" in (support_problem(sentence, PASSAGES, NAMES) or "")


def test_a_short_cited_sentence_is_held_to_its_passage() -> None:
    cover = Passage(
        "8K1",
        "FORM 8-K CURRENT REPORT Date of Report (Date of earliest event reported): December 2, 2024 "
        "Apple Inc. (Exact name of Registrant as specified in its charter) Commission File Number",
        ticker="AAPL",
        kind="8-K",
        period="Q1 FY2025",
    )
    invented = "Apple Inc. reported its Q1 financial results on December 2, 2024 [8K1]."
    said = "Apple Inc. filed a current report dated December 2, 2024 [8K1]."
    assert "not in the passage" in (support_problem(invented, {"8K1": cover}, NAMES) or "")
    assert support_problem(said, {"8K1": cover}, NAMES) is None


def test_a_sentence_with_no_citation_is_unsupported() -> None:
    assert support_problem("Apple reported record services revenue and margins.", PASSAGES, NAMES) == (
        "it cites no passage"
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "Apple announced that it would acquire Peloton in 2024.",
        "Apple will buy Peloton.",
        "Sales rose in 2023.",
    ],
)
def test_a_short_uncited_sentence_naming_someone_or_a_year_is_a_claim(sentence: str) -> None:
    assert support_problem(sentence, PASSAGES, NAMES) == "it cites no passage"


@pytest.mark.parametrize("sentence", ["In summary:", "Apple's answer follows.", "In February, sales rose."])
def test_a_short_uncited_connective_is_not_a_claim(sentence: str) -> None:
    assert support_problem(sentence, PASSAGES, NAMES) is None


def test_a_cause_given_for_this_needs_a_cause_the_passage_gives() -> None:
    """ "This was a result of …" names its effect only by "this": its cause must be one a passage gives."""
    invented = "This was a result of Apple's research and development work [10Q1]."
    given = "This was a result of lower net sales of iPhone and Mac [10Q1]."
    assert "cause" in (support_problem(invented, PASSAGES, NAMES) or "")
    assert support_problem(given, PASSAGES, NAMES) is None


def test_words_the_passage_does_not_carry_are_refused() -> None:
    sentence = "Apple filed for bankruptcy protection after its lenders withdrew financing [10Q1]."
    assert "not in the passage" in (support_problem(sentence, PASSAGES, NAMES) or "")


def test_speculation_stated_as_fact_is_refused_and_kept_modality_stands() -> None:
    asserted = "A news article reported Apple will acquire Peloton in 2024 [N1]."
    assert "possibility" in (support_problem(asserted, PASSAGES, NAMES) or "")
    hedged = "A news article of 2024-02-03 speculated that Apple could acquire Peloton in 2024 [N1]."
    assert support_problem(hedged, PASSAGES, NAMES) is None


@pytest.mark.parametrize(
    ("sentence", "why"),
    [
        ("Apple announced that it would acquire Peloton in 2024 [N1].", "company's own statement"),
        ("Apple's 8-K of December 2 said Apple could acquire Peloton in 2024 [N1].", "to a filing"),
    ],
)
def test_news_is_reported_as_news(sentence: str, why: str) -> None:
    assert why in (support_problem(sentence, PASSAGES, NAMES) or "")


def test_a_month_named_may_is_no_possibility() -> None:
    statement = Passage(
        "10K5",
        "Cost of sales for the fiscal year ended May 31, 2018 was $20,441 million, up from $17,405 million.",
        ticker="NKE",
        kind="10-K",
        period="FY2018",
    )
    sentence = "NIKE's cost of sales in fiscal 2018 was $20,441 million, up from $17,405 million [10K5]."
    assert support_problem(sentence, {"10K5": statement}, {"NKE": ["NIKE"]}) is None
    hedged = Passage("10K6", "Cost of sales may rise to $20,441 million in 2019.", ticker="NKE", kind="10-K")
    plain = "NIKE's cost of sales rise to $20,441 million in 2019 [10K6]."
    assert "possibility" in (support_problem(plain, {"10K6": hedged}, {"NKE": ["NIKE"]}) or "")


def test_a_risk_stated_without_its_could_is_refused() -> None:
    plain = "Export controls restrict sales of data center products to China and harm the business [10K1]."
    hedged = "Export controls could restrict sales of data center products to China [10K1]."
    assert "possibility" in (support_problem(plain, PASSAGES, NAMES) or "")
    assert support_problem(hedged, PASSAGES, NAMES) is None


def test_an_expectation_stated_as_what_happened_is_refused() -> None:
    """A forward-looking statement ("expects a gain") is not an outcome ("resulting in a gain")."""
    outlook = Passage(
        "10K2",
        "In 2016 the Company sold the assets of its safety prescription eyewear business. The Company "
        "expects a pre-tax gain of approximately $500 million in 2017 as a result of these divestitures. "
        "Sales came in lower than expected in Electronics and Energy. Health Care sales grew 2%, "
        "which the Company expects to continue.",
        ticker="MMM",
        kind="10-K",
        period="FY2016",
    )
    names = {"MMM": ["3M"]}
    stated = (
        "3M sold its safety prescription eyewear business, resulting in a pre-tax gain of approximately "
        "$500 million in 2017 [10K2]."
    )
    kept = "3M expects a pre-tax gain of approximately $500 million in 2017 from these divestitures [10K2]."
    missed = "3M's sales in Electronics and Energy came in lower [10K2]."
    grew = "3M's Health Care sales grew 2% [10K2]."  # the outlook is only the clause that looks ahead
    assert "possibility ('expects')" in (support_problem(stated, {"10K2": outlook}, names) or "")
    assert support_problem(kept, {"10K2": outlook}, names) is None
    assert support_problem(missed, {"10K2": outlook}, names) is None  # "than expected" is no outlook
    assert support_problem(grew, {"10K2": outlook}, names) is None


def test_another_company_or_year_than_the_passage_is_refused() -> None:
    other = "Microsoft's net sales decreased due to lower net sales of iPhone and Mac [10Q1]."
    assert "MSFT" in (support_problem(other, PASSAGES, NAMES) or "")
    year = "Apple's net sales decreased in 2021 due to lower net sales of iPhone and Mac [10Q1]."
    assert "2021" in (support_problem(year, PASSAGES, NAMES) or "")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "NVIDIA's latest 10-K [10K1] and [10K2] [10K3]      [1",
        "[10K1] [10K2].",
        "Revenue rose because of",
        "The information is incorporated herein by reference to the information set forth in Note 19 "
        "Legal proceedings of the Notes to Consolidated Financial Statements in Item 8 [10K1].",
        "See Note 12 of the Notes to Consolidated Financial Statements [10K1]. Refer to Item 7 [10K1].",
        "1. **Identify the total equity of JPM:** - From the 10-Q Q1 FY2021, Equity: $24,000 million "
        "[10Q2] \\[ \\] 4. **Conclusion:**",
        "The segments with the largest revenue were as follows:",
        "This figure is derived from the information provided in the 2023 364 Day Credit Agreement, "
        "which was terminated on May 27, 2022 [8K1].",
        "The amount of the cash proceeds from the separation of Kenvue is not provided in the given "
        "figures [8K2]. The information is missing from the evidence items provided [ER1].",
        "The provided passages do not mention a share buyback [10K1].",
    ],
)
def test_texts_that_are_not_answers(text: str) -> None:
    assert unanswered(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "No.",
        "Yes (revenue rose 5%).",
        "Apple's net sales decreased 5% on lower iPhone sales [10Q1].",
        "Talc claims are pending in New Jersey [10K1]. See Note 19 for the proceedings [10K1].",
        "This increase was driven by higher iPhone sales [10Q1].",
        "The 10-K does not disclose the amount [10K1].",
        "Net sales rose 5% [10Q1]. Gross margin is not provided in the evidence.",
    ],
)
def test_short_real_answers_are_answers(text: str) -> None:
    assert unanswered(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "NVIDIA's 10-K discusses U.S. export controls. They could harm sales [10K1].",
            ["NVIDIA's 10-K discusses U.S. export controls.", "They could harm sales [10K1]."],
        ),
        (
            "No. Apple Inc. (“Apple”) issued a press release [8K1].",
            ["No.", "Apple Inc. (“Apple”) issued a press release [8K1]."],
        ),
        (
            "Yes. Mary N. Dillon was the CEO of Ulta Beauty [8K1]. She joined in 2022.",
            ["Yes.", "Mary N. Dillon was the CEO of Ulta Beauty [8K1].", "She joined in 2022."],
        ),
    ],
)
def test_a_sentence_does_not_end_at_an_abbreviation(text: str, expected: list[str]) -> None:
    """Withholding a sentence cut at "U.S." would leave its tail ("export controls on its business."),
    and one cut at a middle initial ("Mary N.") is checked as two claims, neither whole."""
    from finagent.agent.answer.prose import sentences

    assert [s.strip() for _, s in sentences(text)] == expected


def test_a_passage_sentence_does_not_end_at_a_middle_initial() -> None:
    from finagent.finance.words import SENTENCE_BREAK

    text = "Mary N. Dillon, former CEO of Ulta Beauty, Inc., has been appointed. U.S. sales rose."
    assert SENTENCE_BREAK.split(text) == [
        "Mary N. Dillon, former CEO of Ulta Beauty, Inc., has been appointed.",
        "U.S. sales rose.",
    ]


def test_a_numbered_list_is_split_into_its_items_not_at_their_numbers() -> None:
    from finagent.agent.answer.prose import sentences

    text = "Net sales fell for these reasons: 1. Lower iPhone sales [10Q1]. 2. A stronger dollar [10Q1]."
    assert [s.strip() for _, s in sentences(text)] == [
        "Net sales fell for these reasons:",
        "1. Lower iPhone sales [10Q1].",
        "2. A stronger dollar [10Q1].",
    ]


@pytest.mark.parametrize(
    ("sentence", "why"),
    [
        ("The quick ratio improved from 0.59 to 0.36.", "'improved' does not fit the change from 0.59"),
        ("VaR was 7, which decreased from 7 to 7.", "from 7 to 7: it is no change"),
        ("Revenue rose from $1.2 billion to $980 million [10Q1].", "'rose' does not fit"),
        ("Gross margin declined from 5 to 7%.", "it is a rise"),
        ("Operating expenses worsened from 30% to 28% of sales.", "'worsened' does not fit"),
        # the first figure's period between them: "from 0.67 in FY2022 to 0.64 in FY2023"
        (
            "The quick ratio improved from 0.67 in FY2022 to 0.64 in FY2023.",
            "from 0.67 to 0.64: it is a fall",
        ),
        ("Margins fell from 20% in Q1 FY2023 to 25% in Q2 FY2023.", "'fell' does not fit"),
    ],
)
def test_a_change_against_its_own_figures_is_refused_cited_or_not(sentence: str, why: str) -> None:
    assert why in (support_problem(sentence, PASSAGES, NAMES, computed=True) or "")


@pytest.mark.parametrize(
    "sentence",
    [
        "Revenue fell from 6.1 to 5.2 billion.",  # the scale written once
        "Net loss decreased from $370 million to $120 million.",
        "The debt-to-equity ratio improved from 1.5 to 1.2.",  # debt: lower is better
        "Sales increased from 10 to 12 stores, while costs fell from 5 to 4.",
        "The plan increased equities from 20% to 30% and reduced bonds from 80% to 70%.",
        "The statutory rate will increase from 25% to 25.5% in 2017.",
        "The impact is a net decrease, ranging from $0.9 billion to $1.2 billion.",  # a range
        "Operating income increased from (5) to 3.",  # a sign written: not judged
        "The ratio changed from 0.5 to 0.6.",  # no direction said
    ],
)
def test_changes_that_agree_with_their_figures_stand(sentence: str) -> None:
    assert support_problem(sentence, PASSAGES, NAMES, computed=True) is None


def test_beside_computed_figures_only_a_sentence_stating_a_figure_may_go_uncited() -> None:
    """The figures check holds a figure; a claim about the passages with no figure must cite one."""
    figure = "Alphabet's revenue rose 13.9% to $350,018 million in 2024."
    claim = "Revenues by geography showed a slight increase in the United States, while Europe fell."
    dated = "Apple gave several reasons for the decline in the quarter ended July 1, 2023:"
    assert support_problem(figure, PASSAGES, NAMES, computed=True) is None
    assert support_problem(claim, PASSAGES, NAMES, computed=True) == "it cites no passage"
    assert support_problem(dated, PASSAGES, NAMES, computed=True) == "it cites no passage"


LEGAL = Passage(
    "10K4",
    "The Company is a defendant in a number of lawsuits, including putative class actions over usual and "
    "customary pricing, and opioid litigation brought by states and municipalities.",
    ticker="CVS",
    kind="10-K",
    period="FY2022",
)
FILING = Passage(
    "10K2",
    "We may acquire businesses and technologies that complement our products.",
    ticker="AAPL",
    kind="10-K",
    period="FY2024",
)
VERDICT_PASSAGES = {p.label: p for p in (LEGAL, FILING, NEWS)}
CVS = {"CVS": ["CVS", "CVS Health"], **NAMES}


def asked(question: str) -> frozenset[str]:
    """The question's words as analyze keeps them (``Ask.about``: five-letter prefixes)."""
    from finagent.finance.ask.asks import read_ask

    return frozenset(read_ask(question, [], {}, []).about)


def test_a_yes_that_restates_the_question_stands_on_the_answers_cited_sentences() -> None:
    from finagent.finance.check.support import is_verdict, verdict_problem

    question = "Has CVS Health reported any materially important ongoing legal battles from 2022?"
    sentence = "Yes, CVS Health has reported materially important ongoing legal battles in 2022."
    assert is_verdict(sentence) and not is_verdict(sentence[:-1] + " [10K4].")
    assert verdict_problem(sentence, VERDICT_PASSAGES, CVS, ["10K4"], asked(question)) is None
    # the years the question was resolved to are the question's too
    years = "Yes, CVS Health has reported materially important ongoing legal battles in 2022, 2021 and 2020."
    assert verdict_problem(years, VERDICT_PASSAGES, CVS, ["10K4"], asked(question) | {"2021", "2020"}) is None
    assert verdict_problem(years, VERDICT_PASSAGES, CVS, ["10K4"], asked(question)) == (
        "the year 2021 is not in the passage it cites"
    )
    # nothing of the answer stands to support it: it is a bare claim
    lone = verdict_problem(sentence, VERDICT_PASSAGES, CVS, [], asked(question))
    assert lone == "it gives a yes or no that no cited sentence of the answer supports"
    # words the question did not ask and no passage says are a claim of their own
    added = "Yes, CVS Health lost every legal battle and paid billions in fines in 2022."
    assert "are not in the passages the answer cites" in str(
        verdict_problem(added, VERDICT_PASSAGES, CVS, ["10K4"], asked(question))
    )


def test_a_yes_cannot_turn_a_rumour_or_an_unrelated_passage_into_an_announcement() -> None:
    from finagent.finance.check.support import verdict_problem

    question = "Did Apple announce that it would acquire Peloton in 2024?"
    sentence = "Yes, Apple announced that it would acquire Peloton in 2024."
    on_news = verdict_problem(sentence, VERDICT_PASSAGES, NAMES, ["N1"], asked(question))
    assert on_news is not None and ("news" in on_news or "possibility" in on_news)
    on_filing = verdict_problem(sentence, VERDICT_PASSAGES, NAMES, ["10K2"], asked(question))
    assert on_filing == "the name Peloton is not in the passages the answer cites"


QUICK = [
    {"kind": "formula", "metric": "quick ratio", "period": p, "result": v, "result_text": t}
    for p, v, t in (("FY2022", 0.587, "0.59"), ("FY2023", 0.364, "0.36"))
]
CHANGES = [
    {
        "metric": "Revenue",
        "from_period": "FY2022",
        "to_period": "FY2023",
        "result": 5.1,
        "result_text": "+5.1%",
    },
    {
        "metric": "Inventories",
        "from_period": "FY2022",
        "to_period": "FY2023",
        "result": -15.5,
        "result_text": "-15.5%",
    },
]


@pytest.mark.parametrize(
    ("sentence", "why"),
    [
        (
            "Yes, AMCOR's quick ratio improved between FY2023 and FY2022.",
            "'improved' does not fit the computed quick ratio",
        ),
        (
            "The quick ratio rose [10K1].",
            "'rose' does not fit the computed quick ratio: 0.59 in FY2022, 0.36 in FY2023",
        ),
        (
            "Revenue declined in FY2023.",
            "'declined' does not fit the computed Revenue: FY2022 to FY2023: +5.1%",
        ),
        ("Revenue grew, but inventories rose.", "'rose' does not fit the computed Inventories"),
    ],
)
def test_a_direction_the_computed_figures_contradict_is_refused(sentence: str, why: str) -> None:
    from finagent.finance.check.stated_change import against_computed

    assert str(against_computed(sentence, [*QUICK, *CHANGES])).startswith(why)


@pytest.mark.parametrize(
    "sentence",
    [
        "The quick ratio declined from FY2022 to FY2023.",
        "Revenue rose while inventories fell because of soft demand.",
        "Revenue and inventories rose.",  # two computed lines in one clause: not judged
        "Net debt rose in FY2023.",  # no computed line named
    ],
)
def test_directions_that_agree_or_cannot_be_read_stand(sentence: str) -> None:
    from finagent.finance.check.stated_change import against_computed

    assert against_computed(sentence, [*QUICK, *CHANGES]) is None


def test_only_the_answers_yes_or_no_is_held_to_the_computed_direction() -> None:
    """A driver sentence about a part ("Services net sales increased") is not the computed total's
    direction; the answer's yes or no about the line is."""
    from finagent.finance.check.support import yes_or_no_against_computed

    total = [{**CHANGES[0], "metric": "Total net sales", "result": -5.5, "result_text": "-5.5%"}]
    driver = "Services net sales increased due to higher advertising and cloud revenue [10Q1]."
    assert yes_or_no_against_computed(driver, total) is None
    verdict = "Yes, Apple's total net sales increased [10Q1]."
    assert str(yes_or_no_against_computed(verdict, total)).startswith("'increased' does not fit the computed")


def test_the_year_a_fiscal_year_ends_in_is_the_passages_year() -> None:
    """Home Depot's fiscal 2024 ended on February 2, 2025: a sentence may name either year."""
    from finagent.agent.answer.writing import citable

    item = {
        "label": "10K5",
        "text": "Net sales for fiscal 2024 increased 4.5% to $159.5 billion, driven by the SRS acquisition.",
        "ticker": "HD",
        "kind": "10-K",
        "period_label": "FY2024",
        "period_end": "2025-02-02",
    }
    sentence = "Net sales for the year ended February 2, 2025 increased, driven by the SRS acquisition [10K5]"
    names = {"HD": ["Home Depot"]}
    assert support_problem(sentence, citable([item], []), names) is None
    assert "2025" in (support_problem(sentence, citable([{**item, "period_end": None}], []), names) or "")


def test_an_answer_naming_no_cause_does_not_answer_what_drove_it() -> None:
    bare = "Apple's Services net sales increased in the quarter [10Q1]."
    assert unanswered(bare) is None
    assert unanswered(bare, drivers=True) == "it names no cause, and the question asks what drove it"
    for said in (
        "Services net sales increased due primarily to higher advertising revenue [10Q1].",
        "Growth came from higher iPhone sales [10Q1].",
        "Services contributed most of the increase [10Q1].",
        "Revenue rose on data center demand [10Q1].",
    ):
        assert unanswered(said, drivers=True) is None, said


@pytest.mark.parametrize(
    ("question", "drivers"),
    [
        ("What drove the change in Apple's revenue in the quarter ended December 31, 2022?", True),
        ("Why did Microsoft's gross margin change in the quarter ended March 31, 2023?", True),
        ("What factors drove Salesforce's subscription revenue growth?", True),
        ("Does Corning have positive working capital? If it is not a useful metric, explain why.", False),
        ("What does NVIDIA's 10-K say about its risk factors?", False),
        ("What share repurchases did Apple describe in its fiscal 2024 10-K?", False),
    ],
)
def test_a_question_asks_what_drove_something_only_in_so_many_words(question: str, drivers: bool) -> None:
    from finagent.agent.understand.vocabulary import asks_drivers

    assert asks_drivers(question) is drivers


def test_a_quote_of_its_passages_own_words_is_supported_whatever_it_explains() -> None:
    """A quoted answer's line is the passage's sentence: "As a result of the completion …" is the
    8-K's own words, not the answer's claim of a cause; a changed word is no quote."""
    release = Passage(
        "8K2",
        "As previously announced, the Company recently completed an exchange offer.\nAs a result of the "
        "completion of the exchange offer, Johnson & Johnson will now present its Consumer Health\nbusiness "
        "financial results as discontinued operations, including a gain of approximately $20 billion in "
        "the third quarter of 2023.",
        ticker="JNJ",
        kind="8-K",
        period="FY2023",
    )
    passages = {"8K2": release}
    names = {"JNJ": ["JNJ"]}  # the ticker alone, as a stored answer's citations give it
    quote = (
        "- Johnson & Johnson's 8-K for FY2023: “As a result of the completion of the exchange offer, Johnson "
        "& Johnson will now present its Consumer Health business financial results as discontinued "
        "operations, including a gain of approximately $20 billion in the third quarter of 2023.” [8K2]"
    )
    assert support_problem(quote, passages, names) is None
    changed = quote.replace("quarter of 2023", "quarter of 2021")  # no longer the passage's words
    assert "2021" in (support_problem(changed, passages, names) or "")


def test_a_figure_that_is_another_lines_in_its_passage_is_not_supported() -> None:
    """J&J's release gives $4,885 million as net earnings from continuing operations; a sentence giving
    it as the Kenvue cash proceeds names the right company, period and passage, and the wrong line."""
    statement = (
        "(Dollars in Millions)\nThe separation of Kenvue and the cash it brought are discussed below.\n"
        + "Cost of products sold\n6,530\n" * 12
        + "Net earnings/(loss) from Continuing Operations\n$\n(491)\n$\n5,376\n$\n4,885\n11.5 %\n"
    )
    release = "The Company generated $13.2 billion in cash proceeds from the Kenvue debt offering."
    passages = {
        "8K2": Passage("8K2", statement, "JNJ", "8-K", "FY2023"),
        "8K3": Passage("8K3", release, "JNJ", "8-K", "FY2023"),
    }
    names = {"JNJ": ["Johnson & Johnson", "JnJ"]}
    wrong = "The cash JnJ realised from the separation of Kenvue was $4,885 million [8K2]."
    assert (
        support_problem(wrong, passages, names)
        == "its figure $4,885 million is another line's in the passages"
    )
    # citing the release, which does not hold it, is no way round: it is read where it stands
    slip = "The cash proceeds JnJ realised from the Kenvue debt offering were $4,885 million [8K3]."
    assert (
        support_problem(slip, passages, names)
        == "its figure $4,885 million is another line's in the passages"
    )
    for right in (
        "JnJ's net earnings from continuing operations were $4,885 million [8K2].",
        "JnJ generated $13.2 billion in cash proceeds from the Kenvue debt offering [8K3].",
    ):
        assert support_problem(right, passages, names) is None, right


def test_a_table_cells_figure_is_named_by_its_row_and_its_tables_column_headings() -> None:
    """JPMorgan's segment table names its segments in the heading above its columns: the row's label
    ("Net income") is beside the cell, the segment's name is the table's heading."""
    table = (
        "Segment results\n"
        "Three months ended June 30, Consumer & Community Banking Corporate & Investment Bank\n"
        "(in millions) | 2022 | 2021 | 2022 | 2021\n"
        + "| Total noninterest expense | 7,723 | 7,062 | 6,745 | 6,523 |\n" * 6
        + "Net income/(loss) | 3,100 | 5,645 | 3,725 | 5,020\n"
    )
    passages = {"10Q5": Passage("10Q5", table, "JPM", "10-Q", "Q2 FY2022")}
    names = {"JPM": ["JPMorgan Chase", "JPM"]}
    segment = "Consumer & Community Banking earned $3,100 million in Q2 FY2022 [10Q5]."
    assert support_problem(segment, passages, names) is None
    other = "JPMorgan Chase's litigation reserve was $3,100 million in Q2 FY2022 [10Q5]."
    assert (
        support_problem(other, passages, names)
        == "its figure $3,100 million is another line's in the passages"
    )


def test_a_computed_figure_stands_on_its_computation_whatever_line_the_passage_gives_it() -> None:
    """Best Buy's gross margin of 22.5% is code's result; the 10-K it cites holds 22.5% only as its tax
    rate. The sentence is true: the computation, not the passage's line, carries it."""
    passages = {"10K1": Passage("10K1", "Effective income tax rate\n22.5%\n24.1%\n", "BBY", "10-K", "FY2023")}
    names = {"BBY": ["Best Buy"]}
    sentence = "The largest move was from FY2022 (22.5%) to FY2023 (21.4%) [10K1]."
    margin = {
        "ticker": "BBY",
        "metric": "gross_margin",
        "period": "FY2022",
        "result": 22.5,
        "unit": "percent",
    }
    assert (
        support_problem(sentence, passages, names) == "its figure (22.5%) is another line's in the passages"
    )
    assert support_problem(sentence, passages, names, calculations=[margin]) is None


@pytest.mark.parametrize(
    "sentence",
    [
        "Lower iPhone sales were likely a factor in the decrease in total net sales [10Q1].",
        "Higher headcount may have contributed to the increase in research and development [10Q1].",
        "The decrease in net sales appears to reflect weaker demand for iPhone and Mac [10Q1].",
    ],
)
def test_a_guess_no_passage_makes_is_the_writers_own_claim(sentence: str) -> None:
    assert "it guesses" in (support_problem(sentence, PASSAGES, NAMES) or "")


def test_a_guess_the_passage_makes_itself_stands_as_its_guess() -> None:
    guessed = Passage(
        "10Q2",
        "Total net sales decreased 5%, and lower demand for iPhone will likely persist into 2023.",
        ticker="AAPL",
        kind="10-Q",
        period="Q1 FY2023",
    )
    sentence = "Apple said lower demand for iPhone will likely persist into 2023 [10Q2]."
    assert support_problem(sentence, {"10Q2": guessed}, NAMES) is None


def test_a_two_letter_name_and_a_phrase_written_out_count_as_words() -> None:
    from finagent.finance.check.support import content_words

    assert {"ai", "eu"} <= content_words("What risks does Adobe flag around its use of AI in the EU?")
    assert "ai" in content_words("Our use of artificial intelligence could harm our reputation.")
    assert "cfo" in content_words("Kevan Parekh will become Chief Financial Officer.")
    assert "us" not in content_words("Sales in the US rose.")  # a word too, when written in capitals
