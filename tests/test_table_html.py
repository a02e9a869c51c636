"""The web tables the site-data step renders (wirespeed/site/table_html.py), which the result-table partial prints as
they are: every value escaped, links only under the root marker, the layout's parts, groups and markers.

Built from the bundled examples' own site data where a real table has the shape (the page-level tests read the built
site); the hostile values are the ones an untrusted set's files can carry."""

from __future__ import annotations

import copy

import pytest
from bs4 import BeautifulSoup

from wirespeed.presentation.tables.layout import layout
from wirespeed.site import table_html

HOSTILE = '<script>alert("x")</script> & \'q\' + 1\x00 \x00root\x00'


def _table(**over) -> dict:
    """A table as the model exports it: a key column, two grouped rates, a derived column, with downloads."""
    t = {"id": "t1", "title": "Throughput", "caption": "Per frame size.", "test": "rfc2544", "notebook": "throughput",
         "csv": "results/s/tables/t1.csv", "json": "results/s/tables/t1.json", "notes": [],
         "columns": [{"label": "Frame size", "unit": "bytes", "key": "frame_size", "align": "right"},
                     {"label": "Rate", "unit": "frames/s", "key": "throughput", "group": "Measured", "align": "right"},
                     {"label": "Rate", "unit": "% of line rate", "key": "throughput_pct", "group": "Measured", "align": "right", "derived": True}],
         "rows": [["64", "1,000", "10.0"], ["128", "2,000", "20.0"]],
         "flags": [[None, "published 1,100", None], [None, None, None]],
         "derived_cells": [[False, False, True], [False, True, False]],
         "figs": [["f-a", "f-b", None], [None, "f-c", "f-d"]]}
    t.update(over)
    t["layout"] = layout(t["columns"], t["rows"])
    return t


def _soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(html.replace(table_html.ROOT, "/repo/"), "lxml")


def test_every_value_is_escaped_and_only_links_move_with_the_root():
    hostile = _table(title=HOSTILE, caption=HOSTILE, notes=[HOSTILE],
                     columns=[{"label": HOSTILE, "unit": HOSTILE, "key": "frame_size", "align": "left", "group": HOSTILE},
                              {"label": "Rate", "unit": "frames/s", "key": "throughput", "align": "right"}],
                     rows=[[HOSTILE, HOSTILE]], flags=[[None, HOSTILE]], derived_cells=[[False, False]], figs=[[None, HOSTILE]])
    html = table_html.render("s", hostile)
    assert "<script" not in html and "\x00" not in html.replace(table_html.ROOT, "")  # the set's text makes no marker
    assert html.count(table_html.ROOT) == len(_soup(html).select("[href^='/repo/'], [data-explain^='/repo/']"))
    soup = _soup(html)
    assert not soup.find("script")
    cell = soup.select_one("tbody th[scope=row]")
    assert cell.get_text() == HOSTILE.replace("\x00", "\ufffd")  # the text read back is the text written, NUL made harmless
    assert _ids(soup) == [HOSTILE.replace("\x00", "\ufffd")]
    assert soup.select_one("a.flag")["title"] == HOSTILE.replace("\x00", "\ufffd")
    assert soup.select_one("caption").get_text().startswith(HOSTILE.replace("\x00", "\ufffd"))


def test_grouped_columns_head_two_rows_and_numbers_align_right():
    soup = _soup(table_html.render("s", _table()))
    first, second = soup.select("thead tr")
    assert [(th["scope"], th.get("rowspan"), th.get("colspan")) for th in first.find_all("th")] == [("col", "2", None), ("colgroup", None, "2")]
    assert [th.get_text(" ", strip=True) for th in second.find_all("th")] == ["Rate (frames/s)", "Rate (% of line rate) derived"]
    assert all("num" in td["class"] for td in soup.select("tbody td"))
    assert [th.get_text(strip=True) for th in soup.select("tbody th[scope=row]")] == ["64", "128"]


def test_flags_are_numbered_notes_and_derived_cells_are_marked():
    soup = _soup(table_html.render("s", _table()))
    flagged = soup.select("td.flagged")
    assert len(flagged) == 1 and flagged[0].get_text() == "1,0001(note 1: published 1,100)"
    note = soup.select_one("ol.table-notes li")
    assert note["id"] == "table-s-t1-n1" and note.a["href"] == "#table-s-t1-r1"
    assert note.get_text() == "Frame size 64 bytes, Measured Rate: the published figure differs from the recomputed one — published 1,100."
    # a derived cell in a column that is not derived as a whole carries the dagger; in a derived column, the header says it
    assert len(soup.select("span.derived-cell")) == 1 and soup.select("tbody tr")[1].select("td")[0].select_one("span.derived-cell")
    assert [td.get("data-fig") for td in soup.select("tbody td")] == ["f-b", None, "f-c", "f-d"]  # ids of no test: whole


