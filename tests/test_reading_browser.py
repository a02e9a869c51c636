"""Issue 23, reading long pages in Chromium at 390 px and 1366 px: a review's results tables use the desktop's width,
wide tables are split and short ones transposed, and every review opens with the PDF link, big-number tiles, key findings (on a phone's first
screen), a contents box and a summary chart. (That no table anywhere overflows without saying so is read on
every page by the walk of tests/test_page_walk_browser.py.)"""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from pipeline import BUILD
from test_site import Watched, browser, server, site  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.browser

def test_review_tables_use_the_desktop_width(site, server, browser):  # noqa: F811
    """At 1,366 px a results table of the Nexus review (nine columns) fits beside the contents without scrolling."""
    w = Watched(browser, server, (1366, 900))
    page = w.goto("/reviews/cisco-nexus-9516-128x100g-2015/")
    widths = page.evaluate("[...document.querySelectorAll('.result-table .table-wrap')].map(b => [b.scrollWidth, b.clientWidth])")
    assert widths and all(sw <= cw + 1 for sw, cw in widths), widths
    w.close()


def test_a_wide_table_is_split_by_metric_and_a_short_one_transposed(site):  # noqa: F811
    slug = "linux-netns-bridge-forward-nftables-2026-11"
    page = BeautifulSoup((site / "results" / slug / "index.html").read_text(), "lxml")
    tables = json.loads((BUILD / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json").read_text())["tables"]
    split = [t for t in tables.values() if t.get("layout", {}).get("kind") == "split"]
    assert split and len(page.select("figure.result-table.result-table-split")) == len(split)  # its fixed-load tables: 15 columns each
    parts = {re.sub(r"\s+", " ", p.parent.get_text()) for p in page.select("span.table-part")}  # the caption's title and its part
    for t in split:
        n = len(t["layout"]["parts"])
        assert n > 1 and all(f"{t['title']}: {part['title']} (part {i} of {n})" in parts
                             for i, part in enumerate(t["layout"]["parts"], 1)), (t["title"], sorted(parts)[:4])
    ramp = BeautifulSoup((site / "results" / "linux-netns-ipv4-ramp-2026-11" / "index.html").read_text(), "lxml")
    assert ramp.select("figure.result-table.result-table-transposed")


REVIEW = """() => {
  const q = s => document.querySelector(s);
  const top = e => e ? e.getBoundingClientRect().top + scrollY : null;
  const pdf = [...document.querySelectorAll('.review-header a')].find(a => /\\.pdf$/.test(a.getAttribute('href')));
  return {pdf: pdf ? top(pdf) : null, tiles: document.querySelectorAll('.tiles .tile').length, tilesBottom: q('.tiles') ? q('.tiles').getBoundingClientRect().bottom + scrollY : null,
          findings: top(q('.review-body .findings')), contents: document.querySelectorAll('#contents a').length,
          contentsOpen: q('#contents') ? q('#contents').open : null, sticky: q('#contents') ? getComputedStyle(q('#contents')).position : null,
          chart: top(q('.review-body .summary-chart')), height: innerHeight};
}"""


@pytest.mark.parametrize("viewport", [(390, 844), (1366, 900)])
def test_every_review_opens_with_its_pdf_tiles_findings_contents_and_summary_chart(site, server, browser, viewport):  # noqa: F811
    w = Watched(browser, server, viewport)
    reviews = sorted(p.parent.name for p in (site / "reviews").glob("*/index.html"))
    assert len(reviews) >= 7
    for slug in reviews:
        m = w.goto(f"/reviews/{slug}/").evaluate(REVIEW)
        assert m["pdf"] is not None and m["pdf"] < 500, (slug, m)  # the PDF at the top, not at the end
        assert m["tiles"] >= 1 and m["contents"] >= 3 and m["chart"] is not None, (slug, m)
        if viewport[0] == 390:
            assert m["tilesBottom"] < viewport[1] and m["findings"] is not None and m["findings"] < viewport[1] - 60, (slug, m)  # the first screen
            assert m["contentsOpen"] is False, slug  # a box that opens, on a phone
        else:
            assert m["contentsOpen"] is True and m["sticky"] == "sticky", (slug, m)  # a sidebar that stays in view
    w.close()
    assert not w.problems, w.problems[:10]
