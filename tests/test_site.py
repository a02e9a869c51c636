"""The website in a real browser: Chromium (wirespeed.system.browser finds it) driven by Playwright against the built site
served on 127.0.0.1. Every page loads cleanly with no request off the host, charts render, table
cells equal the analysis outputs, filters keep their state in the URL, and layouts hold on a phone."""

from __future__ import annotations

import gzip
import json
import re
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from bs4 import BeautifulSoup

from conftest import EXAMPLES, ROOT
from pipeline import BUILD, PUBLIC, build

pytestmark = pytest.mark.browser
SHOTS = BUILD / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def site():
    build("site")
    return PUBLIC


@pytest.fixture(scope="module")
def server(site):
    from wirespeed.system.rangeserver import server as range_server

    httpd = range_server(str(site), port=0, quiet=True)  # as GitHub Pages serves: byte ranges, the site's 404 page for a missing one
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@contextmanager
def chromium() -> Iterator:
    """A headless Chromium (wirespeed.system.browser finds it, or fails the tests with what it looked at), with its own
    Playwright: the synchronous API takes one instance per thread."""
    from playwright.sync_api import sync_playwright

    from wirespeed.system.browser import chromium_executable

    executable = chromium_executable()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def side_by_side(job: Callable[[Any, Any], Any], keys, at_once: int) -> dict:
    """job(browser, key) for every key, `at_once` at a time, each in a Chromium of its own thread: {key: its result}.
    For checks that mostly wait (for pages to settle, charts to draw), which then wait together."""
    def run(key):
        with chromium() as b:
            return job(b, key)

    with ThreadPoolExecutor(at_once) as pool:
        futures = {key: pool.submit(run, key) for key in keys}
        return {key: future.result() for key, future in futures.items()}


def wait_for(page, expression: str, timeout_s: float = 90) -> None:
    """Poll a JavaScript expression from Python until it is true. Playwright's wait_for_function evaluates its
    string inside the page, which the site's Content-Security-Policy forbids (no eval), so it cannot be used."""
    for _ in range(int(timeout_s * 5)):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"timed out after {timeout_s:g} s waiting for {expression}")


# A reader scrolls past every chart; one that went by between two frames of a busy machine gets looked at again.
LIVE = """async () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });  // collapsed scenarios: their charts wait until shown
  const figs = Array.from(document.querySelectorAll('figure.result-chart[data-vega]'));
  for (let round = 0; round < 20; round++) {
    const waiting = figs.filter(f => !f.classList.contains('is-live'));
    if (!waiting.length) break;
    for (const f of waiting) { f.scrollIntoView(); await new Promise(r => setTimeout(r, 20 + 40 * round)); }  // a frame or two, longer each round
    for (let t = 0; t < 400 && figs.some(f => !f.classList.contains('is-live')); t += 50) await new Promise(r => setTimeout(r, 50));  // up to 400 ms
  }
  return figs.length;
}"""

NOT_LIVE = "Array.from(document.querySelectorAll('figure.result-chart[data-vega]:not(.is-live)')).map(f => f.id)"
# what a chart that is not live was doing: started, tries, a view made, waiting for its image
STATE = """() => Array.from(document.querySelectorAll('figure.result-chart[data-vega]:not(.is-live)')).map(f =>
  `${f.id}: started ${!!f._started}, tries ${f._tries || 0}, view ${!!f._view}, pending ${f.classList.contains('is-pending')}`)"""


# Every live chart laid out: two frames after the last chart went live or changed size, no layout is pending
# (js/charts.js says so on <html> while one is: data-charts-refitting). Up to 30 s; false if still pending.
SETTLED = """async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  for (let t = 0; t < 600; t++) {
    await frame(); await frame();
    if (!document.documentElement.hasAttribute('data-charts-refitting')) return true;
    await new Promise(r => setTimeout(r, 50));
  }
  return false;
}"""


def charts_settled(page, path: str) -> None:
    assert page.evaluate(SETTLED), f"{path}: the charts were still being laid out again after 30 s"


