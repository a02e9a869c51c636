"""The explanation page's body, rendered by the site-data step (wirespeed/site/explain_page.py): every value from the
records is escaped, and links are the set's own files relative to the page or site-relative from the site root."""

from __future__ import annotations

from bs4 import BeautifulSoup

from wirespeed.catalog import explain
from wirespeed.site import explain_page

HOSTILE = '<script>alert(1)</script>" onmouseover="x'


def records(**figure) -> dict:
    fig = {"id": "t/throughput/64", "label": "Throughput, 64-byte frames", "text": "1,488,095", "unit": "frames/s", "derived": False,
           "rounding": "as published", "qualifier": {"name": "exact", "symbol": "", "from": "the published cell"},
           "row": "1", "table": "t-results", **figure}
    return {"slug": "s", "title": "A set", "source": {"document": "Report", "publisher": "Lab"},
            "tests": [{"id": "t", "title": "Throughput", "where": "Table 1", "figures": [fig]}],
            "rows": {"1": {"file": "data/results/s/t.csv", "line": 2, "url": "results/s/data/t.csv"}},
            "notebooks": {"t-results": {"name": "throughput", "cell": 8, "url": "notebooks/throughput.html#cell-id=ab"}}}


def test_a_figure_section_says_each_fact_once_with_links_relative_to_the_page():
    soup = BeautifulSoup(explain_page.render(records()), "html.parser")
    section = soup.find("section", id="t/throughput/64")
    assert section.h3.get_text() == "Throughput, 64-byte frames: 1,488,095\xa0frames/s"
    facts = {dt.get_text(): dt.find_next_sibling("dd").get_text(" ", strip=True) for dt in section.find_all("dt")}
    assert facts == {"Rounding": "as published", "Input row": "line 2"}  # its file: above; exactly its cell: no qualifier line
    cell = section.find_parent("div", class_="xp-table").find("p", class_="explain-notebook", recursive=False)  # once for the table's figures
    assert cell.get_text() == "Table “t-results”, computed in throughput, code cell 8, from the rows of t.csv."
    assert [a["href"] for a in cell.find_all("a")] == ["../../../notebooks/throughput.html#cell-id=ab", "../data/t.csv"]
    assert soup.find("p", class_="explain-where").get_text() == "Source figures printed in Table 1 of “Report” (Lab)."
    assert soup.find("p", class_="eyebrow").a["href"] == "../"


def test_a_qualifier_line_says_what_is_more_than_exactly_the_published_cell():
    def qualifier(q: dict) -> str | None:
        soup = BeautifulSoup(explain_page.render(records(qualifier=q)), "html.parser")
        dt = soup.find("section", id="t/throughput/64").find("dt", string="Qualifier")
        return dt.find_next_sibling("dd").get_text() if dt else None

    assert qualifier({"name": "exact", "symbol": "", "from": "the published cell “1488095”"}) is None
    assert qualifier({"name": "at-least", "symbol": "≥", "from": "the published cell “>=2000”"}) == "at-least (≥), from the published cell “>=2000”"
    assert qualifier({"name": "exact", "symbol": "", "from": "its published input throughput “388723012”"}) == (
        "exact, from its published input throughput “388723012”")  # a derived figure's: where its exactness comes from
    header = BeautifulSoup(explain_page.render(records()), "html.parser").find("header").get_text(" ", strip=True)
    assert "(none for a figure that is exactly its published cell)" in " ".join(header.split())