def _ids(soup: BeautifulSoup) -> list[str]:
    """Every figure id of a rendered table, whole, as js/explain.js reads them back."""
    return [table_html.figure_id(td["data-fig"], td.find_parent("tr").get("data-fk")) for td in soup.select("td[data-fig]")]


def test_a_row_says_once_what_its_figures_ids_share_and_a_cell_its_own_part():
    """A row's figure ids differ mostly in one part (the metric, or the load of a table by load): the row says the rest
    once, that part left empty, and such a cell its part only; a figure of another shape keeps its whole id."""
    figs = [[None, "t/throughput/64/ndr", "t/latency_avg/64/ndr", "t/loss/64/pdr"],
            [None, "t/jitter_max/64/10%", "t/jitter_max/64/50%", "other/x"],
            [None, "t/throughput", None, None]]
    cols = [{"label": "Frame size", "unit": "bytes", "key": "frame_size", "align": "right"}] + [
        {"label": f"C{i}", "unit": "", "key": f"c{i}", "align": "right"} for i in range(3)]
    soup = _soup(table_html.render("s", _table(columns=cols, rows=[["64", "1", "2", "3"]] * 3, flags=[[None] * 4] * 3,
                                               derived_cells=[[False] * 4] * 3, figs=figs)))
    rows = soup.select("tbody tr")
    assert [tr.get("data-fk") for tr in rows] == ["t//64/ndr", "t/jitter_max/64/", None]  # one figure: no key
    assert [td.get("data-fig") for td in rows[0].find_all("td")] == ["throughput", "latency_avg", "t/loss/64/pdr"]
    assert [td.get("data-fig") for td in rows[1].find_all("td")] == ["10%", "50%", "other/x"]
    assert [td.get("data-fig") for td in rows[2].find_all("td")] == ["t/throughput", None, None]
    assert _ids(soup) == [f for row in figs for f in row if f]
    odd = [[None, "t/a/64", "t/b/64", "lone"]]  # an id of one part in the row: every id of the row is said whole
    soup = _soup(table_html.render("s", _table(columns=cols, rows=[["64", "1", "2", "3"]], flags=[[None] * 4], derived_cells=[[False] * 4], figs=odd)))
    assert "data-fk" not in soup.select_one("tbody tr").attrs and _ids(soup) == ["t/a/64", "t/b/64", "lone"]


def test_links_downloads_notebook_and_explanation():
    soup = _soup(table_html.render("s", _table()))
    assert soup.figure["data-explain"] == "/repo/results/s/explain/"
    assert [a["href"] for a in soup.select("figcaption a")] == [
        "/repo/results/s/tables/t1.csv", "/repo/results/s/tables/t1.json", "/repo/notebooks/throughput.html",
        "/repo/results/s/notebooks/throughput.ipynb", "/repo/results/s/explain/#test-rfc2544", "#table-s-t1-r1"]
    words = " ".join(soup.figcaption.get_text(" ", strip=True).split())
    assert "Download: CSV · JSON . Computed in the throughput notebook" in words  # each part a sentence of its own
    bare = _soup(table_html.render("s", _table(figs=[], csv=None, json=None, notebook=None, test=None)))
    assert not bare.figure.has_attr("data-explain") and not bare.select("figcaption a[href^='/repo/']")


@pytest.mark.parametrize("path", ["/results/s/t.csv", "https://example.org/t.csv", "results\\s\\t.csv"])
def test_a_link_that_is_not_relative_to_the_site_root_is_refused(path):
    with pytest.raises(ValueError, match="not a path relative to the site root"):
        table_html.render("s", _table(json=path))


def _wide(rows: int, metrics: tuple[str, ...]) -> dict:
    """A table of `rows` rows: the frame size, then one column per metric key (layout() decides its shape)."""
    cols = [{"label": "Frame size", "unit": "bytes", "key": "frame_size", "align": "right"}]
    cols += [{"label": m.replace("_", " "), "unit": "frames/s", "key": m, "align": "right"} for m in metrics]
    body = [[str(64 * 2 ** r)] + [f"{r}.{c}" for c in range(len(metrics))] for r in range(rows)]
    none = [[None] * len(cols) for _ in body]
    return _table(columns=cols, rows=body, flags=copy.deepcopy(none), derived_cells=[[False] * len(cols) for _ in body], figs=none)


SPLIT = ("throughput", "offered", "forwarding", "tx_rate", "rx_rate", "latency_min", "latency_avg", "latency_max", "jitter_avg", "tx", "rx", "lost")