def all_live(page, w, path: str, timeout_s: float = 120) -> int:
    """Scroll past every chart until all are live (a busy machine may need several passes); the count of charts.
    Fails only when no chart has come alive for `timeout_s`, twice: a loaded machine is slow (and may lose a request
    with no error: the page is then loaded again, once), a broken page is stuck however often it is loaded."""
    n = page.evaluate(LIVE)
    assert n >= 1, path
    stalls: list[str] = []
    left, deadline = None, 0.0
    while waiting := page.evaluate(NOT_LIVE):
        if left is None or len(waiting) < left:  # progress: the clock starts again
            left, deadline = len(waiting), time.monotonic() + timeout_s
        elif time.monotonic() >= deadline:
            stalls.append(f"{page.evaluate(STATE)[:8]}, requests in flight {sorted(r.url for r in w.inflight)[:8]}")
            if len(stalls) == 2:
                break
            # a stall the reload may cure still costs the run its timeout: said in pytest's warnings summary, to be found
            warnings.warn(f"{path}: no chart came alive for {timeout_s:g} s, loading it again: {stalls[-1]}; console: {w.problems[-5:]}", stacklevel=2)
            page.reload()
            left = None
        page.evaluate(LIVE)
        page.wait_for_timeout(500)
    assert not waiting, f"{path}: no chart came alive for {timeout_s:g} s, twice: {stalls}; console: {w.problems[-5:]}"
    return n


QUIET_MS, QUIET_STEP_MS = 200, 50  # a page has settled when no request was in flight for this long (checked every step)


