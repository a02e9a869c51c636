"""Issue 26, item 3: the archive queried in the browser, from the built site under a sub-path (/wirespeed/) served by a
server that honours Range requests (wirespeed/system/rangeserver.py, the one `make serve` runs), which counts the
bytes it sends of every file. The results page's measurements browser (hyparquet) filters by device, test and frame
size from the Parquet archive and reads only the files its filters pick, and less than each file; the SQL page
(DuckDB-Wasm) loads nothing heavy until asked, states its download size, and answers a query over every set; the
other pages never load either reader and stay within the page budget; without JavaScript the results page lists
every set; axe finds no violation on either page in use."""

from __future__ import annotations

import collections
import gzip
import json
import re
import threading

import duckdb
import pytest

from pipeline import BUILD, WORK, build
from test_accessibility_browser import AXE, violations
from test_base_url import SUB, pipeline_lock
from test_site import Watched, browser, wait_for  # noqa: F401  (browser: the suite's one Chromium fixture)

pytestmark = pytest.mark.browser
NEXUS = "cisco-nexus-9516"
HEAVY = re.compile(r"sql-runtime|duckdb|archive-browser|\.parquet$")
BUDGET = 200_000  # bytes a page may fetch on load (HTML, CSS, scripts, images, charts in view), compressed as hosts send them


class Counted:
    """The bytes the server sent, per file (path under the site) and in all."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sent: list[tuple[str, int, int]] = []

    def __call__(self, path: str, first: int, last: int) -> None:
        with self.lock:
            self.sent.append((path, first, last))

    def clear(self) -> None:
        with self.lock:
            self.sent.clear()

    def compressed(self, site) -> int:
        """The gzip-compressed size of every file sent whole (as GitHub Pages and other hosts send text)."""
        with self.lock:
            whole = {p.removeprefix(SUB).lstrip("/") for p, a, b in self.sent if a == 0}
        total = 0
        for p in whole:
            f = site / p
            f = f / "index.html" if f.is_dir() else f
            total += len(gzip.compress(f.read_bytes(), 6))
        return total

    def per_file(self) -> dict[str, int]:
        out: dict[str, int] = collections.Counter()
        with self.lock:
            for path, a, b in self.sent:
                out[path.removeprefix(SUB + "/")] += b - a + 1
        return dict(out)


@pytest.fixture(scope="module")
def ranged_site(tmp_path_factory):
    """The site built for http://127.0.0.1:PORT/wirespeed/, served with Range support; (base URL, site folder, counter)."""
    from wirespeed.system import hugo, rangeserver

    build("reports")
    served = tmp_path_factory.mktemp("ranged")
    counted = Counted()
    httpd = rangeserver.server(str(served), port=0, served=counted, quiet=True)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/{SUB}/"
    with pipeline_lock():
        hugo.build(root=WORK, destination=served / SUB, base_url=base)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield base, served / SUB, counted
    httpd.shutdown()


def archive_rows(site, sql: str) -> list[tuple]:
    """Rows of the published archive as DuckDB reads it: the oracle of what the browser shows."""
    root = (site / "archive").as_posix()
    return duckdb.connect().execute(sql.replace("measurements", f"read_parquet('{root}/measurements/*/*/*/*.parquet', hive_partitioning = true)")).fetchall()