def test_a_split_table_repeats_its_key_columns_and_marks_them_in_the_first_part_only():
    t = _wide(10, SPLIT)  # ten rows: fewer would be transposed
    t["flags"][0][0] = "a key flagged"
    assert t["layout"]["kind"] == "split"
    soup = _soup(table_html.render("s", t))
    parts = soup.select("div.table-wrap")
    assert len(parts) == len(t["layout"]["parts"]) > 1
    for i, (part, spec) in enumerate(zip(parts, t["layout"]["parts"])):
        assert f"(part {i + 1} of {len(parts)})" in part.caption.get_text()
        assert [len(tr.find_all(["th", "td"])) for tr in part.select("tbody tr")] == [len(spec["columns"])] * 10
        assert part.select_one("tbody th[scope=row]").get_text().startswith("64")  # the key column leads every part
    assert [len(p.select("a.flag")) for p in parts] == [1] + [0] * (len(parts) - 1)


def test_a_transposed_table_turns_its_columns_into_rows():
    t = _wide(2, SPLIT[:7])
    assert t["layout"]["kind"] == "transposed"
    soup = _soup(table_html.render("s", t))
    keys = t["layout"]["keys"]
    assert [th.get_text() for th in soup.select("thead th")][1:] == ["64", "128"]
    assert [th.get_text(" ", strip=True) for th in soup.select("tbody th")] == [f"{m.replace('_', ' ')} (frames/s)" for m in SPLIT[:7]]
    assert [td.get_text() for td in soup.select("tbody tr")[0].select("td")] == ["0.0", "1.0"] and keys == 1


def test_chart_data_table_escapes_its_values():
    html = table_html.chart_data(HOSTILE, {"columns": ["Frame size", HOSTILE], "rows": [["64", HOSTILE]]})
    soup = BeautifulSoup(html, "lxml")
    assert not soup.find("script") and "\x00" not in html
    assert [td.get_text() for td in soup.select("td")] == ["64", HOSTILE.replace("\x00", "\ufffd")]
    assert soup.select_one("div.table-scroll")["aria-label"] == "Data of " + HOSTILE.replace("\x00", "\ufffd")


def test_a_transposed_table_without_key_columns_keeps_its_first_figure():
    """A table pivoted by port whose one row has no name (a Spirent stream table): every column is a figure, so none is
    taken for the head. Its first figure headed the table before, with no row of its own."""
    cols = [{"label": lab, "unit": "frames/s", "key": f"{key}.Port //1/{p}", "group": f"Port //1/{p}", "align": "right"}
            for p in (5, 6) for key, lab in (("tx_rate", "Tx rate"), ("rx_rate", "Rx rate"), ("tx", "Frames sent"))]
    t = _table(columns=cols, rows=[["694,444", "253,510", "24,343,817", "694,444", "694,445", "22,954,929"]],
               flags=[[None] * 6], derived_cells=[[False] * 6], figs=[[f"f{i}" for i in range(6)]])
    assert t["layout"]["kind"] == "transposed" and t["layout"]["keys"] == 0
    soup = BeautifulSoup(table_html.render("s", t), "lxml")
    assert [th.get_text() for th in soup.select("thead th")] == ["Figure", "Value"]
    body = [(tr.th.get_text(" ", strip=True), tr.td.get_text(), tr.td.get("data-fig")) for tr in soup.select("tbody tr")]
    assert body[0] == ("Port //1/5 Tx rate (frames/s)", "694,444", "f0") and len(body) == 6
    assert [b[2] for b in body] == [f"f{i}" for i in range(6)]


def test_a_port_group_is_not_called_port_twice():
    from wirespeed.presentation.tables.results import _port

    assert _port("Port //1/5 StreamBlock 1/65536") == "Port //1/5 StreamBlock 1/65536"
    assert _port("1") == "Port 1" and _port("eth0") == "Port eth0"


def test_a_standard_deviation_of_bounds_note_does_not_call_it_a_disagreement():
    from wirespeed.presentation.tables.results import SPREAD_OF_BOUNDS

    t = _table(flags=[[None, SPREAD_OF_BOUNDS, None], [None, "recomputed 2,100 frames/s (rate)", None]])
    notes = [li.get_text(" ", strip=True) for li in BeautifulSoup(table_html.render("s", t), "lxml").select("ol.table-notes li")]
    assert notes[0].endswith(f": {SPREAD_OF_BOUNDS}.") and "differs" not in notes[0]
    assert notes[1].endswith(": the published figure differs from the recomputed one — recomputed 2,100 frames/s (rate).")


def test_cells_flagged_with_the_same_words_share_one_note():
    t = _table(flags=[[None, "same words", None], [None, "same words", "other words"]])
    soup = BeautifulSoup(table_html.render("s", t), "lxml")
    marks = soup.select("tbody a.flag")
    assert [m.select_one("span[aria-hidden]").get_text() for m in marks] == ["1", "1", "2"]
    assert len({m["id"] for m in marks}) == 3  # each marker its own id
    notes = soup.select("ol.table-notes li")
    assert len(notes) == 2 and notes[0].get_text(" ", strip=True).endswith("— same words.")
    backs = [a["href"].lstrip("#") for a in notes[0].select("a")]
    assert backs == [m["id"] for m in marks[:2]]  # the note links back to both cells
