"""Quoted answers: which of the passages' sentences answer, and in what order."""

from __future__ import annotations

from typing import Any

from finagent.agent.answer.quotes import driver_lines, quoted_answer
from finagent.agent.evidence import query_terms
from finagent.finance.words import names_in

QUESTION = "What drove Google Cloud revenue growth in Alphabet's 2024 10-K?"
NAMES = {"GOOGL": ["Alphabet", "Alphabet Inc."]}


def _spoken(label: str, speaker: str, text: str) -> dict[str, object]:
    """A passage of a call: its section is its speaker."""
    return {"label": label, "text": text, "ticker": "CTSO", "kind": "transcript", "section": speaker}


def _item(label: str, text: str) -> dict[str, object]:
    return {"label": label, "text": text, "ticker": "GOOGL", "kind": "10-K", "period_label": "FY2024"}


def test_the_names_a_question_writes_are_its_capitalised_words_but_the_first() -> None:
    assert names_in(QUESTION) == ["Google", "Cloud", "Alphabet"]
    assert names_in("Which region had the worst topline performance in March 2023?") == []


def test_a_sentence_naming_the_line_the_question_names_is_quoted_first() -> None:
    items = [
        _item("10K1", "Revenue growth was driven by higher advertising revenue across our businesses."),
        # no word of growth: "increased" is "growth" to the support check, which would share it
        _item("10K2", "Cloud revenues benefited from infrastructure demand from enterprise customers."),
    ]
    terms = query_terms([QUESTION])
    best = quoted_answer(items, terms, NAMES, why=True, limit=1, named=names_in(QUESTION))
    assert "“Cloud revenues benefited from infrastructure demand" in best
    unnamed = quoted_answer(items, terms, NAMES, why=True, limit=1)
    assert "“Revenue growth was driven by higher advertising revenue" in unnamed
    both = quoted_answer(items, terms, NAMES, why=True, named=names_in(QUESTION)).splitlines()
    assert [line[-6:] for line in both[1:]] == ["[10K2]", "[10K1]"]


def test_the_companys_own_name_counts_for_no_line() -> None:
    items = [
        _item("10K1", "Revenue rose on higher demand from enterprise customers."),
        _item("10K2", "Alphabet revenue rose on higher demand."),
    ]
    best = quoted_answer(items, ["revenue"], NAMES, limit=1, named=["Alphabet"])
    assert "[10K1]" in best


def test_the_part_a_question_asks_the_revenue_of_is_read_but_not_a_company() -> None:
    from finagent.finance.words import line_names, parts_named

    assert line_names("What did Apple say about its Services net sales in 2023?") == ["Services"]
    assert line_names("What drove Amazon Web Services segment sales?") == ["Amazon Web Services"]
    assert line_names("What drove the change in Apple's revenue in 2022?") == []
    # a period is no part: "defined as: FY2020 revenue / (average total assets ...)"
    assert line_names("Asset turnover is defined as: FY2020 revenue / average total assets.") == []
    assert line_names("What was Q1 FY2024 net sales of its Services?") == []
    # a part in lower case, after its owner; words that only qualify the whole name no part
    assert line_names("Did NVIDIA's data center revenue more than double?") == ["data center"]
    assert line_names("What were Tesla's automotive sales in 2023?") == ["automotive"]
    assert line_names("How did Apple's iPhone revenue change?") == ["iPhone"]
    for whole in ("Apple's quarterly revenue", "its total net sales", "Walmart's comparable sales"):
        assert line_names(f"What was {whole} in 2023?") == [], whole
    assert line_names("What is Microsoft's deferred revenue?") == []
    assert line_names("How has Apple's revenue from iPhone sales fluctuated?") == []  # no owner's part
    names = {"WMT": ["Walmart", "Walmart Inc."], "AMZN": ["Amazon", "Amazon.com"]}
    assert parts_named(line_names("Did Walmart sales grow in 2024?"), names) == []
    assert parts_named(["Amazon Web Services", "AMZN"], names) == ["Amazon Web Services"]


def test_a_forecast_is_found_by_the_year_it_looks_to() -> None:
    """Asked what Boeing forecasts for FY2023, its 10-K for 2022 says what it expects in 2023."""
    items = [
        _item("10K1", "Changes to the expected delivery schedule could result in additional consideration."),
        _item(
            "10K2",
            "The 787 program is producing at low rates and we expect to increase to 5 per month in 2023.",
        ),
    ]
    terms = query_terms(["What production rate changes is Boeing forecasting for FY2023?"])
    assert "[10K1]" in quoted_answer(items, terms, {}, limit=1)
    assert "[10K2]" in quoted_answer(items, terms, {}, limit=1, ahead=["2023"])
    # the year of the report itself is no forecast's
    dated = [{**item, "fiscal_year": 2023} for item in items]
    assert "[10K1]" in quoted_answer(dated, terms, {}, limit=1, ahead=["2023"])


def test_labels_of_passages_added_later_follow_the_ones_given() -> None:
    from finagent.agent.evidence import assign_labels

    given = [
        {"kind": "10-K", "label": "10K1"},
        {"kind": "10-K", "label": "10K2"},
        {"kind": "news", "label": "N1"},
    ]
    added = assign_labels([{"kind": "10-K"}, {"kind": "news"}, {"kind": "10-Q"}], after=given)
    assert [a["label"] for a in added] == ["10K3", "N2", "10Q1"]