class Watched:
    """A page with its console errors, page errors, failed requests and off-host requests recorded."""

    def __init__(self, browser, base: str, viewport=(1280, 900), scheme="light"):
        self.ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, color_scheme=scheme)
        self.page = self.ctx.new_page()
        self.problems: list[str] = []
        host = urlparse(base).netloc
        self.page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # A request the browser itself cancelled (net::ERR_ABORTED: the test navigated on while Chromium was still
        # fetching, e.g. the favicon it asks for after the load) is not the site's failure; any other is recorded.
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} ({r.failure})")
                     if r.failure != "net::ERR_ABORTED" else None)
        self.page.on("request", lambda r: self.problems.append(f"off-host: {r.url}") if urlparse(r.url).scheme in ("http", "https") and urlparse(r.url).netloc != host else None)
        self.page.on("response", lambda r: self.problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
        self.inflight: set = set()  # requests started and not yet finished or failed
        self.started = 0
        self.page.on("request", self._started)
        self.page.on("requestfinished", lambda r: self.inflight.discard(r))
        self.page.on("requestfailed", lambda r: self.inflight.discard(r))
        self.base = base

    def _started(self, request) -> None:
        self.inflight.add(request)
        self.started += 1

    def goto(self, path: str, quiet_ms: int = QUIET_MS):
        """Open a page and wait until it has loaded and no request has been in flight for `quiet_ms` (Playwright's
        networkidle waits a fixed 500 ms after the last one, on every page)."""
        self.inflight.clear()
        self.page.goto(self.base + path, wait_until="load")
        self.settle(path, quiet_ms)
        return self.page

    def settle(self, path: str, quiet_ms: int = QUIET_MS) -> None:
        """Wait until no request has been in flight for `quiet_ms` (the page's requests since the last goto), then for its
        fonts and two frames."""
        settled, deadline = 0, time.monotonic() + 30
        while settled < quiet_ms:
            if time.monotonic() > deadline:
                raise AssertionError(f"{path}: requests still in flight after 30 s: {sorted(r.url for r in self.inflight)[:5]}")
            before = self.started
            self.page.wait_for_timeout(QUIET_STEP_MS)  # Playwright delivers the page's events while it waits
            settled = 0 if self.inflight or self.started != before else settled + QUIET_STEP_MS
        self.page.evaluate("() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))")

    def close(self):
        self.ctx.close()


REFRESH = re.compile(r'<meta http-equiv="?refresh"? content="0; url=([^"]+)"')  # the minifier drops quotes a value does not need


def pages(site: Path) -> list[str]:
    """The site's pages: not the notebooks' (nbconvert's) nor a page left at an old address that sends the reader on
    (site/moved.py: the test below and test_base_url follow those)."""
    return sorted("/" + p.relative_to(site).as_posix().removesuffix("index.html") for p in site.rglob("*.html")
                  if "notebooks" not in p.parts and p.name != "404.html" and not REFRESH.search(p.read_text(encoding="utf-8", errors="replace")[:2000]))


def sets(site: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in (BUILD / "hugo-data" / "wirespeed" / "sets").glob("*.json")}


def html_tables(text: str) -> dict[str, list[list[str]]]:
    """Every <figure class="result-table" id=…>'s body rows as lists of cell texts, read by an HTML parser (the site's
    minifier leaves out the end tags HTML makes optional: </td>, </tr>, </tbody>), without a flagged cell's marker
    (a.flag) or a derived cell's mark (span.derived-cell; span.derived beside a transposed table's label: the PDF's †)."""
    from bs4 import BeautifulSoup

    tables: dict[str, list[list[str]]] = {}
    for fig in BeautifulSoup(text, "lxml").select("figure.result-table[id]"):
        rows = tables.setdefault(fig["id"], [])
        for mark in fig.select("tbody a.flag, tbody span.derived-cell, tbody span.derived"):
            mark.decompose()
        for tr in fig.select("tbody > tr"):
            rows.append([re.sub(r"\s+", " ", c.get_text()).strip() for c in tr.find_all(["td", "th"], recursive=False)])
    return tables


def test_html_tables_equal_the_analysis_outputs(site):
    checked = 0
    for slug, data in sets(site).items():
        tables = html_tables((site / "results" / slug / "index.html").read_text())
        for tid, t in data["tables"].items():
            html_rows = tables.get(f"table-{slug}-{tid}")
            if html_rows is None:
                continue
            layout = t.get("layout", {"kind": "whole"})
            if layout["kind"] == "transposed":  # a row per column after the keys: its label and unit, then its cells
                expected = [[row[i] for row in t["rows"]] for i in range(layout["keys"], len(t["columns"]))]
                labels = [c["label"] for c in t["columns"][layout["keys"]:]]
                assert [r[0].split(" (")[0] for r in html_rows] == labels, f"{slug}/{tid}"
                html_rows = [r[1:] for r in html_rows]
            elif layout["kind"] == "split":  # a table per part, each the key columns and its metrics' columns
                expected = [[t["rows"][r][i] for i in part["columns"]] for part in layout["parts"] for r in part["rows"]]
            else:
                assert layout["kind"] == "whole", layout
                expected = t["rows"]
            assert html_rows == expected, f"{slug}/{tid}"
            checked += 1
    assert checked >= 40


def test_review_pages_and_pdfs_agree_with_the_data(site):
    """The web page of each review prints the same table cells the PDF report prints (both from one export)."""
    from test_report import squash, text_of

    for slug, data in sets(site).items():
        review = site / "reviews" / slug / "index.html"
        if not review.is_file():
            continue
        tables = html_tables(review.read_text())
        pdf = squash(text_of(site / "reports" / f"{slug}.pdf"))
        # a table too wide for a PDF page prints in parts by columns (the report's manifest names them)
        parts = json.loads((BUILD / "reports" / f"{slug}.manifest.json").read_text()).get("table_parts", {})
        plain = re.sub(r" [‡†]", "", pdf)
        for fig, rows in tables.items():
            for part in parts.get(fig.removeprefix(f"table-{slug}-"), [None]):
                for row in rows:
                    cells = [re.sub(r" ‡", "", c) for i, c in enumerate(row) if c and (part is None or i in part)]
                    assert any(line in plain for line in printed_lines(cells)), f"{slug}: web row {row} not in the PDF"


def printed_lines(cells: list[str]) -> list[str]:
    """The text a table row may print as in a PDF: its cells in order on one line, or, when its first cell (a label) wraps
    in its column, the label's first words, the other cells, then the rest of the label (pdftotext reads the row's first
    line before the label's next one)."""
    words = cells[0].split()
    rest = " ".join(cells[1:])
    out = [" ".join(cells)]
    if rest:
        out += [f"{' '.join(words[:k])} {rest} {' '.join(words[k:])}" for k in range(1, len(words))]
    return out


def test_filters_keep_state_in_the_url(site, server, browser):
    w = Watched(browser, server)
    all_sets = sets(site)
    page = w.goto("/results/?vendor=Keysight")
    visible = page.locator("#result-list .card:not([hidden])")
    assert visible.count() == sum(1 for d in all_sets.values() if d["facets"]["vendor"] == "Keysight") == 1
    page.select_option("#f-rfc", "2544")
    assert "rfc=2544" in page.url and "vendor=Keysight" in page.url
    assert page.locator("#result-list .card:not([hidden])").count() == 0
    assert page.locator("#filter-empty").is_visible()
    shared = page.url
    page2 = w.goto(urlparse(shared).path + "?" + urlparse(shared).query)
    assert page2.locator("#f-vendor").input_value() == "Keysight" and page2.locator("#f-rfc").input_value() == "2544"
    page3 = w.goto("/results/?year=2015")
    assert page3.locator("#result-list .card:not([hidden])").count() == sum(1 for d in all_sets.values() if d["facets"]["year"] == 2015)
    page4 = w.goto("/results/?port_speed=10G&frame_size=64")
    expected = sum(1 for d in all_sets.values() if "10G" in d["facets"]["port_speed"] and 64 in d["facets"]["frame_sizes"])
    assert page4.locator("#result-list .card:not([hidden])").count() == expected >= 2
    w.close()
    assert not w.problems, w.problems


def test_compare_view_side_by_side(site, server, browser):
    w = Watched(browser, server)
    page = w.goto("/compare/?sets=cisco-7600-osm-acl-2001,cisco-catalyst-6500-vss-2008")
    page.wait_for_timeout(500)
    text = page.locator("main").inner_text()
    assert "Cisco 7600" in text and "Catalyst" in text
    w.close()
    assert not w.problems, w.problems


def test_comparison_pages_exist(site):
    for slug, data in sets(site).items():
        for c in data["comparisons"]:
            assert list((site / "results" / slug).glob(f"**/{c['id']}/index.html")), f"{slug}: no page for comparison {c['id']}"


def test_a_set_of_one_test_is_its_tests_page_and_the_old_address_leads_there(site, server, browser):
    """A set of several tests has a page per test, linked from its section of the set page. A set of one test shows it
    whole on the set page and renders no test page to repeat it; the test's address (it had a page until 2026-11-28)
    sends the reader to the test's section of the set page."""
    kinds = {"one": 0, "several": 0}
    w = Watched(browser, server)
    for slug, data in sorted(sets(site).items()):
        page = BeautifulSoup((site / "results" / slug / "index.html").read_text(), "lxml")
        for t in data["tests"]:
            assert page.find(id=t["id"]), (slug, t["id"])
            own = (site / "results" / slug / t["id"] / "index.html").read_text()
            if len(data["tests"]) > 1:
                kinds["several"] += 1
                assert not REFRESH.search(own) and page.find("a", href=f"/results/{slug}/{t['id']}/"), (slug, t["id"])
                continue
            kinds["one"] += 1
            assert REFRESH.search(own)[1] == f"../#{t['id']}" and 'data-pagefind-body' not in own, slug
            assert "Test page" not in page and f"/results/{slug}/{t['id']}/" not in page, slug
            if kinds["one"] <= 2:  # in a browser: the old address ends on the set page, at the test's section
                p = w.goto(f"/results/{slug}/{t['id']}/")
                p.wait_for_url(f"**/results/{slug}/#{t['id']}", timeout=30_000)
                assert p.locator(f'section[id="{t["id"]}"] h2').first.is_visible(), slug
    w.close()
    assert not w.problems, w.problems
    assert kinds["one"] >= 20 and kinds["several"] >= 20, kinds


@pytest.mark.parametrize("viewport, scheme", [((375, 812), "light"), ((1280, 900), "light"), ((375, 812), "dark"), ((1280, 900), "dark")])
def test_layout_holds_and_screenshots(site, server, browser, viewport, scheme):
    SHOTS.mkdir(parents=True, exist_ok=True)
    w = Watched(browser, server, viewport, scheme)
    for name, path in [("home", "/"), ("results", "/results/?vendor=Cisco"), ("set", "/results/cisco-nexus-9516-128x100g-2015/"),
                       ("review", "/reviews/cisco-asr9006-rsp440-trex-2022/"), ("compare", "/compare/?sets=cisco-7600-osm-acl-2001,cisco-catalyst-6500-vss-2008")]:
        page = w.goto(path)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{path} at {viewport}: page is {overflow}px wider than the viewport"
        page.screenshot(path=str(SHOTS / f"{name}-{viewport[0]}-{scheme}.png"))
    w.close()
    assert not w.problems, w.problems


def test_page_weight(site):
    """An article's HTML + CSS stays under 100 KB compressed, before chart scripts."""
    css = sum(len(gzip.compress(p.read_bytes())) for p in (site / "css").glob("*.css"))
    for review in (site / "reviews").glob("*/index.html"):
        total = len(gzip.compress(review.read_bytes())) + css
        assert total < 100_000, f"{review}: {total} bytes"


def test_the_test_bed_diagram_is_published_as_svg_only(site):
    """The page shows and offers the diagram's SVG; its PDF rendering, which only the report prints, is not published
    (22 KB a set) and nothing links it."""
    sets = [d for d in (site / "results").iterdir() if (d / "testbed.svg").is_file()]
    assert len(sets) >= 8
    for d in sets:
        assert not (d / "testbed.pdf").exists(), d
        page = (d / "index.html").read_text()
        assert "testbed.svg" in page and "testbed.pdf" not in page, d
    assert (BUILD / "site-static" / "results" / sets[0].name / "testbed.pdf").is_file()  # the report's


def test_fixture_site_checks():
    """The theme's own checks against its fixture: unknown set/table/chart/figure ids in a shortcode fail the
    build naming the page and the id, the site builds with no data, and data/ never reaches Hugo."""
    import subprocess
    import sys

    from wirespeed.system.hugo import binary

    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "site_fixture" / "check_site.py"), str(binary())], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0 and re.search(r"^\d+ passed, 0 failed$", proc.stdout, re.M), proc.stdout[-3000:] + proc.stderr[-2000:]


