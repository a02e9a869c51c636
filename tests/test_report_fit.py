"""Issue 13: a PDF table fits its page whatever numbers a set holds (wirespeed.report.tablefit), and the title page
gives full URLs, the build date and the version (wirespeed.report.links). Fast checks of the rules; the PDFs
themselves are checked glyph by glyph in test_pdf_layout.py."""

from __future__ import annotations

import os

import pytest

from wirespeed.report import links as reportlinks, tablefit


def _pt(f: tablefit.Fit, n: int) -> list[float]:
    line = tablefit.LANDSCAPE_PT if f.landscape else tablefit.PORTRAIT_PT
    return [w * (line - 2 * tablefit.TABCOLSEP_PT * (n - 1)) for w in f.widths]


def test_fourteen_digit_number_gets_a_column_wide_enough():
    number = "12,345,678,901,234 †"
    f = tablefit.fit([["Frame size (bytes)"], ["Frames sent (frames)"]], [["64", number]], [False, True])
    size = dict(tablefit.SIZES)[f.size]
    assert _pt(f, 2)[1] >= tablefit.em(number) * size  # never narrower than the number
    assert f.size == "small" and not f.landscape  # two columns: the table's own type, portrait


@pytest.mark.parametrize("columns", [4, 9, 14, 21, 30])
@pytest.mark.parametrize("nrows", [3, 20])
def test_many_columns_of_long_numbers_shrink_type_then_turn_the_page(columns, nrows):
    """Smaller type first, never under 7 pt; a landscape page only for a table long enough to fill it (issue 23)."""
    heads = [["Frame size (bytes)"]] + [[f"Throughput {i} (frames/s)"] for i in range(1, columns)]
    rows = [[str(64 + s)] + ["123,456,789.123"] * (columns - 1) for s in range(nrows)]
    f = tablefit.fit(heads, rows, [False] + [True] * (columns - 1))
    assert f.size in ("small", "scriptsize")  # never tiny
    assert not f.landscape or nrows >= tablefit.LANDSCAPE_ROWS
    assert sum(f.widths) <= 1.0 + 1e-9  # the table never runs past the line
    size = dict(tablefit.SIZES)[f.size]
    widths = _pt(f, columns)
    fits = all(w >= tablefit.em("123,456,789.123") * size for w in widths[1:])
    order = [name for name, _ in tablefit.SIZES]
    if columns <= 4:
        assert (f.size, f.landscape) == ("small", False)
    else:
        assert order.index(f.size) > 0 or f.landscape  # smaller type or a landscape page
    assert fits or (f.size == "scriptsize" and f.squeezed)  # only when nothing fits are the columns squeezed (and printed in parts)
    assert f.squeezed == (not fits)


@pytest.mark.parametrize("columns", [9, 23, 40])
def test_a_table_too_wide_for_any_page_prints_in_parts_that_each_fit(columns):
    heads = [["Frame size (bytes)"], ["Variant"], ["Trial"]] + [[f"Throughput {i} (frames/s)"] for i in range(3, columns)]
    rows = [[str(s), "ndr-90", "2"] + ["123,456,789.123"] * (columns - 3) for s in (64, 1518)]
    numeric = [False, False, True] + [True] * (columns - 3)
    parts = tablefit.column_parts(heads, rows, numeric, keys=3)
    whole = tablefit.fit(heads, rows, numeric)
    assert (len(parts) > 1) == whole.squeezed
    assert sorted({c for p in parts for c in p}) == list(range(columns))  # every column printed …
    assert sum(len(p) - 3 for p in parts) == columns - 3  # … once, beside the key columns every part starts with
    for p in parts:
        assert p[:3] == [0, 1, 2] and p == sorted(p)
        f = tablefit.fit([heads[i] for i in p], [[r[i] for i in p] for r in rows], [numeric[i] for i in p])
        assert not f.squeezed or not tablefit.fit([heads[i] for i in p], [[r[i] for i in p] for r in rows],
                                                                          [numeric[i] for i in p], smallest="scriptsize").squeezed
    if len(parts) > 2:
        assert max(len(p) for p in parts) - min(len(p) for p in parts) <= 1  # the columns shared out evenly


def test_portrait_preferred_to_a_near_empty_landscape_page():
    heads = [["Test"]] + [[f"Metric {i} (µs)"] for i in range(12)]
    rows = [["a"] + ["1.25"] * 12]
    f = tablefit.fit(heads, rows, [False] + [True] * 12)
    assert not f.landscape  # twelve short numbers fit a portrait page in a smaller type


def test_links_are_full_urls_of_the_page_data_and_publication():
    d = {"slug": "some-set", "source": {"url": "https://example.net/paper.pdf"}}
    build = {"base": "https://owner.github.io/wirespeed/", "date": "2026-11-23", "version": "9.9"}
    got = dict(reportlinks.links(d, build))
    assert got["Web page"] == "https://owner.github.io/wirespeed/results/some-set/"
    assert got["Data"].startswith("https://owner.github.io/wirespeed/results/some-set/#downloads ")
    assert got["Original publication"] == "https://example.net/paper.pdf"
    assert "Built" not in got  # the build is the colophon's, never the cover's
    assert dict(reportlinks.colophon(d, build))["Built"] == "23 November 2026 by wirespeed 9.9"
    meta = reportlinks.meta(got["Web page"])
    assert meta["c"][0]["t"] == "Link"  # a working link that can break at '/' on the title page


def test_base_url_precedence_and_path_only_base(tmp_path, monkeypatch):
    (tmp_path / "config.toml").write_text('baseURL = "https://config.example/site"\n')
    monkeypatch.delenv("HUGO_BASEURL", raising=False)
    assert reportlinks.site_base(None, tmp_path) == "https://config.example/site/"
    monkeypatch.setenv("HUGO_BASEURL", "https://env.example/")
    assert reportlinks.site_base(None, tmp_path) == "https://env.example/"
    assert reportlinks.site_base("https://cli.example/x/", tmp_path) == "https://cli.example/x/"
    page = dict(reportlinks.links({"slug": "s", "source": {}}, {"base": "/", "date": None, "version": "1"}))
    assert page == {}  # a report built without a full base URL says nothing about URLs
    assert "date not recorded" in dict(reportlinks.colophon({"slug": "s", "source": {}}, {"base": "/", "date": None, "version": "1"}))["Built"]


@pytest.mark.slow  # makes a git repository and asks git
def test_build_date_is_the_sets_last_change_never_the_clock(monkeypatch, tmp_path):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # a build-wide stamp does not replace the set's own date
    epoch = reportlinks.data_epoch({"changed": "2026-11-22T05:59:32Z"})
    assert reportlinks.build_date(epoch) == "2026-11-22" and reportlinks.stamp("/", tmp_path, epoch)["epoch"] == epoch
    assert reportlinks.data_epoch({}) is None and reportlinks.build_date(None) is None  # no date rather than today's
    article = tmp_path / "review.md"  # an article changed after its set: the later of the two
    article.write_text("text")
    os.utime(article, (1800000000, 1800000000))
    assert reportlinks.data_epoch({"changed": "2026-11-22T05:59:32Z"}, article) == 1800000000


def test_report_cli_refuses_a_bad_base_url():
    from conftest import run_cli

    proc = run_cli("report", "--base-url", "ftp://x y")
    assert proc.returncode != 0 and "--base-url" in proc.stderr and "Traceback" not in proc.stderr
