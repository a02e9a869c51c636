"""The whole pipeline (ingest → analyse → site --data-only → report → site) on the example archive
plus one valid hostile set whose every free-text field, key cell and attachment carries script,
markup, shortcodes, Go templates, LaTeX and spreadsheet formulas. It builds in a temporary working
folder; Chromium loads every page of that set and its downloads: nothing executes, the payload shows
as text, every published file comes from the set's own declared files, and the PDF prints the
payload literally."""

from __future__ import annotations

import csv
import gzip
import io
import os
import shutil
import subprocess
import threading
from pathlib import Path

import duckdb
import pytest

import hostile
import pipeline
from conftest import ROOT, WIRESPEED, copy_examples
from wirespeed.resultset import publish
from wirespeed.system import csvsafe, rangeserver
pytestmark = pytest.mark.browser
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SLUG = hostile.SLUG
# What the CLI reads relative to its working folder (besides data/results and build/).
SITE_SOURCES = ["config.toml", "layouts", "content", "static", "assets", "notebooks", "reports"]


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    w = tmp_path_factory.mktemp("hostile-site")
    for name in SITE_SOURCES:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, w / name)
    (w / "node_modules").symlink_to(ROOT / "node_modules")
    copy_examples(w / "data" / "results")
    pipeline.warm(w)  # the examples' notebook runs and reports: the hostile set's are what this build computes
    hostile.make(w / "data" / "results")
    Path("/tmp/wirespeed-pwned").unlink(missing_ok=True)
    for step in (["ingest"], ["analyse"], ["site", "--data-only"], ["report"], ["site"]):
        proc = subprocess.run([*WIRESPEED, *step], cwd=w, capture_output=True, text=True, timeout=1200)
        assert proc.returncode == 0, f"wirespeed {' '.join(step)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        assert "Traceback" not in proc.stderr
    assert (w / "public" / "results" / SLUG / "index.html").is_file()
    return w


@pytest.fixture(scope="module")
def server(work):
    httpd = rangeserver.server(str(work / "public"), port=0, quiet=True)  # the server `wirespeed serve` runs
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    if shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is not installed (make installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        yield b
        b.close()


def test_nothing_ran_during_the_build(work):
    assert not Path("/tmp/wirespeed-pwned").exists()
    for p in (work / "public").rglob("*"):
        if p.is_file() and p.suffix in (".html", ".json", ".txt", ".csv", ".toml"):
            assert "root:x:0:0" not in p.read_text(errors="replace"), p


def test_every_published_set_file_is_a_declared_file_of_that_set(work):
    """public/results/<slug>/data/ holds exactly the set's declared files (published names) and its Parquet."""
    con = duckdb.connect(str(work / "build" / "wirespeed.duckdb"), read_only=True)
    rows = con.execute("SELECT s.slug, s.path, f.path FROM files f JOIN published_sets s USING (slug)").fetchall()
    con.close()
    declared: dict[str, dict[str, Path]] = {}
    for slug, set_path, path in rows:
        declared.setdefault(slug, {})[publish.published_name(slug, path)] = (work / set_path / path)
    results = work / "public" / "results"
    for data_dir in results.glob("*/data"):
        slug = data_dir.parent.name
        assert slug in declared, f"{data_dir} belongs to no published set"
        files = {p.relative_to(data_dir).as_posix(): p for p in data_dir.rglob("*") if not p.is_dir()}
        assert set(files) == set(declared[slug]) | {f"{slug}-measurements.parquet"}, slug
        for name, p in files.items():
            assert not p.is_symlink(), p
            if name.endswith(".parquet"):
                continue
            src = declared[slug][name]
            assert src.resolve().is_relative_to((work / "data" / "results" / slug).resolve()), src
            expected = csvsafe.neutralise_csv_bytes(src.read_bytes()) if name.endswith(".csv") else src.read_bytes()
            published = p.read_bytes()
            if name.endswith(".gz") and not src.name.endswith(".gz"):  # a capture, published gzip-compressed
                published = gzip.decompress(published)
            assert published == expected, name
    assert declared[SLUG].keys() >= {"raw/hostile.txt", "raw/formulas.csv", "cpu.csv", "result.toml"}
    assert not list((work / "public").rglob(".git*"))
    active = [p for p in results.glob("*/data/**/*") if p.suffix.lower() in (".html", ".htm", ".svg", ".xml", ".js", ".xhtml")]
    assert not active, active


def test_csv_downloads_carry_no_formula(work):
    set_dir = work / "public" / "results" / SLUG
    cells = []
    for p in list(set_dir.glob("tables/*.csv")) + list(set_dir.glob("data/**/*.csv")):
        cells += [c for row in csv.reader(io.StringIO(p.read_text(encoding="utf-8"))) for c in row]
    bad = [c for c in cells if csvsafe.needs_neutralising(c)]
    assert not bad, bad
    for formula in hostile.FORMULAS:
        assert any(c.startswith("'" + formula) for c in cells), formula
    assert "-5" in cells and "+3.2" in cells  # plain numbers unchanged


def _set_pages(work: Path) -> list[str]:
    public = work / "public"
    return sorted("/" + p.relative_to(public).as_posix().removesuffix("index.html") for p in (public / "results" / SLUG).rglob("index.html"))


def test_no_script_runs_and_the_payload_shows_as_text(work, server, browser):
    paths = _set_pages(work)
    assert len(paths) >= 5, paths  # the set page, its tests and its comparison
    paths += ["/", "/results/", "/compare/"]
    downloads = [f"/results/{SLUG}/data/raw/hostile.txt", "/notebooks/throughput.html", "/notebooks/comparison.html"]
    ctx = browser.new_context()
    page = ctx.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(f"{page.url}: {d.message}"), d.dismiss()))
    seen_payload = 0
    for path in paths + downloads:
        page.goto(server + path, wait_until="networkidle")
        page.wait_for_timeout(100)
        assert page.evaluate(f"typeof window.{hostile.MARK}") == "undefined", path
        assert page.evaluate("Array.from(document.scripts).filter(s => s.textContent.includes('alert(')).length") == 0, path
        assert page.evaluate("document.querySelectorAll('img[src=\"x\"], [onerror], a[href^=\"javascript:\" i]').length") == 0, path
        text = page.evaluate("document.body ? document.body.innerText : ''")
        if hostile.LITERALS[0] in text:
            seen_payload += 1
            if path in paths[:1]:
                for literal in hostile.LITERALS:
                    assert literal in text, (path, literal)
        assert "root:x:0:0" not in text, path
    ctx.close()
    assert not dialogs, dialogs
    assert seen_payload >= len(_set_pages(work)), "the payload is not shown as text on every page of the set"


