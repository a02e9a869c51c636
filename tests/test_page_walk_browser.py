"""Every page of the site read in Chromium at 390 px and 1366 px, in both themes, in one walk per width: each page is
loaded once in one theme, every collapsed section opened and every chart brought to life, read, then the OS setting
switched to the other theme (the charts draw themselves again in its colours) and read again, as a reader's may be
(390 px loads dark and switches to light, 1366 px the other way round, so both first paints and both switches are
seen). The two widths are walked at once, each in two halves, each half in a Chromium of its own (a walk mostly waits:
for pages to settle and charts to draw). The tests below each check one thing the walks read, so a page is loaded twice in all, not six times:

- every page loads cleanly and stays on the host: no console error or warning, no page error, no failed request, no
  HTTP error, no request off the host (issue 8);
- no table overflows its box without showing that it scrolls: the frame's edge shadow, the hint under it, the key
  column held in view (issue 23); nor does the test-bed drawing, which scrolls at 390 px;
- no page is wider than the screen: whatever is wide scrolls inside its own box, never the page sideways (a table
  whose box did not scroll widened the trend pages to 668 px at 390);
- no section is empty, its heading alone (every set without notes printed an empty "Notes");
- no unit is broken across two lines ("Mframes/" over "s" in the home page's headline tiles at 390 px);
- every live chart drew its marks, and every example set's page draws a chart;
- axe-core finds no accessibility violation on a page of each kind (test_accessibility_browser.WALKED);
- no chart's title, subtitle, legend or category label is cut: nothing ends in an ellipsis, no text lies outside the
  chart's own box, no category under the plot is left out (Vega hides one that would overlap) (issue 23)."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES
from test_accessibility_browser import AXE, WALKED, violations
from test_site import NOT_LIVE, Watched, all_live, charts_settled, pages, server, side_by_side, site  # noqa: F401  (the same built site and server)

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

# Every drawing wider than its box (the test bed's at 390 px) whose frame does not say it scrolls.
SILENT_DRAWINGS = """[...document.querySelectorAll('.diagram-box')].filter(b => b.scrollWidth > b.clientWidth + 1).filter(b => {
  const hint = b.parentElement.querySelector(':scope > .table-hint');
  return !(b.parentElement.classList.contains('is-scrollable') && hint && hint.getClientRects().length > 0);
}).map(b => b.getAttribute('aria-label'))"""

# How much wider than the screen the page is (every section open): 0 when nothing makes it scroll sideways.
WIDER = "document.documentElement.scrollWidth - document.documentElement.clientWidth"

# Every section that holds its heading and nothing else.
EMPTY_SECTIONS = ("[...document.querySelectorAll('main section')].filter(s => s.children.length === 1 && /^H[1-6]$/.test(s.firstElementChild.tagName)"
                  " && !s.textContent.replace(s.firstElementChild.textContent, '').trim()).map(s => s.id || s.firstElementChild.textContent)")

# Every unit printed over two lines (its element has a box on each).
BROKEN_UNITS = "[...document.querySelectorAll('.unit')].filter(u => u.getClientRects().length > 1).map(u => u.textContent)"

# Every live chart's texts: cut, left out, or outside the chart's box?
CUT = """() => {
  const out = [];
  for (const f of document.querySelectorAll('figure.result-chart.is-live')) {
    const svg = f.querySelector('.chart-live svg');
    const box = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const s = t.textContent;
      if (!s.trim()) continue;
      const r = t.getBoundingClientRect();
      const band = t.closest('g[class*="role-axis-label"]') && t.getAttribute('opacity') === '0' && !/^[\\d.,\\s%\\u2212-]+$/.test(s);
      if (/\\u2026$/.test(s)) out.push(f.id + ': cut "' + s + '"');
      else if (band) out.push(f.id + ': category left out "' + s + '"');
      else if (t.getAttribute('opacity') !== '0' && (r.right > box.right + 1 || r.left < box.left - 1 || r.bottom > box.bottom + 1 || r.top < box.top - 1))
        out.push(f.id + ': outside its box "' + s + '"');
    }
  }
  return out;
}"""

# Every live chart that drew no mark (no path, line or rect in a mark group of its SVG): a chart with axes and nothing on them.
MARKLESS = """[...document.querySelectorAll('figure.result-chart[data-vega]')].filter(f => !f.querySelector(
  '.chart-live svg [class*="mark-"] path, .chart-live svg [class*="mark-"] line, .chart-live svg [class*="mark-"] rect')).map(f => f.id)"""

WIDTHS = (390, 1366)
THEMES = {390: ("dark", "light"), 1366: ("light", "dark")}
REDRAW = "document.querySelectorAll('figure.result-chart.is-live').forEach(f => f.classList.remove('is-live'))"
OPEN = "document.querySelectorAll('details').forEach(d => { d.open = true; })"  # scenarios and chart data tables too


PARTS = 2  # each width's pages walked in this many parts at once, each in a Chromium of its own: a walk mostly waits
FAULTS = ("tables", "cuts", "wide", "units", "empty", "marks", "axe")  # what a walk lists, one line per fault (the tests below, one each)


def walk(site, server, browser, width: int, part: int = 0) -> dict:  # noqa: F811
    """Read every PARTS-th page (from the `part`-th) at `width` in both themes: {"pages", "charts" (live charts seen, first
    theme), "audited" (axe-core runs), each of FAULTS (one line per fault, naming the page and theme), "problems" (what
    the page's console and network said)}."""
    w = Watched(browser, server, (width, 900), THEMES[width][0])
    found: dict = {"pages": 0, "charts": 0, "audited": 0, **{k: [] for k in FAULTS}}
    for path in pages(site)[part::PARTS]:
        w.page.emulate_media(color_scheme=THEMES[width][0])
        page = w.goto(path)
        found["pages"] += 1
        page.evaluate(OPEN)
        charts = page.locator("figure.result-chart[data-vega]").count() > 0
        for i, scheme in enumerate(THEMES[width]):
            if i:  # the theme switched: every live chart draws itself again, and is live again once it has
                if charts:
                    page.evaluate(REDRAW)
                page.emulate_media(color_scheme=scheme)
                for _ in range(100 if charts else 0):  # they draw again by themselves (a reader need not scroll): up to 5 s before all_live scrolls
                    if not page.evaluate(NOT_LIVE):
                        break
                    page.wait_for_timeout(50)
            if charts:
                n = all_live(page, w, path)
                found["charts"] += n if not i else 0
                charts_settled(page, f"{path} ({scheme})")  # and laid out again, if their size changed
            else:
                page.wait_for_timeout(50)
            found["tables"] += [f"{path} ({scheme}): {b}" for b in page.evaluate(OVERFLOWING)]
            found["tables"] += [f"{path} ({scheme}): the test-bed drawing scrolls without its hint" for _ in page.evaluate(SILENT_DRAWINGS)]
            wider = page.evaluate(WIDER)
            if wider > 1:
                found["wide"].append(f"{path} ({scheme}): {wider} px wider than the screen")
            found["units"] += [f"{path} ({scheme}): {u!r}" for u in page.evaluate(BROKEN_UNITS)]
            if not i:
                found["empty"] += [f"{path}: section {e!r} holds only its heading" for e in page.evaluate(EMPTY_SECTIONS)]
                found["marks"] += [f"{path}: chart {c!r} drew no mark" for c in page.evaluate(MARKLESS)]
                if not charts and path.strip("/").removeprefix("results/") in EXAMPLES:
                    found["marks"].append(f"{path}: an example set's page draws no chart")  # a contributed set may draw none
            if charts:
                found["cuts"] += [f"{path} ({scheme}): {b}" for b in page.evaluate(CUT)]
            if path in WALKED:  # axe-core on a page of each kind, as it is read here (tests/test_accessibility_browser.py)
                found["axe"] += [f"{path} ({scheme}): {v}" for v in violations(page)]
                found["audited"] += 1
    w.close()
    found["problems"] = w.problems
    return found


@pytest.fixture(scope="module")
def walks(site, server):  # noqa: F811
    """Both widths' walks, side by side, each in PARTS parts: {width: what its parts found, together}."""
    assert AXE.is_file(), "node_modules/axe-core is missing: run `npm ci` (make setup)"
    keys = [(width, part) for width in WIDTHS for part in range(PARTS)]
    done = side_by_side(lambda browser, key: walk(site, server, browser, *key), keys, len(keys))
    out: dict = {}
    for (width, _), found in sorted(done.items()):
        into = out.setdefault(width, {"pages": 0, "charts": 0, "audited": 0, **{k: [] for k in FAULTS}, "problems": []})
        for k, v in found.items():
            into[k] += v
    return out


def none_of(found: dict, kind: str, width: int) -> None:
    """The walk at `width` found no fault of `kind` (or "problems"): else its first 20, one a line."""
    assert not found[kind], f"{width} px:\n" + "\n".join(found[kind][:20])


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_loads_cleanly_and_stays_on_the_host(walks, width):
    assert walks[width]["pages"] >= 40
    none_of(walks[width], "problems", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_table_scrolls_without_saying_so(walks, width):
    none_of(walks[width], "tables", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_chart_title_or_legend_is_cut(walks, width):
    assert walks[width]["charts"] >= 60
    none_of(walks[width], "cuts", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_chart_draws_its_marks(walks, width):
    """Every live chart drew marks (not its axes alone), and every example set's page draws a chart."""
    none_of(walks[width], "marks", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_axe_violation_on_any_kind_of_page(walks, width):
    """axe-core finds no accessibility violation on a page of each kind, in both themes."""
    assert walks[width]["audited"] == 2 * len(WALKED), f"{walks[width]['audited']} audits: a page of WALKED is not among the walk's pages"
    none_of(walks[width], "axe", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_is_wider_than_the_screen(walks, width):
    none_of(walks[width], "wide", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_unit_is_broken_across_lines(walks, width):
    none_of(walks[width], "units", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_section_holds_only_its_heading(walks, width):
    none_of(walks[width], "empty", width)
