"""Issue 26, explain any number: every figure a set prints has an explanation record (wirespeed/catalog/explain.py) that
recomputes it — its formula with its inputs, its rounding, its input row, its source and its notebook cell — printed on
the set's explanation page, in a popover beside the figure and in the PDF's figure index. The records are checked
against the figures the pages print and recomputed from their own terms (tests/explained.py); the sets imported from
tests/real/ are recomputed in tests/test_publication_check.py."""

from __future__ import annotations

import json

import re
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

import explained
import pipeline
from wirespeed.catalog import explain
from wirespeed.report import figures as report_figures

NEXUS = "cisco-nexus-9516-128x100g-2015"
L2 = "l2-unicast/throughput_l2/64/99.999%"


# --- the records' own parts, without a build --------------------------------------------------------------------

def _row(cells: dict[str, tuple[str, float, str]], **fields) -> dict:
    return {"row_id": 1, "test_id": "t", "cells": {m: {"text": t, "value": v, "unit": u, "unit_symbol": u, "qualifier": "exact"} for m, (t, v, u) in cells.items()},
            **fields}


def test_a_bit_rate_is_recomputed_from_the_frame_rate_and_the_frame():
    row = _row({"throughput": ("19047430585", 19047430585.0, "fps")}, frame_bytes=64.0)
    terms = explain.formula(row, "throughput_l2", {"wire_bits": 672.0}, running=False)
    assert explain.evaluate(terms) == 19047430585.0 * 64 * 8
    assert explain.formula_text(terms, "9,752,284,459,520 bit/s") == "19,047,430,585 frames/s × 64 B × 8 = 9,752,284,459,520 bit/s"
    l1 = explain.formula(row, "throughput_l1", {"wire_bits": 672.0}, running=False)
    assert explain.evaluate(l1) == 19047430585.0 * 84 * 8


def test_a_frame_rate_comes_back_from_a_published_layer_1_rate():
    row = _row({"throughput_l1": ("10", 1e10, "gbps")}, frame_bytes=64.0)
    terms = explain.formula(row, "throughput", {"wire_bits": 672.0}, running=False)
    assert [t[0] for t in terms] == ["", "÷"] and explain.evaluate(terms) == pytest.approx(1e10 / 672)
    assert explain.formula(row, "throughput_l1", {"wire_bits": 672.0}, running=False) is None  # the input is not recomputed from itself


def test_loss_is_bracketed_where_the_order_matters():
    row = _row({"tx": ("1000", 1000.0, "frames"), "rx": ("990", 990.0, "frames")})
    terms = explain.formula(row, "loss", {}, running=False)
    assert explain.evaluate(terms) == pytest.approx(1.0)
    assert explain.formula_text(terms, "1 %") == "(1,000 frames − 990 frames) ÷ 1,000 frames × 100 = 1 %"
    assert explain.formula(row, "lost", {}, running=True) is None  # a running stream's loss is the device's own count


def test_the_line_rate_is_the_port_rate_over_the_bits_of_a_frame():
    terms = explain.formula(_row({}, frame_bytes=64.0), "line_rate", {"wire_bits": 672.0, "streams": 128, "payload_bps": 1e11}, running=False)
    assert explain.evaluate(terms) == pytest.approx(1e11 * 128 / 672)


def test_an_anchor_is_the_figure_id_a_browser_decodes_back():
    from urllib.parse import unquote

    for fid in (L2, "a b/c#d/50%", "ramp/tx/1518/58.333%"):
        assert unquote(explain.anchor(fid)) == fid and not re.search(r"[ #]|%(?![0-9A-F]{2})", explain.anchor(fid))