def test_pdf_shows_the_payload_literally(work):
    pdf = work / "build" / "reports" / f"{SLUG}.pdf"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    flat = "".join(text.split())
    for literal in hostile.LITERALS:
        assert "".join(literal.split()) in flat, literal
    assert "root:x:0:0" not in text
    assert (work / "public" / "reports" / f"{SLUG}.pdf").read_bytes() == pdf.read_bytes()
    assert os.path.getsize(pdf) > 0


def test_headers_file_sends_the_pages_csp_and_downloads_as_attachments(work):
    import re

    public = work / "public"
    headers = (public / "_headers").read_text()
    meta = re.search(r'http-equiv="?Content-Security-Policy"? content="([^"]+)"', (public / "index.html").read_text()).group(1)
    blocks = {b.splitlines()[0]: b.splitlines()[1:] for b in headers.strip().split("\n\n")}
    assert f"  Content-Security-Policy: {meta}; frame-ancestors 'self'" in blocks["/*"]
    assert "  X-Content-Type-Options: nosniff" in blocks["/*"]
    data = blocks["/results/*/data/*"]
    assert "  Content-Disposition: attachment" in data and "  Content-Type: application/octet-stream" in data


def test_killing_site_during_hugo_leaves_the_previous_public_whole(work):
    """Last in this module: SIGKILL `wirespeed site` while Hugo runs; public/ stays as it was; the next run sweeps and rebuilds."""
    import hashlib
    import signal
    import time
    import uuid

    from test_interrupts import MARK, marked, reap, wait_for

    public = work / "public"

    def tree():
        return {p.relative_to(public).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in public.rglob("*") if p.is_file()}

    before = tree()
    about = work / "content" / "about.md"
    for attempt in range(3):
        # a page changed, so that Hugo has something to build (with the same inputs the site step keeps the site)
        about.write_text(about.read_text(encoding="utf-8") + f"\n<!-- changed before attempt {attempt} -->\n", encoding="utf-8")
        token = uuid.uuid4().hex
        proc = subprocess.Popen([*WIRESPEED, "site"], cwd=work, env={**os.environ, MARK: token}, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert wait_for(lambda: [p for p, n in marked(token).items() if n == "hugo"], 120, 0.005), "hugo never started"
            time.sleep(0.3)
            if proc.poll() is not None:
                continue
            proc.kill()
            proc.wait(30)
            assert wait_for(lambda: not marked(token), 20) is True, marked(token)
            break
        finally:
            reap(proc, token)
    else:
        pytest.fail("the site build finished each time before it could be killed")
    assert tree() == before
    assert list(work.glob(".public.*")), "a killed build leaves its temporary folder (the next run removes it)"
    again = subprocess.run([*WIRESPEED, "site"], cwd=work, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert not list(work.glob(".public.*")) and not list((work / "build").glob(".site-static.*")) and not list((work / "build").glob(".hugo-data.*"))
    assert tree().keys() == before.keys()
