"""Every list that reaches the site and the PDF report is bounded before the work it drives (issue 28):
tags (which XeLaTeX writes into the report's keywords, in time that grows with the square of their
number) and every other list of result.toml. Past a limit a set is refused in one line; at the limits
its report builds well within the report's time budget."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

import pipeline
from wirespeed.resultset import limits
from wirespeed.catalog.load import load

TAGS = 'tags = ["wan", "pos", "acl", "smartbits"]'
FRAMES = "frame_sizes = [40, 64, 128, 256, 512, 1024, 1500]"


def edit(s: Path, old: str, new: str) -> None:
    toml = s / "result.toml"
    text = toml.read_text(encoding="utf-8")
    assert old in text
    toml.write_text(text.replace(old, new, 1), encoding="utf-8")


def errors(s: Path) -> list[str]:
    rs, problems = load(s)
    return [str(p) for p in problems if p.severity == "error"]


def test_tags_up_to_the_limit_pass_and_one_more_is_refused(good_set):
    n = limits.value("tags")
    edit(good_set, TAGS, "tags = [" + ", ".join(f'"t{i}"' for i in range(n)) + "]")
    assert errors(good_set) == []
    edit(good_set, '"t0", ', '"t0", "t-extra", ')
    (line,) = errors(good_set)
    assert line.endswith(f"tags: {n + 1} items: more than the limit of {n} tags [limit.tags]"), line


def test_twenty_thousand_tags_are_refused_before_anything_reads_them(good_set):
    edit(good_set, TAGS, "tags = [" + ", ".join(f'"tag-{i}"' for i in range(20_000)) + "]")
    assert (good_set / "result.toml").stat().st_size < limits.value("file_size.toml")
    (line,) = errors(good_set)
    assert "20,000 items: more than the limit of 32 tags [limit.tags]" in line, line


def test_any_other_list_past_its_limit_is_refused(good_set):
    n = limits.value("list_items")
    edit(good_set, "[dut]\n", "[dut]\noptics = [" + ", ".join(f'"SFP {i}"' for i in range(n + 1)) + "]\n")
    found = errors(good_set)
    assert any(line.endswith(f"dut.optics: {n + 1:,} items: more than the limit of {n:,} items [limit.list]") for line in found), found


def test_a_report_at_the_limits_builds_within_its_budget(tmp_path):
    """The exported data of a real set with its tags and its test-bed, methodology and errata lists at their
    limits, each item a sentence: the PDF report builds within the report's own time budget (the step
    stops XeLaTeX at WIRESPEED_REPORT_TIMEOUT, default 120 s, and the build fails then)."""
    from wirespeed.presentation import methodology, testbed
    from wirespeed.report import typesetting

    pipeline.build("site-data")
    slug = "cisco-7600-osm-acl-2001"
    data = json.loads((pipeline.BUILD / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json").read_text(encoding="utf-8"))
    d, n = copy.deepcopy(data), limits.value("list_items")
    item = [f"Item {i}: a line card with a long description of its ports and optics" for i in range(n)]
    d["tags"] = [f"tag-{i}" for i in range(limits.value("tags"))]
    d["dut"].update(components=[{"model": x, "description": x} for x in item], optics=item, software=[{"name": x, "version": "1.0"} for x in item])
    d["instrument"].update(modules=item, software=[{"name": x, "version": "2.0"} for x in item])
    d["campaign"] = {**d.get("campaign", {}), "engineers": item}
    d["testbed_rows"] = testbed.rows(d["dut"], d["instrument"], d["campaign"])
    method = {**d["methodology"], "frame_sizes": list(range(64, 64 + n)), "offered_loads_pct": [round(100 * (i + 1) / n, 3) for i in range(n)]}
    d["methodology"], d["methodology_rows"] = method, methodology.rows(method)
    d["consistency"]["errata"] = [{"test": "baseline", "check": "x", "note": x} for x in item]
    data_file = tmp_path / f"{slug}.json"
    data_file.write_text(json.dumps(d), encoding="utf-8")
    job = typesetting.ReportJob(slug=slug, key="x", components={"build": None}, data_file=data_file,
                                charts_dir=pipeline.BUILD / "site-static" / "results" / slug / "charts", article=None, out=tmp_path / f"{slug}.pdf")
    cwd = os.getcwd()
    try:
        result = typesetting.build(job, str(pipeline.WORK))
    finally:
        os.chdir(cwd)
    assert result == {"ok": True}, result
    import pikepdf

    with pikepdf.open(job.out) as pdf:
        assert "tag-31" in str(pdf.docinfo["/Keywords"])
    assert "Item 1023: a line card" in typesetting.pdf_text(job.out)


def test_a_latency_method_is_printed_in_words_a_reader_knows():
    """RFC 1242's names print as they are; the schema's one-way-capture says what it is (the netns sets said
    "unspecified" beside notes describing tcpdump on both sides)."""
    from wirespeed.presentation import methodology

    def text(method: str) -> str:
        (row,) = [r for r in methodology.rows({"latency_method": method}) if r["label"] == "Latency method"]
        return row["text"]

    assert text("FIFO") == "FIFO" and text("round-trip") == "round-trip"
    assert text("one-way-capture") == "one-way, from packet captures where each frame enters and leaves the device (one clock)"


def test_a_rate_search_is_named_as_it_ran():
    """MLRsearch is not RFC 2544's binary search: the netns and T-Rex collectors' sets (and CSIT's ndrpdr runs) said
    "binary search" in the methodology table beside notes naming mlrsearch."""
    from wirespeed.presentation import methodology

    def text(search: str) -> str:
        (row,) = [r for r in methodology.rows({"search": search}) if r["label"] == "Rate search"]
        return row["text"]

    assert (text("binary"), text("fixed-rate")) == ("binary search", "fixed rate search")
    assert text("mlrsearch") == "MLRsearch (the rates at several loss ratios in one search, as FD.io CSIT's)"


def test_every_search_the_schema_knows_is_either_a_rate_search_or_a_set_rate():
    """One owner decides which `search` values repeat searches (wirespeed/engine/rfc2544.py): the charts' "3 searches,
    median …" and the headline's statistic read it. A value added to the schema must be placed there: mlrsearch, added
    without it, made the series' charts say "3 trials"."""
    import json

    from conftest import ROOT
    from wirespeed.engine import rfc2544

    schema = json.loads((ROOT / "wirespeed" / "schema" / "result.v1.schema.json").read_text(encoding="utf-8"))

    def enums(node):
        if isinstance(node, dict):
            if "search" in node and isinstance(node["search"], dict) and "enum" in node["search"]:
                yield set(node["search"]["enum"])
            for v in node.values():
                yield from enums(v)
        elif isinstance(node, list):
            for v in node:
                yield from enums(v)

    (known,) = {frozenset(e) for e in enums(schema)}
    assert rfc2544.RATE_SEARCHES <= known and known - rfc2544.RATE_SEARCHES == {"fixed-rate", "single-rate", "ramp"}
    assert rfc2544.searched({"search": "mlrsearch"}) and not rfc2544.searched({"search": "fixed-rate"}) and not rfc2544.searched({})


def test_the_test_bed_names_a_vendor_once():
    """A product or model that begins with its vendor's name ("Spirent TestCenter") is not prefixed twice."""
    from wirespeed.presentation import testbed, testbed_diagram

    dut = {"vendor": "Cisco", "model": "Cisco Nexus 9516", "software": []}
    ins = {"vendor": "Spirent", "product": "Spirent TestCenter", "software": [{"name": "STC", "version": "5.0"}]}
    rows = {r["label"]: r["text"] for r in testbed.rows(dut, ins, None)}
    assert rows["Device under test"] == "Cisco Nexus 9516" and rows["Test instrument"] == "Spirent TestCenter"
    assert testbed.versions(dut, ins)[-1]["where"] == "Test instrument (Spirent TestCenter)"
    assert "Spirent Spirent" not in testbed_diagram.alt({"dut": dut, "instrument": ins, "tests": []})



def test_the_catalog_stores_the_instrument_named_once(tmp_path):
    """The catalog (and so the Parquet archive and `wirespeed summary`) names the instrument as the pages do."""
    import duckdb

    import test_headline_choice as hc
    from wirespeed.catalog.store import ingest
    from wirespeed.presentation import devicename

    folder = tmp_path / "spirent"
    folder.mkdir()
    toml = hc.TOML.format(slug="spirent", nominal="", limited="", search="binary")
    (folder / "result.toml").write_text(toml.replace('vendor = "netsniff-ng"\nproduct = "trafgen"', 'vendor = "Spirent"\nproduct = "Spirent TestCenter"'),
                                        encoding="utf-8")
    (folder / "m.csv").write_text(hc.CSV.format(q=""), encoding="utf-8")
    (report,) = ingest([folder], tmp_path / "c.duckdb")
    assert report.action == "loaded", report.errors
    con = duckdb.connect(str(tmp_path / "c.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT instrument FROM result_sets").fetchall() == [("Spirent TestCenter",)]
    finally:
        con.close()
    assert devicename.full("Spirent", "Spirent TestCenter") == "Spirent TestCenter"
