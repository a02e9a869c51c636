"""The site under a sub-path, as GitHub Pages serves a project site (https://OWNER.github.io/REPO/):
every link, asset, download, chart spec and data file follows the configured base URL.

- `wirespeed site --base-url` (and Hugo's own HUGO_BASEURL when the flag is not given) leave no
  root-relative URL in any page or JSON file;
- a file path in the site data that is root-relative fails the build, naming the path;
- a crawl of every page reachable from the home page of a site served at http://127.0.0.1:PORT/wirespeed/ finds no
  link, asset, download or chart spec that leaves /wirespeed/ or does not answer 200. The first page of each kind (a
  set's, a test's, a review, a trend series…), the pages a query reaches and the 404 page are read in Chromium: no
  failed request, no console error, every chart brought to life and fetching its spec from under /wirespeed/, the links
  read from the page as its scripts left it. The other pages are fetched and their links read from their HTML (the
  same elements and attributes): the page walk, tests/test_page_walk_browser.py, reads every page in Chromium at the
  site's root, so what is left to see under the sub-path is where each page's URLs lead.
"""

from __future__ import annotations

import fcntl
import html
import json
import os
import re
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT, WIRESPEED
from pipeline import BUILD, LOCK, WORK, build
from test_site import Watched, browser  # noqa: F401  (browser: the suite's one Chromium fixture)
from wirespeed.system.rangeserver import server as range_server

SUB = "wirespeed"
REFRESH = re.compile(r'<meta http-equiv="?refresh"? content="0; url=([^"]+)"')  # the minifier drops quotes a value does not need
MAX_PAGES = 300  # the site has ~70 pages and ~15 notebooks; more means the crawl is looping
FIXTURE = ROOT / "tests" / "site_fixture"


@contextmanager
def pipeline_lock():
    """Hold the session pipeline's lock: no other worker swaps build/hugo-data or build/site-static meanwhile."""
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


# --- without a browser -------------------------------------------------------------------------

ATTR = re.compile(r'\b(href|src|action|data-vega|data-specs|data-index|data-root|data-figures|data-chart-scripts|data|poster|srcset)=(?:"([^"]*)"|\'([^\']*)\'|([^\s>"\']+))')