def _records() -> dict:
    rec = {"id": L2, "anchor": explain.anchor(L2), "label": "Layer-2 unicast: throughput (l2)", "text": "9.752", "unit": "Tbit/s", "derived": False,
           "value": 9.752e12, "decimals": 3, "rounding": "as published", "row": "1", "qualifier": {"name": "exact", "symbol": "", "from": "the published cell"},
           "formula": {"terms": [["", 19047430585.0, "frames/s", "throughput"], ["×", 64.0, "B", "frame size"], ["×", 8, "", "bits per byte"]],
                       "result": 9752284459520.0, "unit": "bit/s", "text": "19,047,430,585 frames/s × 64 B × 8 = 9,752,284,459,520 bit/s"},
           "source": {"printed": "9.752 Tbit/s", "check": "agrees", "recomputed": "9.7523 Tbit/s", "basis": "throughput × 64-byte frames"}, "table": "l2-unicast-results"}
    return {"slug": NEXUS, "source": {"publisher": "Network Test", "document": "Cisco Nexus 9516"},
            "tests": [{"id": "l2-unicast", "title": "Layer-2 unicast", "where": "Table 1", "figures": [rec]}],
            "rows": {"1": {"file": "data/results/x/throughput.csv", "line": 2, "url": None, "cells": {}}},
            "notebooks": {"l2-unicast-results": {"name": "throughput", "cell": 4, "id": "abc", "title": "Layer-2 unicast: results"}}}


def _text(node) -> str:
    """The text of Pandoc AST nodes: Str, Code and link targets joined, spaces and line breaks as spaces."""
    if isinstance(node, list):
        return "".join(_text(n) for n in node)
    if not isinstance(node, dict):
        return ""
    t, c = node.get("t"), node.get("c")
    if t == "Str":
        return c
    if t in ("Space", "LineBreak", "SoftBreak"):
        return " "
    if t == "Code":
        return c[1]
    if t == "Link":
        return _text(c[1]) + f" <{c[2][0]}>"
    if t == "Header":
        return _text(c[2]) + " "
    if t in ("Para", "Plain", "Strong", "Emph"):
        return _text(c) + (" " if t == "Para" else "")
    if t == "Span":
        return _text(c[1])
    return _text(c) if isinstance(c, list) else ""  # a Div, a Table: their text


def test_the_figure_index_lists_every_figure_and_links_to_the_site_only_for_a_public_base_url():
    recs = _records()
    derived = {**recs["tests"][0]["figures"][0], "id": "l2-unicast/line_rate/64/99.999%", "derived": True, "text": "19,047,619,048", "unit": "frames/s",
               "source": None, "formula": None, "before": "19047619047.619"}
    recs["tests"][0]["figures"].append(derived)
    public = _text(report_figures.figure_index_blocks(recs, [L2], "https://example.org/ws/"))
    assert f"https://example.org/ws/results/{NEXUS}/explain/#l2-unicast/throughput_l2/64/99.999%25" in public
    assert "printed 9.752 Tbit/s" in public and "in Table 1 of “Cisco Nexus 9516”" in public and "19,047,430,585 frames/s × 64 B × 8" in public
    assert "the recomputation agrees" in public
    # what every figure of the test shares is said once above its table: the ids' start, the input file, the notebook cell
    assert "Their ids begin l2-unicast/, which the rows leave out." in public
    assert "Every one is read from throughput.csv (by line, where the row names one) and printed by the throughput notebook, code cell 4." in public
    assert "throughput.csv:2" not in public and "throughput cell 4" not in public and "; line 2" in public
    local = _text(report_figures.figure_index_blocks(recs, [], "/"))  # every figure, cited or not
    assert "https://" not in local and "1. throughput_l2/64/99.999%" in local and "2. line_rate/64/99.999%" in local
    assert "19,047,619,048 frames/s †" in local and "before rounding 19047619047.619" in local and "derived by wirespeed" in local
    # figures of one test from two files, printed by two cells: each row names its own
    recs["rows"]["2"] = {"file": "data/results/x/native/run.json", "line": None, "url": None, "cells": {}}
    recs["notebooks"]["other"] = {"name": "load", "cell": 6, "id": "def", "title": "other"}
    recs["tests"][0]["figures"][1] = {**derived, "row": "2", "table": "other"}
    mixed = _text(report_figures.figure_index_blocks(recs, [], "/"))
    assert "throughput.csv:2; throughput cell 4" in mixed and "derived by wirespeed; run.json; load cell 6" in mixed
    assert "Input rows are named file:line" in mixed and "Every one is read from" not in mixed
    assert report_figures.entries(recs) == {L2: "#xp-1", "l2-unicast/line_rate/64/99.999%": "#xp-2"}
    assert report_figures.figure_index_blocks(None, [], "/") == []
    with pytest.raises(Exception, match="has no explanation record"):
        report_figures.figure_index_blocks(recs, ["nope/x/1"], "/")


