"""Issue 23 keeps what works: no accessibility violation axe-core finds (npm `axe-core`, pinned in package.json and
package-lock.json, read from node_modules and run inside the page by Playwright) on every kind of page, in the
light and the dark theme, on a desktop and a phone, with every collapsed section open and every chart live (the pages
the page walk reads are audited there, as it reads them: WALKED). A page with a known fault shows that the check sees one."""

from __future__ import annotations

import pytest

from conftest import ROOT
from test_site import Watched, all_live, browser, server, side_by_side, site  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.browser
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# Every kind of page. The page walk (tests/test_page_walk_browser.py) audits those it reads anyway, in both themes at
# 390 and 1366 px, every section open and every chart live; this file audits the states a reader reaches with a query
# (a filter, the compare picker, a search) and the missing page's 404, which the walk does not load.
WALKED = ["/", "/results/", "/results/cisco-nexus-9516-128x100g-2015/", "/results/cisco-asr9006-rsp440-trex-2022/",
          "/results/linux-netns-bridge-forward-nftables-2026-11/", "/results/cisco-nexus-9516-128x100g-2015/l2-unicast/",
          "/results/cisco-catalyst-6500-vss-2008/comparisons/vs-nexus-9516/", "/reviews/", "/reviews/cisco-nexus-9516-128x100g-2015/",
          "/reviews/linux-netns-udp-capture-2026-11/", "/sql/", "/about/"]
PAGES = ["/results/?vendor=Cisco", "/compare/?sets=cisco-nexus-9516-128x100g-2015,cisco-catalyst-6500-vss-2008,cisco-asr9006-rsp440-trex-2022",
         "/search/?q=nexus", "/missing-page/"]
RUN = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map(v =>
  `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}: ` + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"""


def violations(page) -> list[str]:
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # evaluated by the browser's debugger, not an inline script: the CSP stays on
    return page.evaluate(RUN)


VIEWS = [((1366, 900), "light"), ((1366, 900), "dark"), ((390, 844), "light"), ((390, 844), "dark")]


def audit(browser, server, viewport, scheme) -> tuple[list[str], list[str]]:  # noqa: F811
    """The pages a query reaches and the missing page at one viewport and theme: axe's violations and the pages' problems
    other than the missing page's 404."""
    w = Watched(browser, server, viewport, scheme)
    found = []
    for path in PAGES:
        page = w.goto(path)
        if page.locator("figure.result-chart[data-vega]").count():
            all_live(page, w, path)  # opens every collapsed section too
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        if path.startswith("/compare/"):
            page.wait_for_selector("#compare-out table")
            page.locator("#compare-chart").scroll_into_view_if_needed()
            page.wait_for_selector("#compare-chart svg", timeout=30000)
        if path.startswith("/search/"):
            page.wait_for_selector("#search-results li")
        found += [f"{path}: {v}" for v in violations(page)]
    w.close()
    return found, [p for p in w.problems if "404" not in p and "missing-page" not in p]


@pytest.fixture(scope="module")
def audits(site, server):  # noqa: F811
    """The four audits, two at a time (an audit mostly waits: for pages, charts and axe)."""
    assert AXE.is_file(), "node_modules/axe-core is missing: run `npm ci` (make setup)"
    return side_by_side(lambda browser, view: audit(browser, server, *view), VIEWS, 2)


@pytest.mark.parametrize("viewport, scheme", VIEWS)
def test_no_axe_violation_on_a_page_a_query_reaches(audits, viewport, scheme):
    found, problems = audits[(viewport, scheme)]
    assert not found, f"{viewport[0]} px, {scheme}:\n" + "\n".join(found)
    assert not problems, problems


def test_the_check_sees_a_fault(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (1366, 900))
    page = w.goto("/about/")
    page.evaluate("""() => { const i = document.createElement('img'); i.src = '/favicon.svg'; document.querySelector('main').appendChild(i);
      const b = document.createElement('button'); document.querySelector('main').appendChild(b); }""")
    ids = {v.split(" ")[0] for v in violations(page)}
    assert {"image-alt", "button-name"} <= ids, ids
    w.close()