def test_a_sentence_that_points_elsewhere_is_never_quoted() -> None:
    items = [
        _item(
            "10K1",
            "The information called for by this item is incorporated herein by reference to Note 19 Legal "
            "proceedings. Talc claims against the company are pending in federal and state courts.",
        )
    ]
    quoted = quoted_answer(items, ["legal", "proceedings", "talc"], NAMES, limit=2)
    assert "Talc claims against the company are pending" in quoted
    assert "incorporated" not in quoted


def test_a_sentence_about_another_fiscal_year_than_its_reports_is_not_quoted() -> None:
    item = {
        **_item(
            "10K1",
            "For fiscal 2025, comparable sales growth was driven by growth in transactions and unit volumes. "
            "For fiscal 2024, comparable sales growth was driven by growth in average ticket.",
        ),
        "fiscal_year": 2025,
    }
    quoted = quoted_answer([item], ["comparable", "sales", "growth", "drove"], {"WMT": ["Walmart"]}, why=True)
    assert "For fiscal 2025, comparable sales growth" in quoted and "fiscal 2024" not in quoted
    undated = quoted_answer([{**item, "fiscal_year": None}], ["comparable", "sales"], {}, limit=2)
    assert "fiscal 2024" in undated


def test_a_part_ending_in_s_owns_with_an_apostrophe() -> None:
    from finagent.agent.answer.wording import owned

    assert (owned("Services"), owned("Google Cloud")) == ("Services'", "Google Cloud's")


def test_an_8k_s_own_account_of_its_event_is_quoted_before_the_exhibit_filed_under_it() -> None:
    """PepsiCo's 8-K: Item 8.01 says what it may borrow; the credit agreement filed as its exhibit
    repeats the question's words on every page."""
    question = "What is the total amount PepsiCo may borrow under its unsecured revolving credit agreements?"
    names = {"PEP": ["PepsiCo", "PepsiCo, Inc."]}
    exhibit = {
        "label": "8K1",
        "kind": "8-K",
        "ticker": "PEP",
        "section": "item_9_01",
        "text": "The Borrowers may borrow revolving credit advances under this unsecured revolving credit "
        "agreement, in a total amount not to exceed the Commitments.",
    }
    event = exhibit | {
        "label": "8K2",
        "section": "item_8_01",
        "text": "The 2023 Five Year Credit Agreement enables PepsiCo and its borrowing subsidiaries to "
        "borrow up to $4,200,000,000 in unsecured revolving credit.",
    }
    quoted = quoted_answer([exhibit, event], query_terms([question]), names, limit=2).splitlines()
    assert quoted[1].endswith("[8K2]") and "borrow up to $4,200,000,000" in quoted[1]
    assert quoted[2].endswith("[8K1]")


def _amcor_8k(text: str) -> dict[str, Any]:
    return {
        "label": "8K1",
        "kind": "8-K",
        "ticker": "AMCR",
        "period_label": "FY2022",
        "section": "item_8_01",
        "text": text,
    }


def test_an_8k_whose_sentences_share_no_word_of_the_question_is_answered_by_its_own_items() -> None:
    """ "What was the key agenda of AMCOR's 8-K dated July 1, 2022?": no sentence says "agenda"; what
    the 8-K reports is its Item 8.01, quoted with its heading, never the exhibit list of Item 9.01."""
    event = _amcor_8k(
        "Item 8.01 Other Events. On June 30, 2022, Amcor Finance (USA), Inc. and Amcor Flexibles "
        "North America, Inc. entered into a Second Supplemental Indenture. The indentures are filed as "
        "exhibits."
    )
    exhibits = event | {
        "label": "8K2",
        "section": "item_9_01",
        "text": "Item 9.01 Financial Statements and Exhibits. Exhibit No. Description 4.1 Indenture, dated "
        "as of April 28, 2016.",
    }
    answer = quoted_answer([exhibits, event], ["key", "agenda", "filing"], {"AMCR": ["Amcor"]})
    assert answer.splitlines()[1:] == [
        "- AMCR's 8-K for FY2022, Item 8.01 Other Events: “On June 30, 2022, Amcor Finance (USA), Inc. "
        "and Amcor Flexibles North America, Inc. entered into a Second Supplemental Indenture.” [8K1]"
    ]


def test_pieces_of_sentences_are_never_quoted() -> None:
    items = [
        _item("10K1", "Percentages in chart are as a percent to total sales) Cost of Products S"),
        _item("10K2", "Consumer Health) July 2023 (incl."),
        _item("10K3", "Cost of products sold increased as a percent to total sales (55.1%) in 2022."),
    ]
    answer = quoted_answer(items, ["cost", "products", "sales", "consumer", "health"], NAMES)
    assert answer.splitlines()[1:] == [
        "- Alphabet Inc.'s 10-K for FY2024: “Cost of products sold increased as a percent to total "
        "sales (55.1%) in 2022.” [10K3]"
    ]