def test_the_figure_index_is_set_in_7_pt_tables_of_four_columns():
    blocks = report_figures.figure_index_blocks(_records(), [], "/")
    tables = [b for b in blocks if b["t"] == "Div"]
    assert tables and all(b["c"][0][1] == ["table-scriptsize"] and b["c"][1][0]["t"] == "Table" for b in tables)
    assert [w["c"] for _, w in tables[0]["c"][1][0]["c"][2]] == report_figures.WIDTHS and sum(report_figures.WIDTHS) <= 1


def test_a_record_that_does_not_recompute_is_named():
    recs = _records()
    rec = recs["tests"][0]["figures"][0]
    rec["formula"]["terms"][1][1] = 65.0
    assert any("formula gives" in p for p in explained.check(rec, recs, Path("/nonexistent")))


# --- the built examples -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site() -> Path:
    pipeline.build("site")
    return pipeline.PUBLIC


def test_every_figure_of_every_example_recomputes_from_its_explanation(site):
    count, bad = explained.problems(site, pipeline.WORK)
    assert count > 3000 and not bad, f"{len(bad)} of {count} figures do not recompute:\n" + "\n".join(bad[:20])
    sets = explained.records(site)
    assert set(sets) == {p.name for p in (pipeline.WORK / "data" / "results").iterdir() if (site / "results" / p.name / "index.html").is_file()}


def test_the_nexus_9516_bit_rate_is_explained_to_its_source_table_and_notebook_cell(site):
    recs = explained.records(site)[NEXUS]
    rec = next(f for f in explained.figures(recs) if f["id"] == L2)
    assert (rec["text"], rec["unit"]) == ("9.752", "Tbit/s")
    assert rec["formula"]["text"] == "19,047,430,585 frames/s × 64 B × 8 = 9,752,284,459,520 bit/s"
    assert rec["source"] == {"printed": "9.752 Tbit/s", "recomputed": "9.7523 Tbit/s", "basis": "throughput × 64-byte frames", "check": "agrees"}
    assert next(t for t in recs["tests"] if t["id"] == "l2-unicast")["where"] == "Table 1"
    nb = recs["notebooks"][rec["table"]]
    assert nb["name"] == "throughput" and nb["url"].endswith(f"#cell-id={nb['id']}")
    notebook = BeautifulSoup((site / nb["url"].split("#")[0]).read_text(encoding="utf-8"), "html.parser")  # the notebook's page, of its source
    assert notebook.find(id=f"cell-id={nb['id']}").find(class_="highlight")  # a code cell
    executed = json.loads((site / "results" / NEXUS / "notebooks" / "throughput.ipynb").read_text(encoding="utf-8"))
    code = [c for c in executed["cells"] if c["cell_type"] == "code" and "injected-parameters" not in c["metadata"].get("tags", [])]
    outputs = code[nb["cell"] - 1]["outputs"]  # in the set's executed copy, that cell prints the table
    assert any(nb["title"] in "".join(o.get("data", {}).get("text/html", "")) for o in outputs), nb
    row = recs["rows"][rec["row"]]
    assert (row["file"], row["line"]) == (f"data/results/{NEXUS}/throughput.csv", 2) and (site / row["url"]).is_file()
    page = BeautifulSoup((site / "results" / NEXUS / "explain" / "index.html").read_text(encoding="utf-8"), "html.parser")
    section = page.find(id=L2)
    where = section.find_parent("section").find("p", class_="explain-where", recursive=False)  # the test's source line, once
    cell = section.find_parent("div", class_="xp-table").find("p", class_="explain-notebook", recursive=False)  # its table's cell, once
    text = where.get_text(" ", strip=True) + " " + cell.get_text(" ", strip=True) + " " + section.get_text(" ", strip=True)
    for part in ("19,047,430,585 frames/s × 64 B × 8", "as published, 3 decimals", "printed in Table 1 of", "Network Test",
                 "the recomputation agrees", "throughput.csv , line 2", "throughput, code cell"):
        assert part in text, (part, text)


