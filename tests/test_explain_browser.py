"""Issue 26 in Chromium: a click on a printed figure, or keyboard focus on it, opens its explanation in a popover
(assets/js/explain.js) — the formula with its inputs, the rounding, the source table and the notebook cell — which
Escape closes, giving focus back to the figure; without JavaScript the link opens the static explanation page at the
figure's anchor."""

from __future__ import annotations

import re

import pytest

from test_site import Watched, browser, server, site  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.browser

REVIEW = "/reviews/cisco-nexus-9516-128x100g-2015/"
FIGURE = 'a.xp-link[href$="l2-unicast/throughput_l2/64/99.999%25"]'
RUN_POPOVER = """async () => (await axe.run('.xp-pop', {resultTypes: ['violations']})).violations.map(v =>
  `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}: ` + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"""
WANTED = ("19,047,430,585 frames/s × 64 B × 8 = 9,752,284,459,520 bit/s", "(throughput × frame size × bits per byte)", "as published, 3 decimals",
          "printed in Table 1 of", "Network Test", "the recomputation agrees", "throughput, code cell")


def _popover_text(page) -> str:
    page.wait_for_function("() => { const b = document.querySelector('.xp-pop .xp-body'); return b && b.querySelector('section'); }")
    return page.inner_text(".xp-pop")


def test_a_click_on_a_figure_shows_its_explanation_and_escape_closes_it(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (1280, 900))
    page = w.goto(REVIEW)
    link = page.locator(FIGURE).first
    assert link.inner_text() == "9.752\u00a0Tbit/s"
    link.click()
    text = _popover_text(page)
    for part in WANTED:
        assert part in text, (part, text)
    # the figure's test, named first (its label on the explanation page leaves the test's title to its section's heading)
    assert page.inner_text(".xp-pop .xp-test") == "Layer-2 unicast" and "Throughput (l2), 64-byte frames, 99.999 % load" in text
    pop = page.locator(".xp-pop")
    assert pop.get_attribute("role") == "dialog" and link.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.activeElement.classList.contains('xp-pop')")
    box = pop.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 1280  # inside the viewport
    page.keyboard.press("Escape")
    assert page.locator(".xp-pop").count() == 0 and link.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.matches('a.xp-link')")  # focus is back on the figure
    w.close()
    assert not w.problems, w.problems


def test_keyboard_focus_on_a_figure_shows_its_explanation(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (390, 844))
    page = w.goto(REVIEW)
    for _ in range(400):  # tab through the page to the figure, as a keyboard reader does
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({FIGURE!r})"):
            break
    else:
        pytest.fail("the figure is not reachable with Tab")
    text = _popover_text(page)
    assert all(part in text for part in WANTED), text
    box = page.locator(".xp-pop").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
    page.keyboard.press("Escape")
    assert page.locator(".xp-pop").count() == 0
    w.close()
    assert not w.problems, w.problems


def test_without_javascript_the_figure_opens_its_explanation_page(site, server, browser):  # noqa: F811
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto(server + REVIEW)
    page.locator(FIGURE).first.click()
    page.wait_for_load_state()
    assert page.url.endswith("/results/cisco-nexus-9516-128x100g-2015/explain/#l2-unicast/throughput_l2/64/99.999%25")
    target = page.evaluate("document.querySelector(':target') && document.querySelector(':target').id")
    assert target == "l2-unicast/throughput_l2/64/99.999%"
    # the figure's section, under its test's source line (which document and table printed the test's figures: once a test)
    text = "\n".join([page.inner_text(":target"), page.inner_text(":target >> xpath=ancestor::section[@aria-labelledby][1]/p[@class='explain-where']"),
                      page.inner_text(":target >> xpath=../p[@class='explain-notebook']")])  # and its table's notebook cell, once a table
    assert all(part in text for part in WANTED if not part.startswith("(throughput ")), text
    href = page.get_attribute(":target a.xp-terms", "href")  # the formula's words: once, in the page's legend, linked
    assert page.inner_text(f"[id='{href[1:]}'] + dd") == WANTED[1].strip("()"), href
    ctx.close()


