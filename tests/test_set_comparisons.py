"""Comparisons a result set declares with other sets (`[[set_comparisons]]`): the schema and the references are
checked with one clear line per problem; the declared comparison is made at export as a result table and a
chart of the set (the engine's figures), which its page and its PDF print; a set that is not published
cannot be compared."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from conftest import ARCHIVE, ROOT, run_cli
from wirespeed.engine import compare
from wirespeed.catalog.load import load
from wirespeed.site import set_comparisons
from wirespeed.site.compare_data import entries

NEXUS, CATALYST = "cisco-nexus-9516-128x100g-2015", "cisco-catalyst-6500-vss-2008"
DECLARED = '''sets = ["cisco-nexus-9516-128x100g-2015"]
tests = ["fabric-vss", "fabric-single", "cisco-nexus-9516-128x100g-2015/ipv4-unicast"]'''


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_example_declares_a_comparison_with_another_set_and_validates():
    rs, problems = load(ARCHIVE / CATALYST)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    (c,) = rs.meta["set_comparisons"]
    assert c["sets"] == [NEXUS] and c["normalisation"] == "line-rate" and c["frame_sizes"] == [64]


# (name, (old, new) in the Catalyst's result.toml, field the line must name, what it must say, rule)
CASES = [
    ("unknown-set", ('sets = ["cisco-nexus-9516-128x100g-2015"]', 'sets = ["cisco-nexus-9999"]'), "set_comparisons[0].sets", "'cisco-nexus-9999'", "semantic.comparison-reference"),
    ("unknown-test-of-other-set", ("cisco-nexus-9516-128x100g-2015/ipv4-unicast", "cisco-nexus-9516-128x100g-2015/ipv9-unicast"),
     "set_comparisons[0].tests", "has no test 'ipv9-unicast'", "semantic.comparison-reference"),
    ("unknown-own-test", ('tests = ["fabric-vss"', 'tests = ["fabric-vsx"'), "set_comparisons[0].tests", "has no test 'fabric-vsx'", "semantic.comparison-reference"),
    ("test-of-a-set-not-listed", ("cisco-nexus-9516-128x100g-2015/ipv4-unicast", "cisco-7600-osm-acl-2001/baseline"),
     "set_comparisons[0].tests", "'cisco-7600-osm-acl-2001', which is not in sets", "semantic.comparison-reference"),
    ("itself-listed", ('sets = ["cisco-nexus-9516-128x100g-2015"]', 'sets = ["cisco-nexus-9516-128x100g-2015", "cisco-catalyst-6500-vss-2008"]'),
     "set_comparisons[0].sets", "is this result set", "semantic.comparison-reference"),
    ("id-used-twice", ('id = "vs-nexus-9516"', 'id = "failover"'), "set_comparisons[0].id", "used twice", "semantic.comparison-reference"),
    ("unknown-normalisation", ('normalisation = "line-rate"', 'normalisation = "per-rack"'), "set_comparisons[0].normalisation", "per-rack", "schema.enum"),
    ("mixed-layer-name", ('rate = "L1"', 'rate = "L1+L2"'), "set_comparisons[0].rate", "L1+L2", "schema.enum"),
    ("labels-not-one-per-test", ('labels = ["Catalyst 6500 VSS, 130 × 10G", ', 'labels = ['), "set_comparisons[0].labels", "one label per test", "semantic.comparison-reference"),
    ("no-sets", ('sets = ["cisco-nexus-9516-128x100g-2015"]', "sets = []"), "set_comparisons[0].sets", "", "schema."),
]


@pytest.mark.parametrize("name, change, field, says, rule", CASES, ids=[c[0] for c in CASES])
def test_a_bad_declared_comparison_is_one_clear_line(archive_copy: Path, name, change, field, says, rule):
    catalyst = archive_copy / CATALYST
    edit(catalyst / "result.toml", *change)
    proc = run_cli("validate", str(catalyst))  # the other sets are found beside it in the archive
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "Traceback" not in out, out
    problems = [line for line in proc.stdout.splitlines() if line.strip()]
    assert problems and all(f"{CATALYST}/result.toml" in line and line.endswith("]") for line in problems), out
    lines = [line for line in problems if f"[{rule}" in line and field in line and says in line]
    assert len(lines) == 1, out  # one line for the problem (a second mistake it causes gets its own)


def test_a_set_with_a_dangling_reference_is_not_ingested(archive_copy: Path, tmp_path: Path):
    edit(archive_copy / CATALYST / "result.toml", *CASES[0][1])
    proc = run_cli("ingest", "--db", str(tmp_path / "c.duckdb"), str(archive_copy / CATALYST), str(archive_copy / NEXUS))
    assert "Traceback" not in proc.stdout + proc.stderr
    con = duckdb.connect(str(tmp_path / "c.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM rows WHERE slug = ?", [CATALYST]).fetchone()[0] == 0
        (reason,) = con.execute("SELECT reason FROM rejects WHERE slug = ?", [CATALYST]).fetchone()
        assert "cisco-nexus-9999" in reason
        assert con.execute("SELECT count(*) FROM rows WHERE slug = ?", [NEXUS]).fetchone()[0] > 0
    finally:
        con.close()



def test_the_declared_comparison_is_the_engines_table_and_a_chart(catalog, tmp_path):
    meta = json.loads(catalog.execute("SELECT meta FROM result_sets WHERE slug = ?", [CATALYST]).fetchone()[0])
    (made,), dropped = set_comparisons.make(catalog, CATALYST, meta, tmp_path, {CATALYST, NEXUS})
    assert dropped == []
    assert made["tests"] == ["fabric-vss", "fabric-single"] and made["compared_tests"][-1] == f"{NEXUS}/ipv4-unicast"
    table = json.loads((tmp_path / "tables" / "vs-nexus-9516.json").read_text())
    assert [c["label"] for c in table["columns"]] == ["Device and test", "64 bytes", "×N"] and table["columns"][1]["unit"] == "% of line rate"
    assert [r for r in table["rows"]] == [["Catalyst 6500 VSS, 130 × 10G", ">39.8", "<×2.51"], ["Catalyst 6500, one chassis, 65 × 10G", "39.8", "×2.51"],
                                          ["Nexus 9516, 128 × 100G", "99.9990", "×1"]]
    # the same figures as the engine gives the compare page for the same choice
    chosen = compare.select(entries(catalog, [CATALYST, NEXUS]), sets=[CATALYST, NEXUS], tests=made["compared_tests"], xs=[64])
    labels = dict(zip(made["compared_tests"], meta["set_comparisons"][0]["labels"]))
    assert made["model"]["rows"] == compare.table(chosen, "throughput", "line-rate", "L1", title=made["title"], labels=labels)["rows"]
    for ext in (".vl.json", ".svg", ".vg.json"):  # the report draws its PDF from the SVG (report/chart_pdf.py)
        assert (tmp_path / "charts" / f"vs-nexus-9516-chart{ext}").stat().st_size > 0
    spec = json.loads((tmp_path / "charts" / "vs-nexus-9516-chart.vl.json").read_text())
    assert "99.9990" in spec["description"] and ">39.8" in spec["description"]


def test_a_comparison_with_an_unpublished_set_is_left_out_in_one_line(catalog, tmp_path):
    """The comparison is left out (named in one line); the declaring set is still published."""
    meta = json.loads(catalog.execute("SELECT meta FROM result_sets WHERE slug = ?", [CATALYST]).fetchone()[0])
    made, [(cid, message)] = set_comparisons.make(catalog, CATALYST, meta, tmp_path, {CATALYST})
    assert made == [] and cid == "vs-nexus-9516"
    assert "\n" not in message and f"{CATALYST}/result.toml: set_comparisons[0].sets" in message and NEXUS in message
    assert not list((tmp_path / "tables").glob("*.json"))