def test_a_passage_starting_mid_sentence_and_a_sentence_quoted_twice_are_quoted_once_whole() -> None:
    """Passages overlap: the next one may open inside a sentence the last one holds whole; a table's
    lead-in ("… as follows:") says nothing itself."""
    whole = (
        "Cloud revenues increased in 2024, except in Japan, where Cloud revenues decreased due to lower "
        "infrastructure demand."
    )
    items = [
        _item("10K1", f"Segment results. {whole}"),
        _item("10K2", "except in Japan, where Cloud revenues decreased due to lower infrastructure demand."),
        _item("10K3", "and Cloud revenue growth was driven by enterprise customers."),
        _item("10K5", "Cloud revenue growth information is as follows (in millions): Three Months Ended:"),
        _item("10K4", "iPhone-style Cloud devices were not sold; Cloud revenue growth came from AI demand."),
    ]
    terms = query_terms([QUESTION])
    lines = quoted_answer(items, terms, NAMES, why=True, named=names_in(QUESTION)).splitlines()[1:]
    assert sorted(line[-6:] for line in lines) == ["[10K1]", "[10K4]"]  # a brand ("iPhone") opens a sentence


def test_an_8k_items_long_legal_sentence_is_quoted_to_a_clause_break_and_marked_shortened() -> None:
    clause = "the guarantors party thereto and Deutsche Bank Trust Company Americas, as trustee, "
    event = _amcor_8k(
        "Item 8.01 Other Events. On June 30, 2022, Amcor Finance (USA), Inc. entered into a Second "
        "Supplemental Indenture with " + clause * 12 + "governing its notes."
    )
    (line,) = quoted_answer([event], ["agenda"], {}).splitlines()[1:]
    assert line.startswith("- AMCR's 8-K for FY2022, Item 8.01 Other Events: “On June 30, 2022, Amcor")
    assert line.endswith(" …” [8K1]") and len(line) < 600
    quoted = line.split("“", 1)[1].removesuffix(" …” [8K1]")
    assert event["text"].startswith(f"Item 8.01 Other Events. {quoted}")  # word for word, cut at a comma
    assert event["text"][len("Item 8.01 Other Events. ") + len(quoted)] == ","


def test_an_issue_of_notes_is_quoted_without_its_defined_terms_up_to_the_last_notes() -> None:
    """An 8-K's Item listing every series of notes issued: the parentheses naming each series' defined
    term are left out of the long sentence, so the last series comes before the cut."""
    series = [("1,000,000,000", "3.100%", "2027"), ("750,000,000", "3.650%", "2031")]
    series += [("1,250,000,000", "4.200%", "2036"), ("500,000,000", "4.900%", "2055")]
    listed = ", ".join(
        f"${amount} aggregate principal amount of its {rate} Senior Notes due {year} (the “{year} Notes”)"
        for amount, rate, year in series
    )
    event = _amcor_8k(
        f"Item 8.01 Other Events. On March 3, 2026, Fabrikam, Inc. (“Fabrikam”) completed the sale of "
        f"{listed}, pursuant to an underwriting agreement (the “Underwriting Agreement”) dated February "
        "27, 2026 among Fabrikam and the underwriters named therein, each as representatives of the "
        "several underwriters."
    )
    (line,) = quoted_answer([event], ["agenda"], {}).splitlines()[1:]
    assert "4.900% Senior Notes due 2055" in line and "(the “2027 Notes”)" not in line
    assert "Fabrikam, Inc. completed the sale of $1,000,000,000 aggregate principal amount" in line


def test_a_sentence_sharing_half_the_best_ones_words_or_fewer_is_not_quoted() -> None:
    """J&J's 8-K of August 30, 2023: the release's opening gives the gain; the Item that points to the
    release shares fewer of the question's words but is the filing's own account; a release's closing
    line ("www.jnj.com") shares one and answers nothing."""
    question = (
        "What is the amount of the gain accruing to JnJ as a result of the separation of its Consumer "
        "Health business segment, as of August 30, 2023?"
    )
    item = {
        "label": "8K1",
        "kind": "8-K",
        "ticker": "JNJ",
        "period_label": "FY2023",
        "section": "item_2_02",
        "text": "On August 30, 2023, Johnson & Johnson issued the attached press release (Exhibit 99.1) "
        "providing updated financials and 2023 guidance following completion of the Kenvue Separation.",
    }
    release = item | {
        "label": "8K2",
        "section": "item_9_01",
        "text": "Exhibit 99.1\nJohnson & Johnson Announces Updated Financials\nAs a result of the completion "
        "of the exchange offer, Johnson & Johnson will now present its Consumer Health business financial "
        "results as discontinued operations, including a gain of approximately $20 billion in the third "
        "quarter of 2023.",
    }
    closing = item | {
        "label": "ER1",
        "kind": "earnings_release",
        "section": None,
        "text": "Copies of these filings are available online at www.sec.gov, www.jnj.com or on request "
        "from Johnson & Johnson.",
    }
    names = {"JNJ": ["Johnson & Johnson", "JnJ"]}
    lines = quoted_answer([closing, item, release], query_terms([question]), names).splitlines()[1:]
    assert [line[-5:] for line in lines] == ["[8K2]", "[8K1]"]
    assert "a gain of approximately $20 billion" in lines[0]
    alone = quoted_answer([closing], query_terms([question]), names)
    assert "www.jnj.com" in alone  # the best there is, when nothing answers better


def test_a_sentence_after_a_closing_quotation_mark_is_quoted_on_its_own() -> None:
    """A release's CEO quotation ends with the period inside the quotation mark; the sentence giving the
    proceeds after it is its own sentence, not the quotation's tail."""
    release = _item(
        "8K2",
        "“We are incredibly proud of the focus and dedication of our employees worldwide to achieve this "
        "milestone.” Johnson & Johnson realized cash proceeds of $13.2 billion from the Kenvue separation.",
    ) | {"ticker": "JNJ", "kind": "8-K", "period_label": "FY2023"}
    question = "What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?"
    names = {"JNJ": ["Johnson & Johnson", "JnJ"]}
    lines = quoted_answer([release], query_terms([question]), names, limit=1).splitlines()[1:]
    assert lines == [
        "- JnJ's 8-K for FY2023: “Johnson & Johnson realized cash proceeds of $13.2 billion from the "
        "Kenvue separation.” [8K2]"
    ]