def test_references_in_reviews_link_to_their_tables(site):
    for review in (site / "reviews").glob("*/index.html"):
        html = review.read_text()
        for target in re.findall(r'<a class="?result-ref"? href="?#([^" >]+)', html):
            assert f'id="{target}"' in html or f"id={target}" in html, f"{review}: reference to #{target} has no target"
    assert "result-ref" in (site / "reviews" / "cisco-7600-osm-acl-2001" / "index.html").read_text()


def test_derived_cells_are_marked_on_the_page(site):
    """A derived figure in a column of published ones carries its own mark on the web page (issue 13)."""
    page = BeautifulSoup((site / "results" / "cisco-catalyst-6500-vss-2008" / "index.html").read_text(), "lxml")
    assert len(page.select(".derived-cell")) >= 2  # the 64-byte VSS bit rate and share of line rate


def test_filter_menus_offer_each_published_value_once_in_order(site):
    """The results list's filter menus (their values gathered once by the site-data step, ordered by the partial): every
    value of the published sets exactly once; frame sizes and port speeds by their number, years newest first."""
    page = BeautifulSoup((site / "results" / "index.html").read_text(encoding="utf-8"), "lxml")
    menus = {s["id"]: [o["value"] for o in s.find_all("option") if o["value"]] for s in page.select("form#filters select")}
    index = json.loads((BUILD / "hugo-data" / "wirespeed" / "index.json").read_text(encoding="utf-8"))
    published = [e for e in index["sets"].values() if e["status"] == "published"]

    def values(facet):
        out = set()
        for e in published:
            v = e.get("facets", {}).get(facet)
            out |= {str(x) for x in (v if isinstance(v, list) else [v]) if x}
        return out

    for menu, facet in (("f-vendor", "vendor"), ("f-device", "device"), ("f-rfc", "rfc"), ("f-port_speed", "port_speed"),
                        ("f-frame_size", "frame_sizes"), ("f-year", "year")):
        assert len(menus[menu]) == len(set(menus[menu])) and set(menus[menu]) == values(facet), menu
    sizes = [int(v) for v in menus["f-frame_size"] if v.isdigit()]
    assert sizes == sorted(sizes) and 64 in sizes and 1518 in sizes
    assert menus["f-year"] == sorted(menus["f-year"], reverse=True)
    speeds = [float(v[:-1]) * (1000 if v.endswith("G") else 1) for v in menus["f-port_speed"] if v[:-1].replace(".", "").isdigit()]
    assert speeds == sorted(speeds)
