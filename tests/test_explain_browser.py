"""Issue 26 in Chromium: a click on a printed figure, or keyboard focus on it, opens its explanation in a popover
(assets/js/explain.js) — the formula with its inputs, the rounding, the source table and the notebook cell — which
Escape closes, giving focus back to the figure; without JavaScript the link opens the static explanation page at the
figure's anchor."""

from __future__ import annotations

import pytest

from test_site import Watched, browser, server, site  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.browser

REVIEW = "/reviews/cisco-nexus-9516-128x100g-2015/"
FIGURE = 'a.xp-link[href$="l2-unicast/throughput_l2/64/99.999%25"]'
RUN_POPOVER = """async () => (await axe.run('.xp-pop', {resultTypes: ['violations']})).violations.map(v =>
  `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}: ` + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"""
WANTED = ("19,047,430,585 frames/s × 64 B × 8 = 9,752,284,459,520 bit/s", "as published, digit for digit (3 decimals)",
          "printed in Table 1 of", "Network Test", "the recomputation agrees", "throughput, code cell")


def _popover_text(page) -> str:
    page.wait_for_function("() => { const b = document.querySelector('.xp-pop .xp-body'); return b && b.querySelector('.xp'); }")
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
    text = page.inner_text(":target")
    assert all(part in text for part in WANTED), text
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