def test_a_question_asking_what_a_company_forecasts_is_answered_by_what_it_expects() -> None:
    """Filings say what a company expects or plans; a question asks what it forecasts. The industry
    body's own "forecasts" sentence shares one word and answers nothing about the company's plans."""
    items = [
        _item(
            "10K1",
            "For 2023, IATA is forecasting $4.6 billion in profits for the industry globally.",
        ),
        _item(
            "10K2",
            "The 787 program is currently producing at low rates and we expect to gradually increase to 5 "
            "per month in 2023. We plan to gradually increase 737 production rates based on market demand.",
        ),
    ]
    question = "What production rate changes is Boeing forecasting for FY2023?"
    lines = quoted_answer(items, query_terms([question]), {"BA": ["Boeing"]}).splitlines()[1:]
    # the plan that follows in its paragraph is quoted with it, once
    assert [line[-6:] for line in lines] == ["[10K2]"]
    assert (
        "we expect to gradually increase to 5 per month in 2023. We plan to gradually increase 737"
        in lines[0]
    )


def test_asked_what_drove_a_line_only_the_sentences_explaining_that_line_are_quoted() -> None:
    text = (
        "Revenues increased $2.4 billion, driven by higher search volumes and new subscriptions. "
        "Operating expenses as a percentage of revenues rose 40 basis points. "
        "The increase was primarily due to higher headcount in research. "
        "Cost of revenues grew because of higher data center depreciation."
    )
    items = [{**_item("10K1", text), "fiscal_year": 2024}]
    question = "What drove the change in Alphabet's revenue in 2024?"
    terms = query_terms([question])
    quoted = quoted_answer(items, terms, NAMES, why=True, drivers=driver_lines(["revenue"]))
    assert "“Revenues increased $2.4 billion, driven by higher search volumes" in quoted
    assert "headcount" not in quoted and "depreciation" not in quoted
    opex = quoted_answer(items, terms, NAMES, why=True, drivers=driver_lines(["operating_expenses"]))
    assert "“Operating expenses as a percentage of revenues rose 40 basis points. The increase was" in opex
    assert quoted_answer(items, terms, NAMES, why=True, drivers=driver_lines(["net_income"])) == ""


def test_a_margins_drivers_are_its_first_lines() -> None:
    assert [line.name for line in driver_lines(["gross_margin", "revenue", "no such metric"])] == [
        "gross_profit",
        "revenue",
    ]


def _said(text: str, question: str, **options: Any) -> str:
    names = {"NKE": ["Nike", "NIKE, Inc."]}
    items = [{"label": "8K1", "text": text, "ticker": "NKE", "kind": "8-K", "period_label": "Q1 FY2025"}]
    return quoted_answer(items, query_terms([question]), names, named=names_in(question), **options)


SUCCESSION = (
    "Item 5.02 Departure of Certain Officers.\n\n"
    "On September 19, 2024, NIKE, Inc. announced that John Donahoe will retire as President and CEO "
    "effective October 13, 2024. Elliott Hill will succeed him as President and Chief Executive Officer. "
    "Mr. Hill previously served as President of Consumer and Marketplace.\n\n"
    "The Company also announced changes to its Board of Directors."
)


def test_the_best_quote_keeps_what_follows_it_in_its_paragraph_and_no_more() -> None:
    """The successor is named in the next sentences, which never repeat the question's words; the next
    paragraph is another matter."""
    said = _said(SUCCESSION, "Who is replacing John Donahoe as Nike's CEO?")
    assert "“On September 19, 2024, NIKE, Inc. announced that John Donahoe will retire" in said
    assert "Elliott Hill will succeed him as President and Chief Executive Officer." in said
    assert "Consumer and Marketplace.” [8K1]" in said
    assert "Board of Directors" not in said


def test_a_signature_names_an_officer_but_is_never_the_answer() -> None:
    signed = (
        "Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly "
        "caused this report to be signed. By: /s/ Matthew Friend, Chief Financial Officer of NIKE, Inc."
    )
    assert _said(signed, "Who is Nike's CFO?") == ""
    assert "Matthew Friend" in _said(
        "Matthew Friend is the Chief Financial Officer of NIKE, Inc.", "Who is Nike's CFO?"
    )


def test_asked_where_a_matter_stands_its_latest_development_is_quoted_first() -> None:
    history = (
        "In June 2022, the plaintiffs filed the antitrust lawsuit against Nike in federal court. "
        "On February 3, 2025, the court granted Nike's motion and dismissed the antitrust lawsuit."
    )
    question = "Where does the antitrust lawsuit against Nike stand?"
    latest = _said(history, question, limit=1, recent=True)
    assert "“On February 3, 2025, the court granted" in latest, latest
    assert "“In June 2022" in _said(history, question, limit=1)