def test_the_review_page_keeps_within_its_budget_with_the_popover_script(site):  # noqa: F811
    import gzip

    html = (site / "reviews" / "cisco-nexus-9516-128x100g-2015" / "index.html").read_bytes()
    script = next((site / "js").glob("explain*.js")).read_bytes()
    assert len(gzip.compress(script)) < 3_000  # a few KB of script
    assert len(gzip.compress(html)) + len(gzip.compress(script)) < 200_000


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_on_an_explanation_page_or_an_open_popover(site, server, browser, scheme):  # noqa: F811
    from test_accessibility_browser import violations

    w = Watched(browser, server, (1366, 900), scheme)
    found = [f"explanation page: {v}" for v in violations(w.goto("/results/cisco-catalyst-6500-vss-2008/explain/"))]
    page = w.goto(REVIEW)
    page.locator(FIGURE).first.click()
    _popover_text(page)
    violations(page)  # loads axe; the review page's own landmarks are checked by test_accessibility_browser.py
    found += [f"popover: {v}" for v in page.evaluate(RUN_POPOVER)]
    w.close()
    assert not found, "\n".join(found)
    assert not w.problems, w.problems


# --- every printed figure of a table or a card (data-fig) opens its explanation --------------------------------

CELL = 'td[data-fig="l2-unicast/throughput_l2/64/99.999%"]'
SET_PAGE = "/results/cisco-nexus-9516-128x100g-2015/l2-unicast/"  # the test page: its results table is open
TABLE_WANTED = ("19,047,430,585 frames/s × 64 B × 8 = 9,752,284,459,520 bit/s", "(throughput × frame size × bits per byte)", "printed in Table 1 of", "the recomputation agrees")


def test_a_click_on_a_table_cell_shows_its_figure_s_explanation(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (1280, 900))
    for path in (SET_PAGE, REVIEW):
        page = w.goto(path)
        cell = page.locator(f"{CELL} >> visible=true").first
        assert cell.inner_text().startswith("9.752")
        cell.click()
        text = _popover_text(page)
        assert all(part in text for part in TABLE_WANTED), (path, text)
        assert page.evaluate("document.activeElement.classList.contains('xp-pop')")
        page.keyboard.press("Escape")
        assert page.locator(".xp-pop").count() == 0
        assert page.evaluate(f"document.activeElement.matches({CELL!r})")  # focus back on the cell
    w.close()
    assert not w.problems, w.problems


def test_a_tile_shows_its_figure_s_explanation(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (1280, 900))
    page = w.goto(REVIEW)
    tile = page.locator(".tiles [data-fig]").filter(has_text="Tbit/s").first
    fid = tile.get_attribute("data-fig")
    assert fid.startswith("l2-unicast/throughput_l2/"), fid
    tile.click()
    text = _popover_text(page)
    assert "× 8 = " in text and "frames/s ×" in text and "printed in Table 1 of" in text, text
    page.keyboard.press("Escape")
    w.close()
    assert not w.problems, w.problems


def test_a_table_s_figures_take_one_tab_stop_and_the_arrow_keys_move_between_them(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (1280, 900))
    page = w.goto(SET_PAGE)
    page.focus("#table-cisco-nexus-9516-128x100g-2015-l2-unicast-results .table-wrap")  # the table's scroll region, then Tab
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('data-fig')") == "l2-unicast/throughput/64/99.999%"
    stops = page.evaluate("""() => { const t = document.activeElement.closest('.table-wrap');
        return [...t.querySelectorAll('[data-fig]')].filter(e => e.tabIndex === 0).length }""")
    assert stops == 1  # one tab stop per table, not one per figure
    page.keyboard.press("ArrowRight")
    assert page.evaluate(f"document.activeElement.matches({CELL!r})")
    text = _popover_text(page)  # keyboard focus opens the explanation
    assert all(part in text for part in TABLE_WANTED), text
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.getAttribute('data-fig')") == "l2-unicast/throughput_l2/128/99.999%"
    page.keyboard.press("Escape")
    assert page.locator(".xp-pop").count() == 0
    page.keyboard.press("Enter")
    _popover_text(page)
    w.close()
    assert not w.problems, w.problems


