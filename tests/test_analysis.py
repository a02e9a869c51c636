"""The analysis step: notebooks produce every table and chart, the values match the engine and the
seeds, the specs are valid Vega-Lite, and the cache re-executes only what changed."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest

from conftest import ARCHIVE, EXAMPLES
from pipeline import BUILD, build

OUT = BUILD / "analysis"


@pytest.fixture(scope="module")
def analysed():
    build("analyse")
    return OUT


def table(slug: str, tid: str) -> dict:
    index = json.loads((OUT / slug / "index.json").read_text())
    return json.loads((OUT / slug / index["tables"][tid]["json"]).read_text())


def row(t: dict, first: str) -> list[str]:
    return next(r for r in t["rows"] if r[0] == first)


def test_every_example_has_outputs(analysed):
    for folder in ARCHIVE.iterdir():
        index = json.loads((analysed / folder.name / "index.json").read_text())
        assert (index["tables"] and index["charts"]) or folder.name not in EXAMPLES, folder.name  # a contributed set may have neither
        for nb in index["notebooks"]:
            assert (analysed / folder.name / nb["ipynb"]).is_file() and "html" not in nb  # the page is the site's, of the source


def test_nexus_tables_1_to_14(analysed):
    slug = "cisco-nexus-9516-128x100g-2015"
    t1 = table(slug, "l2-unicast-results")
    labels = [c["label"] for c in t1["columns"]]
    r = row(t1, "64")
    assert r[labels.index("Throughput")] == "19,047,430,585"
    assert r[labels.index("Throughput (L2)")] == "9.752" and r[labels.index("Of line rate")] == "99.999"
    assert r[labels.index("Minimum latency"):labels.index("Maximum jitter") + 1] == ["2.22", "3.95", "6.41", "2.20"]
    assert r[labels.index("Line rate")] == "19,047,619,048"  # derived: 128 × 148,809,523.8
    assert row(table(slug, "ipv6-unicast-results"), "86")[1:3] == ["15,094,190,275", "10.385"]
    assert row(table(slug, "l2-multicast-results"), "64")[1:3] == ["18,898,622,534", "9.676"]
    jitter = {"l2-unicast": ["1.90", "1.98", "2.12", "2.20"], "ipv4-unicast": ["1.89", "2.00", "2.08", "2.25"], "ipv4-bgp": ["1.87", "1.99", "2.80", "3.64"],
              "ipv6-unicast": ["1.91", "1.97", "2.39", "2.30"], "ipv6-bgp-mp": ["1.90", "2.05", "2.82", "2.92"], "l2-multicast": ["1.95", "1.97", "2.04", "1.91"],
              "l3-multicast": ["1.94", "1.97", "2.03", "1.92"]}
    for test, values in jitter.items():
        t = table(slug, f"{test}-jitter-max-vs-load")
        assert [c["label"] for c in t["columns"][1:]] == ["10 % load", "50 % load", "90 % load", "99.999 % load"]
        assert t["rows"][0][1:] == values, test
        assert len(t["rows"]) == 11


def test_multicast_scale(analysed):
    t = table("cisco-nexus-9516-128x100g-2015", "l3-multicast-multicast")
    assert "520,065 forwarding entries" in t["notes"][0]
    assert row(t, "64")[2] == f"{round(18_898_622_534 / 127):,}"


def test_cisco_7600_tables_1_to_3(analysed):
    slug = "cisco-7600-osm-acl-2001"
    t1 = table(slug, "baseline-results")
    labels = [c["label"] for c in t1["columns"]]
    assert [row(t1, s)[labels.index("Of max. theoretical")] for s in ("40", "64", "128", "256")] == ["95.6", "91.2", "99.7", "100"]
    t2 = table(slug, "acl-impact")
    assert row(t2, "40") == ["40", "28.7", "28.7", "31.7", "31.7", "0", "0", "0", "0"]
    assert row(t2, "1500")[1:5] == ["1.40", "1.40", "69.7", "69.8"]
    t3 = table(slug, "cpu-utilisation-results")
    assert [r[1] for r in t3["rows"]] == ["idle", "no-acl", "acl-15k"]
    assert all(cell == "1" for r in t3["rows"] for cell in r[2:])


def test_asr9006_flags_and_derived_columns(analysed):
    t = table("cisco-asr9006-rsp440-trex-2022", "ipv4-lag-results")
    r = next(r for r in t["rows"] if r[0] == "64" and r[1] == "multi-flow")
    flags = next(f for rr, f in zip(t["rows"], t["flags"]) if rr is r)
    groups = [c["group"] for c in t["columns"]]
    assert groups.count("Unidirectional") == groups.count("Bidirectional") >= 3
    assert any(f and "recomputed 42.1 %" in f for f in flags)
    assert any(c["derived"] and c["label"] == "Line rate" for c in t["columns"])


def test_vss_failover_comparison(analysed):
    t = table("cisco-catalyst-6500-vss-2008", "failover")
    assert t["rows"] == [["6,883", "322", "341"]]  # thousands separators from four digits (issue 13)
    assert [c["label"] for c in t["columns"]] == ["RSTP + HSRP", "VSS on distribution", "VSS on core and distribution"]


def test_a_summary_chart_compares_something(analysed):
    """Every set's summary chart (every test on one scale) shows several tests or a range of values: a one-test set whose
    figures all sit at one value (the measured series, capped at its search's maximum) has none, in its page and PDF."""
    seen = {}
    for index_path in sorted(analysed.glob("*/index.json")):
        index = json.loads(index_path.read_text())
        spec = index["charts"].get("summary")
        if spec is None:
            seen[index_path.parent.name] = None
            continue
        rows = spec["table"]["rows"]  # the chart's data as its "Data as table" prints it: where, frame size, value
        seen[index_path.parent.name] = (len({r[0] for r in rows}), len({r[-1] for r in rows}))
        assert max(seen[index_path.parent.name]) > 1, (index_path.parent.name, seen[index_path.parent.name])
    series = [s for s in seen if s.startswith("linux-netns-nft-series-")]
    assert len(series) == 20 and all(seen[s] is None for s in series)
    assert seen["keysight-ixnetwork-ve-dpdk-400g-2022"] is not None
    assert seen["cisco-nexus-9516-128x100g-2015"][0] > 1


def test_every_spec_names_its_schema_and_text_and_is_drawn(analysed):
    """Each chart's spec names Vega-Lite 6 and carries its text alternative, and the build drew it (the drawing the page,
    the notebook and the PDF show, with marks on it). The published copies of these specs are checked against Vega-Lite's
    schema below, once."""
    n = 0
    for spec_path in sorted(analysed.glob("*/*/charts/*.vl.json")):
        spec = json.loads(spec_path.read_text())
        assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/v6")
        assert spec.get("description"), f"{spec_path}: no text alternative"
        drawn = spec_path.with_name(spec_path.name.replace(".vl.json", ".svg"))
        svg = drawn.read_text()
        assert svg.startswith("<svg") and ("<path" in svg or "<line" in svg), drawn
        assert not drawn.with_suffix(".pdf").exists()  # a report draws its own PDF
        n += 1
    assert n >= 40


def test_every_published_spec_is_valid_vega_lite():
    """The build compiles charts without Altair's schema check (a tenth of a second a chart); this checks what it
    published instead: the sets' charts, the comparisons across sets and the trend charts."""
    import altair

    from pipeline import PUBLIC

    build("site")
    validator = jsonschema.Draft7Validator(json.loads((Path(altair.__file__).parent / "vegalite" / "v6" / "schema" / "vega-lite-schema.json").read_text()))
    specs = sorted(PUBLIC.rglob("*.vl.json"))
    drawn = {p.relative_to(OUT).parts[0] + "/" + p.name for p in OUT.glob("*/*/charts/*.vl.json")}
    assert drawn and drawn <= {p.parent.parent.name + "/" + p.name for p in specs}, "a chart the analysis drew is not published"
    for spec_path in specs:
        errors = list(validator.iter_errors(json.loads(spec_path.read_text())))
        assert not errors, f"{spec_path}: {errors[0].message}"
    assert {p.relative_to(PUBLIC).parts[0] for p in specs} == {"results", "trends"}


def test_axes_have_units(analysed):
    for spec_path in analysed.glob("*/*/charts/*.vl.json"):
        text = spec_path.read_text()
        titles = re.findall(r'"title": ?"([^"]*\([^"]*\))"', text)
        assert titles, f"{spec_path}: no axis title with a unit"


def test_no_notebook_cell_prints_a_bare_none(analysed):
    """A cell that shows charts or tables prints only them: displaying a chart that a test does not have (None) would
    print a stray "None" in the reader's notebook."""
    for ipynb in analysed.glob("*/*/*.ipynb"):
        for n, cell in enumerate(json.loads(ipynb.read_text())["cells"]):
            for output in cell.get("outputs", []):
                text = "".join(output.get("data", {}).get("text/plain", []) or output.get("text", []))
                assert text.strip() != "None", f"{ipynb}: cell {n} prints None"


def test_executed_notebooks_carry_each_chart_as_its_published_drawing(analysed):
    """An .ipynb download is a valid executed notebook whose chart outputs are the published drawings (charts/<id>.svg,
    which every notebook viewer shows, where a Vega-Lite 6 spec needs a renderer JupyterLab does not ship); the analysis
    writes no web page of it (the notebook's page is the site's, of its source: site/notebook_pages.py)."""
    import nbformat

    from wirespeed.analysis.outputs import CHART_KEY

    charts = 0
    for ipynb in sorted(analysed.glob("*/*/*.ipynb")):
        text = ipynb.read_text(encoding="utf-8")
        nbformat.validate(nbformat.reads(text, as_version=4))
        assert "vnd.vegalite" not in text, ipynb
        assert not list(ipynb.parent.glob("*.html")), ipynb
        for cell in json.loads(text)["cells"]:
            for output in cell.get("outputs", []):
                for mime, meta in output.get("metadata", {}).items():
                    cid = meta[CHART_KEY]
                    drawing = (ipynb.parent / "charts" / f"{cid}.svg").read_text(encoding="utf-8")
                    assert mime == "image/svg+xml" and "".join(output["data"][mime]) == drawing, (ipynb, cid)
                    assert f"charts/{cid}.vl.json" in "".join(output["data"]["text/plain"])  # where its spec is
                    charts += 1
    assert charts >= 40


def test_published_json_is_compact(analysed):
    """Issue 24 (bytes per set): the tables, the Vega-Lite specs and the executed notebooks are downloads, written
    without indentation (a third of their bytes)."""
    paths = [*analysed.glob("*/*/tables/*.json"), *analysed.glob("*/*/charts/*.vl.json"), *analysed.glob("*/*/*.ipynb")]
    assert len(paths) > 100
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert text.count("\n") == 1 and text.endswith("\n") and json.loads(text), path


def test_cache_reruns_only_what_changed(tmp_path: Path):
    from wirespeed.analysis import run as analysis
    from wirespeed.catalog.store import ingest, result_folders

    archive = tmp_path / "results"
    for slug in ("cisco-7600-osm-acl-2001", "keysight-ixnetwork-ve-dpdk-400g-2022"):
        shutil.copytree(ARCHIVE / slug, archive / slug)
    db, out = tmp_path / "c.duckdb", tmp_path / "analysis"
    ingest(result_folders(archive), db)
    plan, errors = analysis.run(db, out_root=out)
    assert not errors and len(plan.run) == 4
    ingest(result_folders(archive), db)
    plan, errors = analysis.run(db, out_root=out)
    assert not errors and len(plan.run) == 0 and len(plan.fresh) == 4
    csv = archive / "keysight-ixnetwork-ve-dpdk-400g-2022" / "throughput.csv"
    csv.write_text(csv.read_text().replace("single-flow,512,~37.5,160", "single-flow,512,~37.5,161"))
    ingest(result_folders(archive), db)
    assert [l for l in analysis.why(db, "keysight-ixnetwork-ve-dpdk-400g-2022", out_root=out)] == [
        "comparison: would run: changed result set", "throughput: would run: changed result set"]
    plan, errors = analysis.run(db, out_root=out)
    assert not errors and sorted((j.slug, j.name) for j in plan.run) == [("keysight-ixnetwork-ve-dpdk-400g-2022", "comparison"),
                                                                          ("keysight-ixnetwork-ve-dpdk-400g-2022", "throughput")]
    t = json.loads((out / "keysight-ixnetwork-ve-dpdk-400g-2022" / "throughput" / "tables" / "single-flow-results.json").read_text())
    assert "161" in [c for r in t["rows"] for c in r]


def test_failing_notebook_names_set_notebook_and_cell(tmp_path: Path):
    from wirespeed.analysis import run as analysis
    from wirespeed.catalog.store import ingest, result_folders

    archive = tmp_path / "results"
    shutil.copytree(ARCHIVE / "keysight-ixnetwork-ve-dpdk-400g-2022", archive / "keysight-ixnetwork-ve-dpdk-400g-2022")
    db, out, nbs = tmp_path / "c.duckdb", tmp_path / "analysis", tmp_path / "notebooks"
    nbs.mkdir()
    (nbs / "broken.py").write_text('# %% tags=["parameters"]\nslug = ""\ncatalog = ""\noutput_dir = ""\n\n# %%\nx = 1\n\n# %%\nraise ValueError("no such metric: frobs")\n')
    ingest(result_folders(archive), db)
    plan, errors = analysis.run(db, out_root=out, notebooks_dir=nbs)
    assert len(errors) == 1
    assert "keysight-ixnetwork-ve-dpdk-400g-2022" in errors[0] and "broken.py" in errors[0] and "code cell 3 (raise ValueError" in errors[0] and "ValueError: no such metric: frobs" in errors[0]
    assert not (out / "keysight-ixnetwork-ve-dpdk-400g-2022" / "broken").exists()