def test_the_latest_development_is_quoted_though_it_repeats_no_word_of_the_question() -> None:
    history = (
        "In June 2022, the plaintiffs filed the antitrust lawsuit against Nike in federal court. "
        "Discovery continued through 2023. On February 3, 2025, the court granted the motion to dismiss."
    )
    question = "Where does the antitrust lawsuit against Nike stand?"
    said = _said(history, question, recent=True)
    assert said.splitlines()[1].startswith(
        "- NIKE, Inc.'s 8-K for Q1 FY2025: “On February 3, 2025, the court"
    ), said
    unasked = _said(history, question)  # not asked where it stands: the best-matching sentence first
    assert unasked.splitlines()[1].startswith("- NIKE, Inc.'s 8-K for Q1 FY2025: “In June 2022"), unasked


def test_an_opening_that_is_a_name_or_heading_copied_is_no_sentence() -> None:
    from finagent.agent.answer.extractive import _without_copies

    lead = "AMCOR FINANCE (USA), INC [8K2]. Kevan Parekh will become CFO [8K1]."
    assert _without_copies(lead, []) == "Kevan Parekh will become CFO [8K1]."


def test_a_quarters_outlook_is_quoted_as_its_list_whatever_its_quarter_is_called() -> None:
    """ "Q2" asked, "second quarter" written; the outlook a list of what is expected, read together:
    the first item with the items after it, not the caveat that repeats "guidance"."""
    items = [
        {
            **_item(
                "10Q1",
                "Second Quarter 2024 Outlook\n\n"
                "• Revenue is expected to be between $9.1 billion and $9.4 billion in the second quarter.\n\n"
                "• Operating margin is expected to be between 21% and 23%.\n\n"
                "This outlook does not reflect any acquisitions that may close in the quarter.",
            ),
            "kind": "10-Q",
            "fiscal_year": 2024,
            "ticker": "BKNG",
        }
    ]
    question = "What did Booking Holdings guide for Q2 2024 revenue in its first-quarter 10-Q?"
    terms = query_terms([question])
    assert "q2" in terms
    names = {"BKNG": ["BKNG", "Booking Holdings"]}
    lines = quoted_answer(items, terms, names, forecast=True).splitlines()[1:]
    assert lines[0].startswith(
        "- Booking Holdings' 10-Q for FY2024: “• Revenue is expected to be between $9.1 billion"
    )
    assert "• Operating margin is expected to be between 21% and 23%." in lines[0]
    assert len(lines) == 1 or "expected to be between $9.1" not in lines[1]


def test_a_table_row_whose_cell_is_prose_is_quoted_as_written_and_a_row_of_figures_is_not() -> None:
    """The executive officers' table gives each officer's career in a cell: asked when someone took
    over, that row is the answer, quoted as the filing prints it; a row of figures is no sentence."""
    item = {
        **_item(
            "10K1",
            "Name | Age | Position and business experience\n"
            "Jane Q. Fraser | 57 | Chief Executive Officer since March 1, 2021. Ms. Fraser previously served "
            "as President and Head of Global Consumer Banking from October 2019 to February 2021.\n"
            "Total headcount | 239,000 | 240,000 | 238,000",
        ),
        "ticker": "C",
    }
    question = "When did Jane Fraser become Citigroup's CEO, and what did she do before?"
    lines = quoted_answer([item], query_terms([question]), {"C": ["C", "Citigroup"]}).splitlines()[1:]
    assert lines == [
        "- Citigroup's 10-K for FY2024: “Jane Q. Fraser | 57 | Chief Executive Officer since March 1, "
        "2021. Ms. Fraser previously served as President and Head of Global Consumer Banking from "
        "October 2019 to February 2021.” [10K1]"
    ]


def test_the_latest_development_is_the_named_matters_not_a_later_one_of_another_case() -> None:
    """Asked where the matter it names stands: the latest dated sentence of the passages writing that
    name (or its abbreviation: "the FTC"), not another case's later ruling in the same note."""
    names = {"AMZN": ["Amazon", "Amazon.com, Inc."]}
    items = [
        {
            "label": "10Q1",
            "ticker": "AMZN",
            "kind": "10-Q",
            "period_label": "Q2 FY2024",
            "text": "Beginning in 2020, a trade association filed a case against us in Texas over cloud "
            "storage. On July 15, 2024, the jury in the trade association's case found no infringement.",
        },
        {
            "label": "10Q2",
            "ticker": "AMZN",
            "kind": "10-Q",
            "period_label": "Q2 FY2024",
            "text": "In September 2023, the Federal Trade Commission and state attorneys general filed an "
            "antitrust case against us in Washington. On June 20, 2024, the court denied in part our "
            "motion to dismiss the FTC case.",
        },
    ]
    question = "Where does the Federal Trade Commission's case against Amazon stand?"
    said = quoted_answer(items, query_terms([question]), names, named=names_in(question), recent=True)
    first = said.splitlines()[1]
    assert first.startswith(
        "- Amazon.com, Inc.'s 10-Q for Q2 FY2024: “On June 20, 2024, the court denied in part our motion"
    ), said