def test_each_formula_is_worded_once_and_a_figure_names_its_number():
    terms = [["", 100e9, "bit/s", "port bit rate"], ["×", 128, "", "port-directions at line rate"], ["÷", 1184, "bit", "bits per frame on the wire"]]
    loss = [["", 10, "frames", "frames sent"], ["−", 9, "frames", "frames received"], ["÷", 10, "frames", "frames sent"], ["×", 100, "", "percent"]]
    rec = records(derived=True, formula={"terms": terms, "text": "100,000,000,000 bit/s × 128 ÷ 1,184 bit = 10,810,810,810.8 frames/s",
                                         "unit": "frames/s"})
    fig = rec["tests"][0]["figures"][0]
    rec["tests"][0]["figures"] += [{**fig, "id": "t/line_rate/128"}, {**fig, "id": "t/loss/64", "formula": {**fig["formula"], "terms": loss}}]
    soup = BeautifulSoup(explain_page.render(rec), "html.parser")
    legend = {dt["id"]: dt.find_next_sibling("dd").get_text() for dt in soup.find(id="formulas-h").find_parent("section").find_all("dt")}
    assert legend == {"f-1": "port bit rate × port-directions at line rate ÷ bits per frame on the wire",
                      "f-2": "(frames sent − frames received) ÷ frames sent × percent"}  # bracketed as the numbers are
    named = [s.find("a", class_="xp-terms") for s in soup.select("section section[id]")]
    assert [(a["href"], a.get_text()) for a in named] == [("#f-1", "(formula 1)"), ("#f-1", "(formula 1)"), ("#f-2", "(formula 2)")]
    assert "f-1" not in explain_page.render(records())  # no formula, no legend


def test_each_rounding_rule_is_worded_once_and_a_figure_names_its_rule_under_its_tests_heading():
    rec = records(label="Throughput: throughput (l1), 64-byte frames", derived=True, rounding="no more significant digits than … (3): 0 decimals",
                  rule={"rule": "inputs", "places": "0 decimals", "digits": 3})
    rec["tests"][0]["figures"].append({**rec["tests"][0]["figures"][0], "id": "t/throughput/128", "label": "Throughput: throughput, 128-byte frames",
                                       "derived": False, "rule": {"rule": "published", "places": "2 decimals"}})
    soup = BeautifulSoup(explain_page.render(rec), "html.parser")
    legend = {dt["id"]: dt.find_next_sibling("dd").get_text() for dt in soup.select(".xp-rules dt")}
    assert legend == {"rule-published": explain.RULES["published"] + ".", "rule-inputs": explain.RULES["inputs"] + "."}  # the rules used, in order
    first, second = soup.select("section section[id]")
    assert first.h3.get_text() == "Throughput (l1), 64-byte frames: 1,488,095\xa0frames/s\xa0†"  # the test's title is its section's heading
    rounding = first.find("dt", string="Rounding").find_next_sibling("dd")
    assert rounding.get_text() == "input precision: 3 significant digits, 0 decimals" and rounding.a["href"] == "#rule-inputs"
    assert second.find("dt", string="Rounding").find_next_sibling("dd").get_text() == "as published, 2 decimals"
    assert soup.find(id="test-t").get_text() == "Throughput"


def test_a_tests_source_line_reads_as_a_sentence_and_the_sets_transcription_note_is_said_once():
    def lines(where: str, document: str) -> tuple[str, str]:
        rec = records()
        rec["tests"][0]["where"], rec["source"]["document"] = where, document
        rec["source"]["transcribed_from"] = "Tables 1–7 and the test bed description."
        soup = BeautifulSoup(explain_page.render(rec), "html.parser")
        where_line = soup.find("p", class_="explain-where")
        return (where_line.get_text() if where_line else ""), soup.find("header").get_text(" ", strip=True)

    assert lines("Table 1", "Report")[0] == "Source figures printed in Table 1 of “Report” (Lab)."
    assert lines("Table 1", "")[0] == "Source figures printed in Table 1."
    assert lines("", "Report")[0] == "Source figures from “Report” (Lab)."  # the set's note is no place in a document
    assert lines("", "")[0] == ""
    header = lines("", "Report")[1]
    assert header.endswith("Source: Lab, “Report”. Transcribed from it: Tables 1–7 and the test bed description.")


def test_every_value_is_escaped_and_no_link_leaves_the_site():
    rec = records(label=HOSTILE, text=HOSTILE, unit=HOSTILE, id=HOSTILE, source={"printed": HOSTILE, "note": HOSTILE})
    rec["title"] = rec["tests"][0]["title"] = rec["source"]["document"] = HOSTILE
    rec["rows"]["1"]["url"] = 'javascript:alert(1)" x="'
    html = explain_page.render(rec)
    soup = BeautifulSoup(html, "html.parser")
    assert not soup.find("script") and "<script" not in html
    assert not any(k.startswith("on") for el in soup.find_all(True) for k in el.attrs)
    assert HOSTILE in soup.get_text()  # printed as text, whole
    hrefs = [a["href"] for a in soup.find_all("a") if not a["href"].startswith("#")]
    assert all(h.startswith("../") and '"' not in h for h in hrefs), hrefs