def _json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["flag", "env"])
def test_no_root_relative_url_under_a_sub_path(tmp_path, how):
    """`--base-url` (which wins over HUGO_BASEURL) or HUGO_BASEURL alone: every URL of every page and JSON file stays under the sub-path."""
    build("reports")
    base = f"http://example.invalid/{how}-sub/"
    prefix = urlparse(base).path
    dest = tmp_path / "public"
    env = {**os.environ, "HUGO_BASEURL": base if how == "env" else "http://example.invalid/not-this/"}
    cmd = [*WIRESPEED, "site", "--destination", str(dest)] + (["--base-url", base] if how == "flag" else [])
    with pipeline_lock():
        proc = subprocess.run(cmd, cwd=WORK, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    bad: list[str] = []
    under = 0
    files = [p for p in dest.rglob("*") if p.suffix in (".html", ".json", ".xml", ".txt", ".css") and p.is_file()]
    assert sum(1 for p in files if p.suffix == ".html") >= 40
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        name = path.relative_to(dest).as_posix()
        bad += [f"{name}: {m.group(0)}" for m in re.finditer(r"""["'=(](/(?:results|reports)/[^"'\s)>]*)""", text)]
        bad += [f"{name}: {m.group(0)}" for m in re.finditer(r"https?://example\.invalid[^\s\"'<>)]*", text) if not m.group(0).startswith(base)]
        bad += [f"{name}: url({m.group(1)})" for m in re.finditer(r"url\(\s*['\"]?(/[^)'\"]*)", text) if not m.group(1).startswith(prefix)]
        if path.suffix == ".html":
            for m in ATTR.finditer(text):
                value = next(v for v in m.groups()[1:] if v is not None)
                urls = ([c.strip().split()[0] for c in value.split(",") if c.strip()] if m.group(1) == "srcset"
                        else [c.split()[0] for c in value.split("|") if c.strip()] if m.group(1) == "data-chart-scripts" else [value])
                for url in urls:
                    if url.startswith(prefix):
                        under += 1
                    elif url.startswith("/"):
                        bad.append(f"{name}: {m.group(1)}={url}")
        elif path.suffix == ".json" and path.name == "index.json" and path.parent.name == "compare":
            for s in _json_strings(json.loads(text)):
                if s.startswith(prefix):
                    under += 1
                elif s.startswith("/"):
                    bad.append(f"{name}: {s}")
    assert not bad, f"{len(bad)} URLs leave {prefix}:\n" + "\n".join(sorted(set(bad))[:40])
    assert under > 1000, f"only {under} URLs under {prefix}: the check found too little to be meaningful"
    # the brand link of every page is the home page under the sub-path
    assert BeautifulSoup((dest / "results" / "index.html").read_text(), "lxml").select_one("a.brand")["href"] == prefix


@pytest.mark.parametrize("args, needle", [(["--base-url", "ftp://example.invalid/x/"], "ftp://example.invalid/x/"),
                                          (["--base-url", "example.invalid/x/"], "example.invalid/x/"),
                                          (["--base-url", "https://example.invalid/x/?a=1"], "no query"),
                                          (["--data-only", "--base-url", "/x/"], "--data-only")])
def test_base_url_option_rejects_what_is_not_a_base_url(args, needle):
    proc = subprocess.run([*WIRESPEED, "site", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("Error:")]
    assert proc.returncode == 2 and len(errors) == 1, proc.stderr
    assert "--base-url" in errors[0] and needle in errors[0] and "Traceback" not in proc.stderr


def test_base_url_is_normalised():
    from wirespeed.system.hugo import base_url

    assert base_url("https://owner.github.io/repo") == "https://owner.github.io/repo/"
    assert base_url("/wirespeed") == "/wirespeed/" and base_url("/") == "/"


def test_a_root_relative_file_path_in_the_site_data_fails_the_build(tmp_path):
    """Old or hand-made site data with "/results/…" would escape the base path: the build fails and names it."""
    from wirespeed.system.hugo import binary

    data = tmp_path / "hugo-data"
    shutil.copytree(FIXTURE / "hugo-data", data)
    set_file = data / "wirespeed" / "sets" / "cisco-nexus-9516-100g.json"
    s = json.loads(set_file.read_text())
    wrong = "/" + s["downloads"][0]["url"]
    s["downloads"][0]["url"] = wrong
    set_file.write_text(json.dumps(s))
    overlay = tmp_path / "overlay.toml"
    text = (FIXTURE / "config.toml").read_text()
    assert 'source = "tests/site_fixture/hugo-data"' in text
    overlay.write_text(text.replace('source = "tests/site_fixture/hugo-data"', f'source = "{data.as_posix()}"'))
    proc = subprocess.run([str(binary()), "--config", f"config.toml,{overlay}", "--destination", str(tmp_path / "out"), "--cacheDir", str(tmp_path / "cache"),
                           "--baseURL", "http://example.invalid/sub/", "--logLevel", "warn"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out[-2000:]
    assert wrong in out and "not a path relative to the site root" in out, out[-2000:]


# --- in Chromium ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sub_site(tmp_path_factory):
    """The site built with base URL http://127.0.0.1:PORT/wirespeed/ into <tmp>/wirespeed/, served from <tmp>."""
    from wirespeed.system import hugo
    build("reports")
    served = tmp_path_factory.mktemp("served")
    httpd = range_server(str(served), port=0, quiet=True)  # serves like GitHub Pages: a missing file under /wirespeed/ gets its 404.html
    base = f"http://127.0.0.1:{httpd.server_address[1]}/{SUB}/"
    with pipeline_lock():
        hugo.build(root=WORK, destination=served / SUB, base_url=base)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield base, served / SUB
    httpd.shutdown()


# The elements and attributes whose URLs a page links, for both readings of a page: in Chromium (LINKS_JS) and from
# its HTML (html_links); a srcset's and a data-chart-scripts' lists are read apart.
LINKED = [("a", "href"), ("link", "href"), ("script", "src"), ("img", "src"), ("object", "data"), ("source", "src"), ("iframe", "src"),
          ("form", "action"), ("*", "data-vega"), ("*", "data-specs"), ("*", "data-index"), ("*", "data-root"), ("*", "data-figures")]
LINKS_JS = """() => {
  const SELECTORS = """ + json.dumps([[f"{'' if tag == '*' else tag}[{attr}]", attr] for tag, attr in LINKED]) + """;
  const out = [];
  const add = (el, attr, v) => {
    if (v === null || v === '') return;
    let abs; try { abs = new URL(v, document.baseURI).href; } catch (e) { abs = 'invalid:' + v; }
    out.push([el.tagName.toLowerCase(), attr, v, abs]);
  };
  for (const [sel, attr] of SELECTORS) {
    document.querySelectorAll(sel).forEach(el => add(el, attr, el.getAttribute(attr)));
  }
  document.querySelectorAll('[data-chart-scripts]').forEach(el =>
    el.getAttribute('data-chart-scripts').split('|').forEach(c => { if (c.trim()) add(el, 'data-chart-scripts', c.trim().split(/\\s+/)[0]); }));
  document.querySelectorAll('img[srcset], source[srcset]').forEach(el =>
    el.getAttribute('srcset').split(',').forEach(c => { if (c.trim()) add(el, 'srcset', c.trim().split(/\\s+/)[0]); }));
  return out;
}"""


def html_links(text: str, url: str) -> list[tuple[str, str, str, str]]:
    """What LINKS_JS lists, read from a page's HTML as served (its scripts not run): (tag, attribute, value, absolute URL)."""
    from lxml import html as lxml_html

    doc = lxml_html.fromstring(text)
    base = next((b.get("href") for b in doc.iter("base") if b.get("href")), None)
    base = urljoin(url, base) if base else url
    out = []

    def add(el, attr: str, value: str | None) -> None:
        if value:
            out.append((el.tag, attr, value, urljoin(base, value.strip())))

    for tag, attr in LINKED:
        for el in doc.iter(None if tag == "*" else tag):
            if isinstance(el.tag, str):
                add(el, attr, el.get(attr))
    for el in doc.xpath("//*[@data-chart-scripts]"):
        for c in el.get("data-chart-scripts").split("|"):
            if c.strip():
                add(el, "data-chart-scripts", c.strip().split()[0])
    for el in doc.xpath("//img[@srcset] | //source[@srcset]"):
        for c in el.get("srcset").split(","):
            if c.strip():
                add(el, "srcset", c.strip().split()[0])
    return out


def _status(url: str, cache: dict[str, tuple[int, str]]) -> tuple[int, str]:
    """HTTP status and content type of a same-host URL (redirects followed), once per URL."""
    if url not in cache:
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=30) as r:
                cache[url] = (r.status, r.headers.get("Content-Type", ""))
        except urllib.error.HTTPError as exc:
            cache[url] = (exc.code, "")
    return cache[url]


def _kind(url: str, prefix: str) -> tuple[str, int]:
    """A page's kind, from its address under the prefix: its first folder and its depth (a set's page, a test's page, a
    comparison, a review, a trend series)."""
    parts = [p for p in urlparse(url).path.removeprefix(prefix).split("/") if p]
    return (parts[0] if parts else "", len(parts))


@pytest.mark.browser
@pytest.mark.slow
def test_crawl_under_a_sub_path_finds_no_broken_link(sub_site, browser):  # noqa: F811
    base, public = sub_site
    host, prefix = urlparse(base).netloc, urlparse(base).path
    w = Watched(browser, base)  # one context and one page for the whole crawl
    page = w.page
    requests: list[str] = []
    responses: dict[str, int] = {}
    page.on("request", lambda r: requests.append(r.url))
    page.on("response", lambda r: responses.__setitem__(r.url, r.status))
    cache: dict[str, tuple[int, str]] = {}
    problems: list[str] = []
    checked = 0
    live_kinds: set[tuple[str, int]] = set()  # the kinds of page whose charts the crawl brought to life

    browsed: set[tuple[str, int]] = set()  # the kinds of page read in Chromium

    def visit(url: str, expect: int = 200, in_browser: bool = False) -> list[str]:
        """Load one page (in Chromium when it is the first of its kind or `in_browser`, else its HTML over HTTP); check every
        link and asset on it; return the same-host HTML pages it links."""
        kind = _kind(url, prefix)
        if not in_browser and kind in browsed:
            try:
                with urllib.request.urlopen(url, timeout=30) as r:
                    status, text = r.status, r.read().decode("utf-8", errors="replace")
            except urllib.error.HTTPError as exc:
                status, text = exc.code, ""
            if status != expect:
                problems.append(f"{url}: HTTP {status} (expected {expect})")
            return check_links(url, html_links(text, url) if text else [], 0)
        browsed.add(kind)
        w.inflight.clear()
        resp = page.goto(url, wait_until="load")
        w.settle(url)  # no request in flight for QUIET_MS, as every browser test waits (networkidle waits a fixed 500 ms)
        if resp is None or resp.status != expect:
            problems.append(f"{url}: HTTP {resp.status if resp else 'no response'} (expected {expect})")
        charts = 0 if kind in live_kinds else page.locator("figure.result-chart[data-vega]").count()
        if charts:  # every chart renders its Vega spec once it comes into view (from the page's spec bundle)
            live_kinds.add(kind)
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # collapsed scenarios: charts wait until shown
            try:  # scroll each chart not yet live into view again until all are (lazy loading), polled from Python (CSP: no eval)
                deadline = time.monotonic() + 30
                while True:
                    page.evaluate("""async () => { for (const f of document.querySelectorAll('figure.result-chart[data-vega]:not(.is-live)')) {
                        f.scrollIntoView(); await new Promise(r => setTimeout(r, 50)); } }""")
                    if page.locator("figure.result-chart.is-live").count() >= charts:
                        break
                    if time.monotonic() > deadline:
                        raise AssertionError("charts not live")
                    page.wait_for_timeout(100)
            except Exception:
                problems.append(f"{url}: only {page.locator('figure.result-chart.is-live').count()} of {charts} charts rendered")
        return check_links(url, page.evaluate(LINKS_JS), charts)

    def check_links(url: str, links: list, charts: int) -> list[str]:
        """Check a page's links and assets (LINKS_JS's list; `charts`: how many of its charts were brought to life)."""
        nonlocal checked
        found = []
        for tag, attr, raw, absolute in links:
            target = urldefrag(absolute).url
            parts = urlparse(target)
            if parts.scheme not in ("http", "https") or parts.netloc != host or target == url:
                continue  # mailto:, data:, other sites (not crawled), and this page's own anchors (its load is checked above)
            checked += 1
            where = f"{url}: <{tag} {attr}=\"{raw}\">"
            if not parts.path.startswith(prefix):
                problems.append(f"{where} leaves {prefix}")
                continue
            status, ctype = _status(target, cache)
            if status != 200:
                problems.append(f"{where}: HTTP {status}")
            elif attr == "data-vega" and tag == "figure" and charts and responses.get(target) != 200:
                problems.append(f"{where}: the chart did not fetch its spec ({responses.get(target)})")
            elif tag == "a" and ctype.startswith("text/html"):
                found.append(target)
        return found

    slugs = sorted(p.stem for p in (BUILD / "hugo-data" / "wirespeed" / "sets").glob("*.json"))
    # the home page, plus the states a reader reaches through the two forms (results filter, compare picker)
    queries = [f"{base}results/?vendor=Cisco", f"{base}compare/?sets={','.join(slugs)}"]  # read in Chromium: their scripts draw them
    queue = [base, *queries]
    seen: set[str] = set()
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        if len(seen) >= MAX_PAGES:
            problems.append(f"crawl stopped at {MAX_PAGES} pages with {len(queue) + 1} left")
            break
        seen.add(url)
        queue += [u for u in visit(url, in_browser=url in queries) if u not in seen]

    # GitHub Pages answers any missing address with 404.html: its links must work from any depth
    missing = f"{base}no/such/page/"
    before = len(w.problems)
    visit(missing, expect=404, in_browser=True)
    w.close()
    expected_404 = [f"HTTP 404: {missing}", "console error: Failed to load resource: the server responded with a status of 404 (Not Found)"]
    for p in w.problems[before:]:  # the document's own 404, once each; any failed asset still shows as "HTTP 404: <asset>"
        if p in expected_404:
            expected_404.remove(p)
        else:
            problems.append(p)
    problems += w.problems[:before]
    problems += [f"request outside {prefix}: {r}" for r in requests if urlparse(r).netloc == host and not urlparse(r).path.startswith(prefix)]
    pages = {p: p.read_text(encoding="utf-8", errors="replace") for p in public.rglob("*.html") if p.name != "404.html"}
    moved = {p: REFRESH.search(t) for p, t in pages.items()}  # a page left at an old address, sending the reader on
    expected = {base + p.relative_to(public).as_posix().removesuffix("index.html") for p in pages if not moved[p]}
    unreached = sorted(expected - seen)
    for p, m in moved.items():  # every old address leads to a page the crawl reached
        if m:
            target, fragment = urldefrag(urljoin(base + p.relative_to(public).as_posix(), html.unescape(m[1])))
            if target not in seen:
                problems.append(f"{p.relative_to(public)}: sends the reader to {target}, not a page of the site")
            elif fragment and not BeautifulSoup((public / target.removeprefix(base) / "index.html").read_text(encoding="utf-8"), "lxml").find(id=fragment):
                problems.append(f"{p.relative_to(public)}: sends the reader to #{fragment}, not a place on {target}")
    assert sum(1 for m in moved.values() if m) >= 28, "no set keeps its notebooks' old addresses"
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    assert not unreached, f"{len(unreached)} pages not reachable from the home page: {unreached[:10]}"
    assert len(seen) >= 60 and checked > 2000, (len(seen), checked)
    assert any("/charts/specs-" in u and s == 200 for u, s in responses.items()), "no chart spec bundle was fetched"