def test_every_figure_a_review_prints_links_to_its_explanation(site):
    recs = {slug: {f["id"]: f for f in explained.figures(r)} for slug, r in explained.records(site).items()}
    linked = tables = 0
    for review in sorted((site / "reviews").glob("*/index.html")):
        soup = BeautifulSoup(review.read_text(encoding="utf-8"), "html.parser")
        for data in soup.select("data.result-figure"):
            link = data.find_parent("a")
            assert link is not None and "xp-link" in link.get("class", []), f"{review}: {data} links to no explanation"
            m = re.match(r"^/results/([^/]+)/explain/#(.+)$", link["href"])
            assert m, link["href"]
            from urllib.parse import unquote

            slug, fid = m.group(1), unquote(m.group(2))
            rec = recs[slug][fid]
            assert data.get_text() == rec["text"] + ("\u00a0" + rec["unit"] if rec["unit"] else ""), (review, fid)
            linked += 1
        assert soup.select_one('script[src*="/js/explain"]') is not None or not soup.select("a.xp-link")
        for a in soup.select(".table-explain a"):  # a table of a test names its figures' explanations
            page, _, test = a["href"].partition("#")
            target = BeautifulSoup((site / page.strip("/") / "index.html").read_text(encoding="utf-8"), "html.parser")
            assert target.find(id=test) is not None, (review, a["href"])
            tables += 1
    assert linked >= 100 and tables >= 20


def test_every_report_has_a_figure_index_of_every_figure_of_its_set(site):
    """With an article or without, a report's last appendix before the colophon explains every figure of the set: its id
    (no public base URL in the examples: cited, not linked), printed value, formula and source."""
    for slug, recs in sorted(explained.records(site).items()):
        text = subprocess.run(["pdftotext", str(pipeline.BUILD / "reports" / f"{slug}.pdf"), "-"], capture_output=True, text=True, check=True).stdout
        found = re.search(r"^Appendix [A-Z] Figure index$", text, re.M)
        assert found, f"{slug}: no figure index"
        squeezed = re.sub(r"[\s-]+", "", text[found.start():])  # pdftotext drops a hyphen at a line's end
        # an id in full, or its test's start said once above the table ("Their ids begin <test>/") and the rest on its row
        missing = [f["id"] for t in recs["tests"] for f in t["figures"]
                   if re.sub(r"[\s-]+", "", f["id"]) not in squeezed
                   and not (f["id"].startswith(f"{t['id']}/") and re.sub(r"[\s-]+", "", f"Their ids begin {t['id']}/") in squeezed
                            and re.sub(r"[\s-]+", "", f["id"].removeprefix(f"{t['id']}/")) in squeezed)]
        assert not missing, f"{slug}: {len(missing)} figures not in the index, e.g. {missing[:3]}"
        assert "/explain/#" not in text[found.start():]  # built without a public base URL: ids cited, not linked
    text = subprocess.run(["pdftotext", str(pipeline.BUILD / "reports" / f"{NEXUS}.pdf"), "-"], capture_output=True, text=True, check=True).stdout
    flat = re.sub(r"\s+", " ", text[re.search(r"^Appendix [A-Z] Figure index$", text, re.M).start():])
    assert "19,047,430,585 frames/s × 64 B × 8 = 9,752,284,459,520 bit/s" in flat and "Table 1" in flat


def test_a_derived_table_cell_s_mark_links_to_its_figure_index_entry():
    from wirespeed.report.shortcodes import _Doc

    cols = [{"key": "frame_size", "label": "Frame size", "unit": "bytes", "group": "", "derived": False, "align": "right"},
            {"key": "throughput_l2", "label": "Throughput (L2)", "unit": "Tbit/s", "group": "", "derived": False, "align": "right"}]
    table = {"id": "t-results", "title": "T", "caption": "c", "test": "t", "columns": cols, "rows": [["64", "9.752"], ["128", "11.07"]],
             "flags": [[None, None], [None, None]], "derived_cells": [[False, False], [False, True]], "figs": [[None, "t/a/64"], [None, "t/a/128"]]}
    doc = _Doc({"slug": "s", "tables": {"t-results": table}}, Path("/nonexistent"), {"t/a/64": "#xp-1", "t/a/128": "#xp-2"})
    links = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("t") == "Link":
                links.append((_text(node["c"][1]), node["c"][2][0]))
            walk(node.get("c"))
        elif isinstance(node, list):
            for n in node:
                walk(n)

    walk(doc.table("t-results", "test"))
    assert links == [("†", "#xp-2")]  # the derived cell's mark; a published cell is not marked