def test_the_results_browser_filters_by_device_test_and_frame_size_reading_only_what_it_needs(ranged_site, browser):  # noqa: F811
    base, site, counted = ranged_site
    index = json.loads((site / "archive" / "index.json").read_text())
    sizes = dict(zip(index["files"], index["bytes"], strict=True))
    assert all((site / "archive" / f).stat().st_size == n for f, n in sizes.items())
    w = Watched(browser, base)
    page = w.goto("results/")
    assert not [p for p in counted.per_file() if HEAVY.search(p)]  # nothing of the reader before it is asked for
    page.click("#archive-open")
    page.wait_for_selector("#archive-form:not([hidden])")
    reader = [p for p in counted.per_file() if "archive-browser" in p]
    assert len(reader) == 1 and not [p for p in counted.per_file() if p.endswith(".parquet")]

    def show(device: str, test: str, frame: str) -> None:
        counted.clear()
        page.evaluate("([d, t, f]) => { const e = document.getElementById('archive-form').elements; e.device.value = d; e.test.value = t; e.frame_size.value = f; }",
                      [device, test, frame])
        page.click("#archive-form button[type=submit]")
        wait_for(page, "/rows? from/.test(document.getElementById('archive-status').textContent)", 60)

    # device, test and frame size: one file, and less than all of it
    show(NEXUS, "ipv4-unicast", "64")
    want = archive_rows(site, f"SELECT slug, load_pct, throughput_fps FROM measurements WHERE device = '{NEXUS}' AND test = 'ipv4-unicast' AND frame_size = 64 ORDER BY row_id")
    got = page.evaluate("Array.from(document.querySelectorAll('#archive-out tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent))")
    head = page.evaluate("Array.from(document.querySelectorAll('#archive-out thead th')).map(c => c.textContent)")
    assert len(got) == len(want) == 4
    col = {h: i for i, h in enumerate(head)}
    assert [r[col["Frame (bytes)"]] for r in got] == ["64"] * 4
    assert sorted((r[col["Result set"]], float(r[col["Load (%)"]]), r[col["Throughput (frames/s)"]]) for r in got) == \
        sorted((s, load, "" if fps is None else f"{fps:.0f}") for s, load, fps in want)
    assert "19047430585" in [r[col["Throughput (frames/s)"]] for r in got]  # the 9.752 Tbit/s of the review, to the frame
    assert page.text_content("#archive-status").startswith("4 rows from 1 result set (1 file read)")
    fetched = counted.per_file()
    unicast = f"device={NEXUS}/test=ipv4-unicast/"
    assert [p for p in fetched if p.endswith(".parquet")] == [p for p in fetched if unicast in p and p.endswith(".parquet")] != []
    (path, n), = [(p, n) for p, n in fetched.items() if p.endswith(".parquet")]
    assert n < sizes[path.removeprefix("archive/")], f"{path}: {n} bytes read of {sizes[path.removeprefix('archive/')]}"

    # a device alone: its files, none of the others, and less than they hold
    show(NEXUS, "", "")
    mine = {f for f in sizes if f.startswith(f"measurements/device={NEXUS}/")}
    fetched = {p.removeprefix("archive/"): n for p, n in counted.per_file().items() if p.endswith(".parquet")}
    assert set(fetched) == mine and len(mine) == 7
    assert sum(fetched.values()) < sum(sizes[f] for f in mine)
    n_rows = archive_rows(site, f"SELECT count(*) FROM measurements WHERE device = '{NEXUS}'")[0][0]
    assert page.text_content("#archive-status").startswith(f"{n_rows} rows from 1 result set (7 files read)")

    # a test of another device and a frame size it has
    show("", "bridge", "1518")
    n_rows = archive_rows(site, "SELECT count(*) FROM measurements WHERE test = 'bridge' AND frame_size = 1518")[0][0]
    assert n_rows > 0 and page.text_content("#archive-status").startswith(f"{n_rows} rows from 1 result set")
    if AXE.is_file():
        assert not violations(page), violations(page)
    w.close()
    assert not w.problems, w.problems


def test_the_compare_page_reads_only_the_files_of_the_sets_compared(ranged_site, browser):  # noqa: F811
    base, site, counted = ranged_site
    index = json.loads((site / "archive" / "index.json").read_text())
    chosen = ["cisco-catalyst-6500-vss-2008", "cisco-nexus-9516-128x100g-2015"]
    w = Watched(browser, base)
    page = w.goto("compare/?sets=" + ",".join(chosen))
    page.click("#archive-open")
    page.wait_for_selector("#archive-form:not([hidden])")
    counted.clear()
    page.evaluate("document.getElementById('archive-form').elements.frame_size.value = '64'")
    page.click("#archive-form button[type=submit]")
    wait_for(page, "/rows? from/.test(document.getElementById('archive-status').textContent)", 60)
    holding = {f for f, slugs in index["sets"].items() if set(slugs) & set(chosen)}
    fetched = {p.removeprefix("archive/") for p in counted.per_file() if p.endswith(".parquet")}
    assert fetched == holding and len(holding) < len(index["sets"])
    n_rows = archive_rows(site, f"SELECT count(*) FROM measurements WHERE frame_size = 64 AND slug IN ('{chosen[0]}', '{chosen[1]}')")[0][0]
    assert page.text_content("#archive-status").startswith(f"{n_rows} rows from 2 result sets ({len(holding)} files read)")
    shown = set(page.evaluate("Array.from(document.querySelectorAll('#archive-out tbody tr td:first-child a')).map(a => a.textContent)"))
    assert shown == set(chosen)
    w.close()
    assert not w.problems, w.problems