def test_no_axe_violation_on_a_set_page_with_a_cell_s_popover_open(site, server, browser):  # noqa: F811
    from test_accessibility_browser import violations

    w = Watched(browser, server, (1366, 900))
    page = w.goto(SET_PAGE)
    page.locator(f"{CELL} >> visible=true").first.click()
    _popover_text(page)
    found = violations(page) + page.evaluate(RUN_POPOVER)
    w.close()
    assert not found, "\n".join(found)


def _same_figure(printed: str, value: float | None) -> bool:
    """A cell prints the record's value, in its own unit (a power of 1,000 from the canonical one) and to its printed digits."""
    import math

    m = re.match(r"^[≈><≤≥~]?\s?(-?[0-9][0-9,]*(?:\.[0-9]+)?)", printed.strip())
    if m is None or value is None:
        return True  # a range or a word ("none"): its record's text is checked by test_explain.py
    x = float(m.group(1).replace(",", ""))
    if x == 0 or value == 0:
        return x == value
    k = round(math.log10(abs(value / x)) / 3)
    decimals = len(m.group(1).partition(".")[2])
    return abs(value / 1000 ** k - x) <= 0.5 * 10 ** -decimals * 1.000001


def _pages(site):
    yield from sorted((site / "results").glob("*/index.html"))
    yield from sorted((site / "results").glob("*/*/index.html"))
    yield from sorted((site / "reviews").glob("*/index.html"))


def test_every_printed_figure_cell_and_card_names_an_explanation_record(site):  # noqa: F811
    """The shape of every result and review page: each data-fig names a record of the set its data-explain page explains
    (a table cell printing that record's text), and every figure cell of a test's results table names one."""
    import json
    from urllib.parse import unquote

    from bs4 import BeautifulSoup

    import explained
    from wirespeed.site import table_html

    recs = {slug: {f["id"]: f for f in explained.figures(r)} for slug, r in explained.records(site).items()}
    named = 0
    for path in _pages(site):
        if path.parent.name == "explain":
            continue
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for el in soup.select("[data-fig]"):
            box = el.find_parent(attrs={"data-explain": True})
            assert box is not None, f"{path}: {el} is in no element naming its explanation page"
            slug = box["data-explain"].strip("/").split("/")[-2]
            row = el.find_parent("tr")
            fid = table_html.figure_id(el["data-fig"], row and row.get("data-fk"))
            rec = recs[slug].get(unquote(fid))
            assert rec is not None, f"{path}: figure {fid} has no explanation record"
            if el.name == "td":
                own = "".join(el.find_all(string=True, recursive=False))  # the figure, without its marks
                assert _same_figure(own, rec["value"]), (path, el, rec["text"], rec["value"])
            named += 1
        assert not soup.select("[data-fig]") or soup.select_one('script[src*="/js/explain"]') is not None, path
    assert named > 5000
    from pipeline import BUILD

    sets = sorted((BUILD / "hugo-data" / "wirespeed" / "sets").glob("*.json"))
    assert sets
    for data in sets:
        d = json.loads(data.read_text())
        for tid, t in d["tables"].items():
            if not tid.endswith("-results"):
                continue
            keys = t["layout"]["keys"]
            for r, row in enumerate(t["rows"]):
                for c, text in enumerate(row[keys:], start=keys):
                    if text:
                        fid = t["figs"][r][c]
                        assert fid in recs[d["slug"]], f"{d['slug']} {tid}: row {r} column {t['columns'][c]['key']} ({text}) has no explanation"