def test_a_day_after_the_report_was_filed_is_a_plan_not_the_latest_development() -> None:
    """A 10-Q for the quarter ended June 2025 writes the trials it expects in 2026: where the matter
    stands is what had happened by then (the dismissal), not the plan."""
    history = (
        "In January 2025, the plaintiffs filed the antitrust lawsuit against Nike in federal court. "
        "On May 12, 2025, the court dismissed the antitrust lawsuit in part. "
        "Trials on the remaining antitrust claims are scheduled for March 2026."
    )
    item = {"label": "10Q1", "text": history, "ticker": "NKE", "kind": "10-Q", "period_label": "Q4 FY2025"}
    question = "Where does the antitrust lawsuit against Nike stand?"
    names = {"NKE": ["Nike", "NIKE, Inc."]}
    said = quoted_answer([{**item, "period_end": "2025-05-31"}], query_terms([question]), names, recent=True)
    assert said.splitlines()[1].startswith(
        "- NIKE, Inc.'s 10-Q for Q4 FY2025: “On May 12, 2025, the court dismissed"
    ), said


def test_a_cover_pages_rows_of_words_are_quoted_as_printed_and_a_row_of_figures_is_not() -> None:
    """The securities a cover page registers are a table of words: each row is quoted as printed
    (asked which classes are listed, "classes" is "Class"); a vote count row is figures, no answer."""
    item = {
        **_item(
            "10K1",
            "Securities registered pursuant to Section 12(b) of the Act:\n"
            "Title of each class | Trading Symbol(s) | Name of each exchange on which registered\n"
            "Class B Common Stock, $0.01 par value | BRK.B | New York Stock Exchange\n"
            "Director nominee votes | 8,552,669,663 | 561,437,085 | 19,381,159",
        ),
        "ticker": "BRK",
    }
    question = "Which share classes does Berkshire Hathaway list, and on which exchange?"
    lines = quoted_answer(
        [item], query_terms([question]), {"BRK": ["BRK", "Berkshire Hathaway"]}
    ).splitlines()
    assert (
        "- Berkshire Hathaway's 10-K for FY2024: “Class B Common Stock, $0.01 par value | BRK.B | New York "
        in "\n".join(lines)
    )
    assert "561,437,085" not in "\n".join(lines)


def test_a_sentence_close_in_meaning_is_quoted_though_it_shares_few_words() -> None:
    """Asked what cost actions a company announced, a headcount cut and a suspended dividend answer
    (sharing no word of the question); a sentence sharing "cost" but about something else does not
    come first. The closeness is the embedding model's in the graph; here, given."""
    question = "What cost actions did Contoso announce on its call?"
    items = [
        _item("1", "Input cost inflation remained a headwind for the cost of our products in the quarter."),
        _item("2", "We are cutting headcount by about 12% by the end of next year."),
        _item("3", "We are suspending the quarterly dividend to protect liquidity."),
    ]
    close = {
        "Input cost inflation remained a headwind for the cost of our products in the quarter.": 0.10,
        "We are cutting headcount by about 12% by the end of next year.": 0.55,
        "We are suspending the quarterly dividend to protect liquidity.": 0.45,
    }
    names = {"CTSO": ["Contoso"]}
    by_words = quoted_answer(items, query_terms([question]), names)
    assert "[2]" not in by_words and "[3]" not in by_words  # no word shared: never a candidate
    by_meaning = quoted_answer(
        items, query_terms([question]), names, closeness=lambda sentences: [close[s] for s in sentences]
    ).splitlines()
    assert [line[-3:] for line in by_meaning[1:]] == ["[2]", "[3]", "[1]"]


def test_a_disclaimer_or_the_operator_never_answers_however_many_words_it_shares() -> None:
    """Asked what a company guided for its margin and expenses on a call: the safe-harbor reminder
    names both and the operator's welcome names the call, but only the guidance answers."""
    question = "On its January call, what did Contoso guide for gross margin and operating expenses?"

    items = [
        _spoken(
            "1",
            "Dana Ruiz",
            "Please note that today's call includes forward-looking statements about gross margin, "
            "operating expenses and revenue, which may differ materially.",
        ),
        _spoken("2", "Operator", "Good day, and welcome to the Contoso fiscal second quarter earnings call."),
        _spoken("3", "Sam Patel", "We expect gross margin to be between 61% and 62% for the March quarter."),
    ]
    lines = quoted_answer(items, query_terms([question]), {"CTSO": ["Contoso"]}, forecast=True).splitlines()
    assert [line[-3:] for line in lines[1:]] == ["[3]"]


def test_a_short_lead_in_is_quoted_with_what_it_opens() -> None:
    """Asked how a company breaks out its business by region: the short sentence saying it manages
    by geography is quoted with the segments listed after it, though another passage's sentence
    (where its products are made) ranks first."""
    question = "How does Contoso break out its business geographically, and which region includes Brazil?"
    items = [
        _item("1", "Our products are manufactured primarily in Mexico, Brazil and Vietnam by partners."),
        _item(
            "2",
            "The Company manages its business on a geographic basis. Its reportable segments are North "
            "America, Latin America and Asia. Latin America includes Mexico, Brazil and Argentina.",
        ),
    ]
    close = {
        "Our products are manufactured primarily in Mexico, Brazil and Vietnam by partners.": 0.6,
        "The Company manages its business on a geographic basis.": 0.5,
        "Its reportable segments are North America, Latin America and Asia.": 0.3,
        "Latin America includes Mexico, Brazil and Argentina.": 0.3,
    }
    lines = quoted_answer(
        items, query_terms([question]), {"CTSO": ["Contoso"]}, closeness=lambda ss: [close[s] for s in ss]
    ).splitlines()
    assert lines[1].endswith(
        "“Our products are manufactured primarily in Mexico, Brazil and Vietnam by partners.” [1]"
    )
    assert "geographic basis. Its reportable segments are North America, Latin America and Asia." in lines[2]


