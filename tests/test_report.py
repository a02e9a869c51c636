"""PDF test reports: every example builds, numbered tables and figures, embedded fonts, the seed
tables with their values, and text from result sets printed literally, never run as LaTeX."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ARCHIVE, EXAMPLES, ROOT
from pipeline import BUILD, build

REPORTS = BUILD / "reports"
SETS = sorted(p.name for p in ARCHIVE.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def reports():
    build("reports")
    return REPORTS


def text_of(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def squash(s: str) -> str:
    return re.sub(r"\s+", " ", s)


@pytest.mark.parametrize("slug", SETS)
def test_report_builds_with_embedded_fonts_and_metadata(reports, slug):
    pdf = reports / f"{slug}.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Title:\s+\S", info, re.M) and re.search(r"^Author:\s+\S", info, re.M) and re.search(r"^Subject:\s+\S", info, re.M)


@pytest.mark.parametrize("slug", SETS)
def test_report_tables_match_the_site_data_cell_for_cell(reports, slug):
    """Every table the report prints has every row of the exported data, in order, on one line."""
    data = json.loads((BUILD / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json").read_text())
    manifest = json.loads((reports / f"{slug}.manifest.json").read_text())
    text = text_of(reports / f"{slug}.pdf")
    lines = [squash(l) for l in text.splitlines()]
    assert manifest["tables"] or slug not in EXAMPLES, slug  # every example prints tables; a contributed set may have none
    for tid in manifest["tables"]:
        columns = len(data["tables"][tid]["columns"])
        parts = manifest.get("table_parts", {}).get(tid, [list(range(columns))])  # a table too wide for a page prints in parts by columns
        assert sorted({i for p in parts for i in p}) == list(range(columns)), f"{slug} {tid}: a column is missing from every part"
        table = data["tables"][tid]
        if table.get("layout", {}).get("kind") == "transposed":  # its columns print as rows: each column's cells on one line
            keys = table["layout"]["keys"]
            printed = [[row[i] for row in table["rows"] if i < len(row) and row[i]] for i in range(keys, columns)]
        else:
            printed = [[row[i] for i in part if row[i]] for part in parts for row in table["rows"]]
        for cells in printed:
            pattern = r"\s*".join(re.escape(c) + r"(?:\s*[†‡])*" for c in cells)  # † derived cell, ‡ flagged figure
            assert any(re.search(pattern, l) for l in lines), f"{slug} {tid}: row {cells} not found"


@pytest.mark.parametrize("slug", SETS)
def test_a_lab_report_opens_with_its_summary_and_draws_its_test_bed(reports, slug):
    """Issue 23: the executive summary on page 2 at the latest (after the cover), and
    the test-bed diagram printed as a drawing (Graphviz's text, not a picture of it) on a page titled for it."""
    pdf = reports / f"{slug}.pdf"
    pages = text_of(pdf).split("\f")
    summary = next((i for i, page in enumerate(pages, 1) if "Executive summary" in page), None)
    assert summary is not None and summary <= 2, (slug, summary)
    data = json.loads((BUILD / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json").read_text())
    diagram = data.get("testbed_diagram")
    assert diagram or slug not in EXAMPLES, slug  # every example declares its test bed
    if diagram:
        svg = (BUILD / "site-static" / diagram["svg"]).read_text(encoding="utf-8")  # the web page's drawing
        labels = [re.sub(r"\s+", " ", html.unescape(t)).strip() for t in re.findall(r"<text[^>]*>([^<]+)</text>", svg)]
        assert labels, (slug, diagram)
        drawn = [i for i, page in enumerate(pages, 1) if "Test-bed diagram" in page or "Test bed" in page]
        flat = [squash(p) for p in pages]
        assert any(all(squash(label) in flat[i - 1] for label in labels[:3]) for i in drawn), (slug, labels[:3])


@pytest.mark.parametrize("slug", SETS)
def test_tables_and_figures_are_numbered_and_listed(reports, slug):
    text = text_of(reports / f"{slug}.pdf")
    manifest = json.loads((reports / f"{slug}.manifest.json").read_text())
    n_tables = len(re.findall(r"^\s*Table \d+:", text, re.M))
    assert n_tables >= len(manifest["tables"])
    assert "List of Tables" in text
    if manifest["charts"]:
        assert re.search(r"Figure 1:", text) and "List of Figures" in text
    for i in range(1, len(manifest["tables"]) + 1):
        assert f"Table {i}:" in text


@pytest.mark.parametrize("slug", SETS)
def test_cover_built_without_a_public_base_url_says_nothing_about_urls(reports, slug):
    """Issue 23: a report built without a full base URL (the session pipeline builds with config.toml's "/") names no web
    page or data link and no build note on its cover; its colophon says what built it and links nothing of the site's."""
    import wirespeed

    pages = subprocess.run(["pdftotext", str(reports / f"{slug}.pdf"), "-"], capture_output=True, text=True, check=True).stdout.split("\f")
    cover = squash(pages[0])
    assert "Test instrument" in cover and "Prepared by" in cover, slug
    for note in ("Web page", "#downloads", "URL", "serving this report", "Built", f"wirespeed {wirespeed.__version__}", "Report number", "/results/"):
        assert note not in cover, (slug, note)
    colophon = next((p for p in reversed(pages) if re.search(r"^Colophon$", p, re.M)), "")
    assert re.search(r"^Built (\d{1,2} \w+ \d{4}|date not recorded.*) by wirespeed " + re.escape(wirespeed.__version__) + "$", colophon, re.M), slug
    assert f"Result set {slug}" in colophon and "Web page" not in colophon and "/results/" not in colophon, slug


def test_nexus_report_has_the_seed_tables_1_to_14(reports):
    text = squash(text_of(reports / "cisco-nexus-9516-128x100g-2015.pdf"))
    manifest = json.loads((reports / "cisco-nexus-9516-128x100g-2015.manifest.json").read_text())
    tests = ["l2-unicast", "ipv4-unicast", "ipv4-bgp", "ipv6-unicast", "ipv6-bgp-mp", "l2-multicast", "l3-multicast"]
    for t in tests:
        assert f"{t}-results" in manifest["tables"] and f"{t}-jitter-max-vs-load" in manifest["tables"]
    for fragment in ["64 19,047,430,585 9.752 99.999 2.22 3.95 6.41 2.20", "86 15,094,187,638 10.385 99.999 3.26 4.15 7.38 2.92",
                     "9216 171,880,066 12.672 99.999 7.34 21.46 38.88 13.73", "9216 5.20 11.75 29.96 36.23", "512 1.92 2.23 4.66 4.57"]:
        assert fragment in text, fragment


def test_cisco_7600_report_has_the_seed_tables_1_to_3(reports):
    text = squash(text_of(reports / "cisco-7600-osm-acl-2001.pdf"))
    for fragment in ["40 28.7", "95.6", "64 26.9", "91.2", "40 28.7 28.7 31.7 31.7 0 0 0 0", "1500 1.40 ‡ 1.40 ‡ 69.7 69.8 0 0 0 0", "idle 1 1", "no-acl 1 1", "acl-15k 1 1"]:
        assert fragment in text, fragment


EVIL = r"Evil \input{/etc/passwd} \write18{touch /tmp/wirespeed-pwned} 100% & #1 a_b {x} $y$ ~z ^w \\"


def test_latex_in_result_set_text_is_printed_literally(tmp_path: Path):
    from wirespeed.analysis import run as analysis
    from wirespeed.site import data as site
    from wirespeed.report import typesetting as report
    from wirespeed.catalog.store import ingest, result_folders

    archive = tmp_path / "results"
    slug = "keysight-ixnetwork-ve-dpdk-400g-2022"
    shutil.copytree(ARCHIVE / slug, archive / slug)
    toml = archive / slug / "result.toml"
    toml_text = toml.read_text()
    literal = EVIL.replace("\\", "\\\\").replace('"', '\\"')
    toml_text = toml_text.replace('title = "Keysight IxNetwork VE software traffic generator at 400 Gbit/s with DPDK and SR-IOV"', f'title = "{literal}"')
    toml_text = toml_text.replace('title = "Scenario 1: one bidirectional flow, 2 × 200G"', f'title = "Flow {literal}"')
    toml_text = toml_text.replace('notes = "The post states', f'notes = "{literal} The post states')
    toml.write_text(toml_text)
    db = tmp_path / "c.duckdb"
    assert ingest(result_folders(archive), db)[0].action == "loaded"
    plan, errors = analysis.run(db, out_root=tmp_path / "analysis")
    assert not errors
    site.export(db, tmp_path / "analysis", tmp_path / "hugo-data", tmp_path / "site-static")
    Path("/tmp/wirespeed-pwned").unlink(missing_ok=True)
    built, fresh, errors = report.run([slug], out=tmp_path / "reports", data_root=tmp_path / "hugo-data", static_root=tmp_path / "site-static")
    assert not errors, errors
    assert not Path("/tmp/wirespeed-pwned").exists()
    text = text_of(tmp_path / "reports" / f"{slug}.pdf")
    flat = squash(text)
    assert squash(EVIL) in flat or squash(EVIL).replace("} \\", "}\\") in flat, flat[:2000]
    assert "root:x:0:0" not in text


EXAMPLES = sorted((ROOT / "reports" / "examples").glob("*.md"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.stem for e in EXAMPLES])
def test_template_example_builds(example: Path, tmp_path: Path):
    """Every feature of the template has an example report, built here."""
    from wirespeed.report.shortcodes import pandoc

    out = tmp_path / f"{example.stem}.pdf"
    proc = subprocess.run(["sh", str(ROOT / "reports" / "build-example.sh"), str(example), str(out)], capture_output=True, text=True,
                          env={**__import__("os").environ, "PANDOC": str(pandoc())})
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = text_of(out)
    assert text.strip()
    if example.stem == "escaping":
        assert "\\input" in text and "\\write18" in text


def test_article_references_number_tables_and_figures(reports):
    """result-ref becomes "Table N" / "Figure N" in the PDF, numbered as LaTeX numbers the captions."""
    t7600 = squash(text_of(reports / "cisco-7600-osm-acl-2001.pdf"))
    assert "per packet size is in Table 1, beside" in t7600 and "stand side by side in Table 2." in t7600
    assert "both processors are in Table 3." in t7600 and "Table 3: Processor utilisation" in t7600
    nexus = squash(text_of(reports / "cisco-nexus-9516-128x100g-2015.pdf"))
    assert "per frame size are in Table 1;" in nexus and "Figure 1 draws the throughput" in nexus and "Table 8 in the appendix" in nexus
    assert "Table 8: Layer-2 unicast: maximum jitter vs offered load" in nexus


def test_a_set_without_a_summary_or_headlines_still_says_what_its_report_holds():
    """A set imported from a tool's output gives no summary and may mark no headline figure: its report's summary page
    held only its heading."""
    from wirespeed.report.summary import holdings, summary_blocks

    data = {"slug": "s", "tests": [{"id": "mrr", "title": "CSIT MRR, 1C"}, {"id": "b"}],
            "dut": {"vendor": "Example", "model": "Device under test"}, "instrument": {"vendor": "FD.io", "product": "CSIT"}}
    assert holdings(data, False) == ("This report holds 2 tests of the Example Device under test, measured with FD.io CSIT: CSIT MRR, 1C; b. "
                                     "It marks no headline figure: each figure is in its test's tables.")
    assert holdings({"tests": [{"id": "t", "title": "T"}]}, True) == "This report holds 1 test: T."
    spirent = {"tests": [{"id": "t", "title": "T"}], "instrument": {"vendor": "Spirent", "product": "Spirent TestCenter"}}
    assert holdings(spirent, True) == "This report holds 1 test, measured with Spirent TestCenter: T."  # the vendor once
    blocks = summary_blocks(data, "", [], [], None)
    assert [b["t"] for b in blocks] == ["Header", "Para", "RawBlock"]  # heading, the sentence, the contents
    own = summary_blocks(data, "The set's own words.", [], [], None)
    assert "".join(i.get("c", " ") if i["t"] == "Str" else " " for i in own[1]["c"]) == "The set's own words."
