"""Issue 23, reading long pages in Chromium at 390 px and 1366 px, light and dark: no table anywhere on the site
overflows its box without showing that it scrolls (the frame's edge shadow, the hint under it, the key column
held in view), and every review opens with the PDF link, big-number tiles, key findings (on a phone's first
screen), a contents box and a summary chart."""

from __future__ import annotations

import json

import pytest

from pipeline import BUILD
from test_site import Watched, browser, pages, server, site  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.browser

# Every box whose table is wider than it: does it say so?
OVERFLOWING = """() => {
  const out = [];
  for (const t of document.querySelectorAll('table')) {
    if (!t.getClientRects().length) continue;  // in a closed <details>: not shown
    let box = t.parentElement;
    while (box && box !== document.body && box.scrollWidth <= box.clientWidth + 1) box = box.parentElement;
    if (!box || box === document.body || box === document.documentElement) continue;
    const frame = box.closest('.table-frame');
    const hint = frame && frame.querySelector(':scope > .table-hint');
    const shown = hint && hint.getClientRects().length > 0 && getComputedStyle(hint).visibility !== 'hidden';
    const key = t.querySelector('tbody th, tbody td');
    const sticky = key && getComputedStyle(key).position === 'sticky';
    const cap = (t.caption ? t.caption.innerText : t.getAttribute('aria-label') || box.getAttribute('aria-label') || '').slice(0, 60);
    if (!frame || !frame.classList.contains('is-scrollable') || !shown || !frame.classList.contains('more-right') || !sticky)
      out.push({cap, hidden: box.scrollWidth - box.clientWidth, frame: !!frame, hint: !!shown, sticky: !!sticky});
  }
  return out;
}"""


# Each page is loaded once per width and read in both themes: loaded in one, then the OS setting switched to the other,
# as a reader's may be (390 px loads dark and switches to light, 1366 px the other way round, so both first paints and
# both switches are seen).
THEMES = {390: ("dark", "light"), 1366: ("light", "dark")}


@pytest.mark.parametrize("width", [390, 1366])
def test_no_table_scrolls_without_saying_so(site, server, browser, width):  # noqa: F811
    w = Watched(browser, server, (width, 900), THEMES[width][0])
    bad = []
    for path in pages(site):
        w.page.emulate_media(color_scheme=THEMES[width][0])
        page = w.goto(path)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # scenarios and chart data tables too
        for scheme in THEMES[width]:
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(50)
            bad += [f"{path} ({scheme}): {b}" for b in page.evaluate(OVERFLOWING)]
    w.close()
    assert not bad, "\n".join(bad[:20])
    assert not w.problems, w.problems[:10]


def test_review_tables_use_the_desktop_width(site, server, browser):  # noqa: F811
    """At 1,366 px a results table of the Nexus review (nine columns) fits beside the contents without scrolling."""
    w = Watched(browser, server, (1366, 900))
    page = w.goto("/reviews/cisco-nexus-9516-128x100g-2015/")
    widths = page.evaluate("[...document.querySelectorAll('.result-table .table-wrap')].map(b => [b.scrollWidth, b.clientWidth])")
    assert widths and all(sw <= cw + 1 for sw, cw in widths), widths
    w.close()


def test_a_wide_table_is_split_by_metric_and_a_short_one_transposed(site):  # noqa: F811
    slug = "linux-netns-bridge-forward-nftables-2026-11"
    html = (site / "results" / slug / "index.html").read_text()
    tables = json.loads((BUILD / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json").read_text())["tables"]
    split = [t for t in tables.values() if t.get("layout", {}).get("kind") == "split"]
    assert split and html.count('class="result-table result-table-split"') == len(split)  # its fixed-load tables: 15 columns each
    for t in split:
        n = len(t["layout"]["parts"])
        assert n > 1 and all(f"{t['title']}<span class=\"table-part\">: {part['title']} <span class=\"muted\">(part {i} of {n})</span>"
                             in html.replace("&amp;", "&") for i, part in enumerate(t["layout"]["parts"], 1)), t["title"]
    ramp = (site / "results" / "linux-netns-ipv4-ramp-2026-11" / "index.html").read_text()
    assert 'class="result-table result-table-transposed"' in ramp


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