def test_a_quote_mostly_repeating_a_better_one_gives_its_place_to_one_saying_more() -> None:
    """A segment's restatement of the company's sentence says nothing new: the next driver is quoted
    instead (what drove the comparable sales themselves)."""
    question = "What drove Contoso's revenue growth in fiscal 2026?"
    items = [
        _item(
            "1",
            "Revenue increased primarily due to increases in comparable sales of 3.8% and 4.1% for fiscal "
            "2026 and 2025, respectively. Segment revenue increased primarily due to increases in "
            "comparable sales, including fuel, of 3.6% and 4.0% for fiscal 2026 and 2025, respectively. "
            "For fiscal 2026, comparable sales growth was driven by growth in store traffic and delivery.",
        )
    ]
    said = quoted_answer(
        items, query_terms([question]), {"CTSO": ["Contoso"]}, why=True, drivers=driver_lines(["revenue"])
    )
    assert "store traffic and delivery" in said and "including fuel" not in said


def test_a_sentence_announcing_what_follows_is_quoted_with_it_across_paragraphs() -> None:
    question = "What guidance did Contoso give for its third quarter in its 10-Q?"
    items = [
        _item(
            "1",
            "We provided guidance on August 3 in our earnings release as set forth below.\n\n"
            "Net sales are expected to be between $41.0 billion and $43.5 billion.\n\n"
            "Operating income is expected to be between $1.0 billion and $2.0 billion.",
        )
    ]
    said = quoted_answer(items, query_terms([question]), {"CTSO": ["Contoso"]}, forecast=True, limit=1)
    assert "as set forth below. Net sales are expected to be between $41.0 billion and $43.5 billion." in said


def _passage(label: str, start: int, text: str) -> dict[str, object]:
    return _item(label, text) | {"document_id": 7, "char_start": start}


def test_guidance_set_forth_below_its_caveats_and_heading_is_quoted_from_the_next_passage() -> None:
    """A 10-Q's guidance: the sentence saying it is set forth below goes on with caveats, a heading
    ends the passage and the figures are in the passage after it (read beside the hit)."""
    question = "What guidance did Contoso give for its fourth quarter in its third-quarter 10-Q?"
    items = [
        _passage(
            "10Q1",
            100,
            "Guidance\n\nWe provided guidance on October 30 in our earnings release as set forth below. "
            "These forward-looking statements reflect our expectations as of October 30 and are subject "
            "to substantial uncertainty, including changes in demand and foreign exchange rates.\n\n"
            "Fourth Quarter Guidance",
        ),
        _passage(
            "10Q2",
            900,
            "Fourth Quarter Guidance\n\n• Revenue is expected to be between $12.0 billion and $12.6 "
            "billion.\n\n• Operating income is expected to be between $1.1 billion and $1.5 billion.",
        ),
    ]
    caution = (
        "All statements other than statements of historical fact, including statements regarding "
        "guidance or future results of operations, made in this Quarterly Report are forward-looking."
    )
    items.append(_passage("10Q3", 20, caution))
    said = quoted_answer(items, query_terms([question]), {"CTSO": ["Contoso"]}, limit=2)
    assert "are forward-looking" not in said  # a caution about guidance is not the guidance
    assert (
        "as set forth below. … • Revenue is expected to be between $12.0 billion and $12.6 billion." in said
    )
    assert "$1.1 billion and $1.5 billion" in said


def test_a_list_set_forth_below_is_read_in_the_next_passage_of_its_own_document_only() -> None:
    """A capital-return policy "set forth below" whose list opens the next passage; another
    document's passage placed between them is never read as its continuation."""
    question = "What are Fabrikam's capital allocation priorities?"
    items = [
        _passage("10K1", 50, "Our capital allocation priorities, in order, are set forth below."),
        _item("10K3", "Capital allocation priorities of peers include share repurchases.")
        | {"document_id": 8, "char_start": 60},
        _passage(
            "10K2",
            400,
            "• Invest in organic growth.\n\n• Pay a growing dividend.\n\n"
            "• Repurchase shares to offset dilution.",
        ),
    ]
    said = quoted_answer(items, query_terms([question]), {"FBK": ["Fabrikam"]}, limit=2)
    assert (
        "“Our capital allocation priorities, in order, are set forth below. • Invest in organic growth. "
        "• Pay a growing dividend. • Repurchase shares to offset dilution.” [10K1]"
    ) in said


def test_a_statements_title_or_a_row_of_figures_is_never_a_quote_but_a_share_it_adds_is() -> None:
    """Asked what share of revenue came from the government: the statement's title and a row of its
    figures share the words but answer nothing; a footnote naming the government ranks first, and the
    sentence giving the share is still quoted though its words mostly repeat the footnote's."""
    question = "What share of Fabrikam's 2025 revenues came from the U.S. government?"
    items = [
        _item(
            "1",
            "Fabrikam Corporation and Subsidiaries Consolidated Statements of Operations "
            "(Dollars in millions, except per share data)\n"
            "Total revenues | 66,517 | 77,794\n\n"
            "(1)Includes revenues earned from foreign military sales through the U.S. government.",
        ),
        _item(
            "2", "Revenues from the U.S. government, including foreign military sales, were 38% of revenues."
        ),
    ]
    said = quoted_answer(items, query_terms([question]), {"FBK": ["Fabrikam"]}, limit=4)
    assert "38% of revenues" in said
    assert "Statements of Operations" not in said and "66,517" not in said