def test_the_sql_page_loads_on_request_and_answers_over_every_set(ranged_site, browser):  # noqa: F811
    base, site, counted = ranged_site
    w = Watched(browser, base)
    counted.clear()
    page = w.goto("sql/")
    assert not [p for p in counted.per_file() if HEAVY.search(p)]  # the page alone loads no engine
    stated = int(page.get_attribute("#sql", "data-bytes"))
    files = [page.get_attribute("#sql", a).removeprefix(f"/{SUB}/") for a in ("data-runtime", "data-worker", "data-wasm")]
    assert stated == sum((site / f).stat().st_size for f in files) > 10_000_000
    assert f"({stated / 1e6:.1f} MB download)" in page.text_content("#sql-load")
    page.click("#sql-load")
    wait_for(page, "!document.querySelector('#sql-form button[type=submit]').disabled", 120)
    assert page.text_content("#sql-status").startswith("Ready: measurements")
    page.fill("#sql-query", "SELECT slug, count(*) AS n, count(DISTINCT test) AS tests FROM measurements GROUP BY slug ORDER BY slug")
    page.click("#sql-form button[type=submit]")
    wait_for(page, "/^\\d+ rows?\\./.test(document.getElementById('sql-status').textContent)", 60)
    got = page.evaluate("Array.from(document.querySelectorAll('#sql-out tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent))")
    want = archive_rows(site, "SELECT slug, count(*), count(DISTINCT test) FROM measurements GROUP BY slug ORDER BY slug")
    published = json.loads((BUILD / "hugo-data" / "wirespeed" / "build.json").read_text())["sets"]
    assert [r[0] for r in got] == sorted(published) == [r[0] for r in want]  # every published set
    assert [[s, str(n), str(t)] for s, n, t in want] == got
    # the first example: every 64-byte throughput as % of line rate, by device
    page.click(".sql-examples [data-example] >> nth=0")
    wait_for(page, "/^Error|^\\d+ rows?\\./.test(document.getElementById('sql-status').textContent) && document.querySelector('#sql-out thead th')?.textContent !== 'slug'", 60)
    assert not page.text_content("#sql-status").startswith("Error"), page.text_content("#sql-status")
    got = page.evaluate("Array.from(document.querySelectorAll('#sql-out tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent))")
    want = archive_rows(site, "SELECT device, count(*), min(throughput_line_rate_pct), max(throughput_line_rate_pct) FROM measurements"
                        " WHERE frame_size = 64 AND throughput_line_rate_pct IS NOT NULL GROUP BY device ORDER BY device")
    assert len(got) == len(want) >= 2
    assert [(d, int(n), float(lo), float(hi)) for d, n, lo, hi in got] == want
    if AXE.is_file():
        assert not violations(page), violations(page)
    w.close()
    assert not w.problems, w.problems


def test_other_pages_load_neither_reader_and_stay_within_the_budget(ranged_site, browser):  # noqa: F811
    base, site, counted = ranged_site
    w = Watched(browser, base)
    paths = ["", "results/", "sql/"] + [f"reviews/{p.name}/" for p in sorted((site / "reviews").iterdir()) if p.is_dir()]
    assert len(paths) >= 10
    for path in paths:
        counted.clear()
        w.goto(path)
        fetched = counted.per_file()
        assert not [p for p in fetched if HEAVY.search(p)], f"{path}: {[p for p in fetched if HEAVY.search(p)]}"
        sent = counted.compressed(site)
        assert sent < BUDGET, f"{path}: {sent} bytes (compressed) on load: {sorted(fetched.items(), key=lambda x: -x[1])[:5]}"
    w.close()
    assert not w.problems, w.problems


def test_without_javascript_the_results_page_lists_every_set(ranged_site, browser):  # noqa: F811
    base, site, _ = ranged_site
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto(base + "results/")
    published = json.loads((BUILD / "hugo-data" / "wirespeed" / "build.json").read_text())["sets"]
    hrefs = page.evaluate("Array.from(document.querySelectorAll('#result-list .card a[href]')).map(a => a.getAttribute('href'))")
    assert {f"/{SUB}/results/{s}/" for s in published} <= set(hrefs)
    assert not page.is_visible("#archive-browser")
    ctx.close()