def test_the_notebook_cell_and_the_rows_file_are_said_once_for_each_tables_figures():
    rec = records()
    fig = rec["tests"][0]["figures"][0]
    # figures that alternate between two tables (a set's results and its trials) are grouped by table, in first-seen order
    rec["tests"][0]["figures"] = [{**fig, "id": "a"}, {**fig, "id": "c", "table": "t-other"}, {**fig, "id": "b", "row": "2"},
                                  {**fig, "id": "e", "table": "t-other", "row": "3"}, {**fig, "id": "d", "table": None}]
    rec["rows"]["2"] = {"file": "data/results/s/t.csv", "line": 3, "url": "results/s/data/t.csv"}
    rec["rows"]["3"] = {"file": "data/results/s/u.csv", "line": 9, "url": "results/s/data/u.csv"}
    rec["notebooks"]["t-other"] = {"name": "comparison", "cell": 3, "url": "notebooks/comparison.html#cell-id=cd", "title": "Other table"}
    soup = BeautifulSoup(explain_page.render(rec), "html.parser")
    groups = soup.find_all("div", class_="xp-table")
    assert [[s["id"] for s in g.select("section section[id]")] for g in groups] == [["a", "b"], ["c", "e"]]
    assert [g.find("p", class_="explain-notebook").get_text() for g in groups] == [
        "Table “t-results”, computed in throughput, code cell 8, from the rows of t.csv.",  # one file: named once, each figure its line
        "Table “Other table”, computed in comparison, code cell 3."]  # two files: each figure names its own
    row = {s["id"]: s.find("dt", string="Input row").find_next_sibling("dd") for s in soup.select("section section[id]")}
    assert {k: v.get_text() for k, v in row.items()} == {"a": "line 2", "b": "line 3", "c": "t.csv, line 2", "e": "u.csv, line 9", "d": "t.csv, line 2"}
    assert [row[k].a["href"] for k in "ced"] == ["../data/t.csv", "../data/u.csv", "../data/t.csv"]
    assert soup.find("section", id="d").parent.name == "section"  # a figure of no table: no notebook line, its file in full
    assert len(soup.find_all("p", class_="explain-notebook")) == 2


def test_what_the_source_printed_is_said_unless_the_heading_says_it_already():
    def source_line(**source) -> str | None:
        soup = BeautifulSoup(explain_page.render(records(source=source)), "html.parser")
        dt = soup.find("dt", string="Source")
        return dt.find_next_sibling("dd").get_text() if dt else None

    assert source_line(printed="1,488,095 frames/s") is None  # the heading: 1,488,095 frames/s
    assert source_line(printed="1.488 Mpps") == "1.488 Mpps as printed"  # printed otherwise: said
    assert source_line(printed="1,488,095 frames/s", check="agrees", recomputed="1,488,095.2") == \
        "1,488,095 frames/s as printed; the recomputation agrees: 1,488,095.2"
    assert source_line(printed="1,488,095 frames/s", note="Footnote 3.") == "1,488,095 frames/s as printed. Footnote 3."


def test_a_row_read_from_a_file_without_lines_is_not_called_line_0():
    """A capture's or a tool's JSON rows have no line (the catalog keeps 0): the page names the file they were read from."""
    rec = records()
    fig = rec["tests"][0]["figures"][0]
    rec["tests"][0]["figures"] = [{**fig, "id": "a", "row": "2"}, {**fig, "id": "b", "row": "2", "table": None}]
    rec["rows"]["2"] = {"file": "data/results/s/native/tx.pcap", "line": 0, "url": "results/s/data/native/tx.pcap.gz"}
    soup = BeautifulSoup(explain_page.render(rec), "html.parser")
    row = {s["id"]: s.find("dt", string="Input row").find_next_sibling("dd").get_text() for s in soup.select("section section[id]")}
    assert row == {"a": "read from that file, which has no lines of rows", "b": "read from tx.pcap, which has no lines of rows"}
    assert "line 0" not in soup.get_text()