def test_an_analysts_question_on_a_call_is_never_quoted_as_the_answer() -> None:
    question = "What cost actions did Contoso announce on its call?"

    items = [
        _spoken(
            "1", "Pat Analyst", "So what is plan B if the cost actions announced today don't do the job?"
        ),
        _spoken("2", "Sam Patel", "We announced cost actions that cut operating expenses by $2 billion."),
    ]
    lines = quoted_answer(items, query_terms([question]), {"CTSO": ["Contoso"]}).splitlines()
    assert [line[-3:] for line in lines[1:]] == ["[2]"]


def test_an_analysts_turn_ending_in_a_question_is_never_quoted_though_its_lead_in_shares_the_words() -> None:
    """On a call, an analyst's turn opens with what the question is about ("I wanted to ask about the
    data center roadmap.") and ends asking: none of it answers; the executive's turn does."""
    question = "What did Contoso say about its data center roadmap on its call?"
    items = [
        _spoken(
            "1",
            "Pat Analyst",
            "Dana, I wanted to ask about the data center roadmap. You said the next chip launches later "
            "this year. Does the data center outlook include revenue from it?",
        ),
        _spoken(
            "2", "Dana Ruiz", "Our data center roadmap brings a new accelerator every year, starting in 2026."
        ),
    ]
    lines = quoted_answer(items, query_terms([question]), {"CTSO": ["Contoso"]}).splitlines()
    assert [line[-3:] for line in lines[1:]] == ["[2]"]
    # a passage of the Q&A holding the end of an answer, who asks next and the question
    qa = _spoken(
        "3",
        "qa",
        "We expect the data center roadmap to hold through next year.\n\nPat Analyst, Big Bank.\n\n"
        "Thanks for taking my question. On the data center roadmap, I realize you will not guide today. "
        "Could you speak to the data center runway? Thank you.",
    )
    lines = quoted_answer([qa], query_terms([question]), {"CTSO": ["Contoso"]}).splitlines()
    assert lines[1:] == [
        "- CTSO's transcript: “We expect the data center roadmap to hold through next year.” [3]"
    ]


def test_an_acronym_the_question_names_is_one_of_its_words() -> None:
    """Asked how much AI added to a cloud's growth: the sentence naming AI's points of growth shares
    "AI" with the question, which the search's lower-case terms ("ai") still carry."""
    question = "On Contoso's July call, how much did AI contribute to Nimbus growth?"
    items = [
        _spoken("1", "Dana Ruiz", "Nimbus growth continues to be driven by consumption across every region."),
        _spoken("2", "Dana Ruiz", "Nimbus revenue grew 31%, including roughly 4 points from AI services."),
    ]
    lines = quoted_answer(items, query_terms([question]), {"CTSO": ["Contoso"]}, limit=1).splitlines()
    assert lines[1].endswith("“Nimbus revenue grew 31%, including roughly 4 points from AI services.” [2]")


def test_a_driver_opening_a_passage_is_quoted_with_what_the_passage_before_says_increased() -> None:
    """Two passages of one MD&A: the second opens on "The increases were primarily due to …"; read
    with the first's last sentence, it drives the revenue asked and is quoted with that sentence."""
    question = "What drove Fabrikam's revenue growth in fiscal 2026?"
    first = _passage(
        "10K1",
        100,
        "Results of operations. Consolidated net sales increased $9.1 billion or 4.4% in fiscal 2026 "
        "when compared to the previous fiscal year.",
    )
    second = _passage(
        "10K2",
        400,
        "The increases were primarily due to strong comparable sales, which included strength in "
        "eCommerce and grocery. Membership income increased due to higher fees.",
    )
    said = quoted_answer(
        [second, first],
        query_terms([question]),
        {"FBK": ["Fabrikam"]},
        why=True,
        drivers=driver_lines(["revenue"]),
    )
    assert (
        "“Consolidated net sales increased $9.1 billion or 4.4% in fiscal 2026 when compared to the "
        "previous fiscal year. The increases were primarily due to strong comparable sales, which included "
        "strength in eCommerce and grocery.” [10K2]"
    ) in said


def test_a_tables_lead_in_is_never_a_quote() -> None:
    """ "The following table sets forth our revenue by source" shares the question's words; its rows
    are not quoted with it, so it answers nothing; the sentence saying where revenue comes from does."""
    question = "Where does nearly all of Contoso's revenue come from?"
    items = [
        _item(
            "1", "Revenue\nThe following table sets forth our revenue by source and by segment:\nYear Ended"
        ),
        _item("2", "We generate substantially all of our revenue from advertising."),
    ]
    lines = quoted_answer(items, query_terms([question]), {"CTSO": ["Contoso"]}).splitlines()
    assert [line[-3:] for line in lines[1:]] == ["[2]"]


def test_a_calls_closing_is_never_a_quote() -> None:
    question = "What did Contoso tell investors about its earnings on the call?"
    items = [
        _spoken(
            "1",
            "Sam Patel",
            "That concludes our earnings call. Media with questions may call our media relations team.",
        ),
        _spoken(
            "2",
            "Dana Ruiz",
            "Earnings grew on higher deliveries of our new aircraft to investors' satisfaction.",
        ),
    ]
    lines = quoted_answer(items, query_terms([question]), {"CTSO": ["Contoso"]}).splitlines()
    assert [line[-3:] for line in lines[1:]] == ["[2]"]
