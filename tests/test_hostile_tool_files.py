"""Issue 28, items 2, 4, 7 and 8: what a tool file carries ends as the rules say, through every importer.

Each test is one case of the issue: names with bidi, zero-width and C1 characters in native files, look-alike
vendors, CR-only line endings, 200,000-character fields, 1e999, 5,000-digit numbers, -nan and inf, a link loop,
a page of unterminated tags, lists and tests past their limits, and the helpers the new readers share
(compressed files, XML, Parquet). The importers are taken from the registry behind its gate (importers()),
as `wirespeed import` and the loader take them.
"""

from __future__ import annotations

import gzip
import os
import shutil
import tomllib
from pathlib import Path

import pytest

from conftest import ARCHIVE, ROOT
from importer_sets import FakeTest, example, load_native
from wirespeed.importers import importers
from wirespeed.importers.columnar import read_parquet
from wirespeed.importers.markup import parse_xml
from wirespeed.problems import display_path
from wirespeed.resultset.compressed import unpack
from wirespeed.catalog.load import load, load_many
from wirespeed.resultset.lookalikes import display_names
from wirespeed.resultset.text import group_key, skeleton

SPIRENT = example("spirent", "basic-counters.txt")  # real: Spirent/iTest-assets (tests/real/SOURCES.md)
IXIA = example("ixnetwork", "traffic-item-statistics.csv")  # real: jundong/ixia-IxN-itcl-api


def _convert(fmt: str, data: bytes, name: str):
    return importers()[fmt].convert(data, name, {"path": name, "importer": fmt, "test": "t1"}, FakeTest())


def _keys(rows) -> list:
    return sorted(str(sorted((k, str(v)) for k, v in r.keys.items())) + str(sorted((m, c.figure.text) for m, c in r.cells.items())) for r in rows)


# ---- item 2: text from tool files -----------------------------------------------------------------------

@pytest.mark.parametrize("name,code,rule", [("port\u202egnp.exe", "U+202E RIGHT-TO-LEFT OVERRIDE", "text.invisible"),
                                            ("//1/\u200b1", "U+200B ZERO WIDTH SPACE", "text.invisible"),
                                            ("//1/1\u009b[31m", "U+009B <control>", "text.control")])
def test_port_names_from_a_native_file_pass_the_text_rules(name, code, rule):
    from wirespeed.importers import checked

    data = SPIRENT.replace(b"3/6_ix2_asr9k2_be12_10g   4/3", name.encode() + b"   4/3", 1)
    rows, problems, _n = _convert("spirent", data, "stc.csv")
    rows, problems = checked(rows, problems, "stc.csv")
    assert not any(name in str(r.keys) for r in rows)
    lines = [str(p) for p in problems]
    assert any(line.startswith("stc.csv:4: port: " + code) and line.endswith(f"[{rule}]") for line in lines), lines


def test_a_bidi_port_name_is_refused_when_the_set_loads(tmp_path):
    data = SPIRENT.replace(b"3/6_ix2_asr9k2_be12_10g   4/3", "port\u202egnp.exe   4/3".encode(), 1)
    rs, problems = load_native(tmp_path, {"native/stc.txt": data}, '{path = "native/stc.txt", importer = "spirent", test = "imported"}', TEST_TOML)
    lines = [str(p) for p in problems if p.severity == "error"]
    assert any(line.endswith("native/stc.txt:4: port: U+202E RIGHT-TO-LEFT OVERRIDE (character 5 of the cell) is a bidirectional control character "
                             "(it can reorder what readers see) [text.invisible]") for line in lines), lines


TEST_TOML = """
[[tests]]
id = "imported"
title = "Imported"
rfc = ["vendor"]
scenario = "generator-capacity"
topology = "port-pairs"
ports = 4
port_speed = "10G"
direction = "bidirectional"
"""


def test_strings_an_importer_states_in_its_plan_pass_the_text_rules():
    data = example("iperf3", "udp.json").replace(b'"version":\t"iperf 3.', '"version":\t"iperf \u202e3.'.encode(), 1)
    if data == example("iperf3", "udp.json"):
        data = example("iperf3", "udp.json").replace(b'"version": "iperf 3.', '"version": "iperf \u202e3.'.encode(), 1)
    assert data != example("iperf3", "udp.json")
    plan = importers()["iperf3"].describe(data, "udp.json")
    lines = [str(p) for p in plan.problems]
    assert any(line.startswith("udp.json: instrument.software[0].version: U+202E RIGHT-TO-LEFT OVERRIDE") and line.endswith("[text.invisible]")
               for line in lines), lines


def test_skeletons_of_look_alike_names_are_equal():
    assert skeleton("\u0421\u0456\u0455\u0441\u043e") == skeleton("\uff23\uff49\uff53\uff43\uff4f") == skeleton("Cisco") == "Cisco"
    assert skeleton("Cisco") != skeleton("CISCO") and group_key("CISCO") == group_key("Cisco") == group_key("\u0421\u0456\u0455\u0441\u043e")
    assert skeleton("Juniper") != skeleton("Cisco") and skeleton("rn") == skeleton("m")


def _copy_as(root: Path, src: str, slug: str, vendor: str) -> None:
    shutil.copytree(ARCHIVE / src, root / slug)
    toml = root / slug / "result.toml"
    text = toml.read_text(encoding="utf-8").replace(f'slug = "{src}"', f'slug = "{slug}"')
    doc = tomllib.loads(text)
    text = text.replace(f'vendor = "{doc["dut"]["vendor"]}"', f'vendor = "{vendor}"', 1)
    toml.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("vendor", ["\u0421\u0456\u0455\u0441\u043e", "\uff23\uff49\uff53\uff43\uff4f"], ids=["cyrillic", "fullwidth"])
def test_a_look_alike_of_an_archived_vendor_is_refused_with_the_name_it_imitates(archive_copy, vendor):
    _copy_as(archive_copy, "cisco-7600-osm-acl-2001", "acme-7600-lookalike-2001", vendor)
    originals = sorted(p.name for p in archive_copy.iterdir() if tomllib.loads((p / "result.toml").read_text())["dut"]["vendor"] == "Cisco")
    first = min(originals, key=lambda s: (tomllib.loads((archive_copy / s / "result.toml").read_text())["source"].get("published", "9999"), s))
    # the new set alone in the batch (a pull request's validate): the rest of the archive is read beside it
    [(_f, rs, problems)] = load_many([archive_copy / "acme-7600-lookalike-2001"])
    lines = [str(p) for p in problems if p.rule == "text.lookalike"]
    assert lines == [f"{display_path(archive_copy / 'acme-7600-lookalike-2001' / 'result.toml')}: dut.vendor: {vendor!r} looks like 'Cisco' "
                     f"(dut.vendor of {first}): a vendor name that imitates another is refused; write it as the archive does [text.lookalike]"], lines
    # the whole archive in one batch: only the imitation is refused
    for folder, _rs, problems in load_many(sorted(p for p in archive_copy.iterdir())):
        assert any(p.rule == "text.lookalike" for p in problems) == (folder.name == "acme-7600-lookalike-2001"), folder.name


def test_the_results_filter_shows_one_spelling_per_group():
    shown = display_names([("Cisco", "2001-01-01", "a"), ("CISCO", "2002-01-01", "b"), ("Cisco", "2015-01-01", "c"), ("Keysight", "2022-01-01", "d")])
    assert shown == {group_key("Cisco"): "Cisco", group_key("Keysight"): "Keysight"}
    from wirespeed.site.data import _facets

    summary = {"meta": {"dut": {"vendor": "CISCO", "model": "7600"}, "tests": [], "source": {"published": "2002-01-01"}}, "rows": []}
    assert _facets(summary, {"vendor": shown, "device": {}})["vendor"] == "Cisco"


# ---- item 7: what real exports can have --------------------------------------------------------------

@pytest.mark.parametrize("fmt,data,name", [("spirent", SPIRENT, "stc.txt"), ("ixnetwork", IXIA, "ixia.csv")])
def test_cr_only_line_endings_read_as_lf(fmt, data, name):
    lf_rows, lf_problems, _ = _convert(fmt, data, name)
    cr_rows, cr_problems, _ = _convert(fmt, data.replace(b"\r\n", b"\n").replace(b"\n", b"\r"), name)
    assert lf_rows and not [p for p in lf_problems if p.severity == "error"]
    assert _keys(cr_rows) == _keys(lf_rows) and [str(p) for p in cr_problems] == [str(p) for p in lf_problems]


def test_cr_only_table_of_a_result_set_loads_like_lf(good_set):
    rs_lf, _ = load(good_set)
    for csv_file in good_set.glob("*.csv"):
        csv_file.write_bytes(csv_file.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r"))
    rs_cr, problems = load(good_set)
    assert rs_cr is not None and not [p for p in problems if p.severity == "error"], problems
    assert _keys(rs_cr.rows) == _keys(rs_lf.rows) and [(r.file, r.line) for r in rs_cr.rows] == [(r.file, r.line) for r in rs_lf.rows]


@pytest.mark.parametrize("fmt,data,line", [("spirent", SPIRENT, 4), ("ixnetwork", IXIA, 2)])
def test_a_field_of_200000_characters_is_one_line(fmt, data, line):
    huge = data.replace(b"\n", b"\n" + b"A" * 200_000 + b",", 1) if fmt == "ixnetwork" else data.replace(b"mpls_ipv4_2lab_ix2__ix13_14_udp", b"A" * 200_000, 1)
    for call in (lambda: importers()[fmt].describe(huge, "x.csv").problems, lambda: _convert(fmt, huge, "x.csv")[1]):
        problems = call()
        assert [str(p) for p in problems] == [f"x.csv:{line}: a line longer than the limit of 64 KiB [limit.line]"]


@pytest.mark.parametrize("number,message", [
    (b"1e999", "'1e999' is not a finite number"),
    (b"9" * 5000, "a cell of 5,000 characters: longer than the limit of 256 characters"),
    (b"9" * 100, "a number of 100 digits: more than the limit of 64 digits"),
    (b"inf", "'inf' is not a number"),
])
def test_numbers_no_tool_measures_are_one_line(number, message):
    data = IXIA.replace(b"(1),120,354,354,", b"(1),120,354," + number + b",", 1)
    rows, problems, _ = _convert("ixnetwork", data, "ixia.csv")
    assert any(str(p).startswith("ixia.csv:2: Rx Frames: " + message) for p in problems), [str(p) for p in problems]


@pytest.mark.parametrize("value,rule", [(b"1e999", None), (b"-nan", None), (b"Infinity", None), (b"9" * 5000, "limit.number"), (b"1" + b"0" * 70, "limit.number")])
def test_json_numbers_no_tool_measures_end_cleanly(value, rule):
    data = example("iperf3", "udp.json")
    import re

    mutated = re.sub(rb'("bits_per_second":\s*)[0-9.e+]+', lambda m: m.group(1) + value, data)
    assert mutated != data
    imp = importers()["iperf3"]
    plan = imp.describe(mutated, "udp.json")
    rows, problems, _ = imp.convert(mutated, "udp.json", {"path": "udp.json", "importer": "iperf3", "test": "t1"}, FakeTest())
    every = plan.problems + problems
    assert all(p.rule != "internal" and "\n" not in str(p) for p in every)
    if rule:
        assert [str(p) for p in plan.problems] == [f"udp.json: a number of {len(value) - (value.count(b'.')):,} digits: more than the limit of 64 digits [{rule}]"]
    else:
        assert not any("inf" in str(c.figure.text).lower() or "nan" in str(c.figure.text).lower() for r in rows for c in r.cells.values())


# ---- item 8 -------------------------------------------------------------------------------------------

def test_display_path_names_a_path_through_a_link_loop(tmp_path, monkeypatch):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    monkeypatch.chdir(tmp_path)
    assert display_path(tmp_path / "a" / "result.toml") == os.path.join("a", "result.toml")
    assert display_path("/elsewhere/x") == "/elsewhere/x"


def test_a_set_holding_a_link_loop_is_refused_in_one_line(good_set, monkeypatch):
    (good_set / "loop1").symlink_to("loop2")
    (good_set / "loop2").symlink_to("loop1")
    monkeypatch.chdir(good_set.parent)
    rs, problems = load(good_set)
    assert rs is None and problems and all(p.rule == "layout.symlink" and "\n" not in str(p) for p in problems), problems


def test_a_page_of_unterminated_tags_is_refused_at_the_first(tmp_path):
    page = example("trex-loadtest-viz", "report.html")
    hostile = page.replace(b"<h2>", b"<a " * 70_000 + b"<h2>", 1)
    assert len(hostile) > 200_000
    plan = importers()["trex-loadtest-viz"].describe(hostile, "report.html")
    assert [p.rule for p in plan.problems] == ["import.loadtest-viz"]
    assert "a tag that is not closed ('<a <a <a <a <a <a <a'…)" in str(plan.problems[0])
    assert not importers()["trex-loadtest-viz"].describe(page, "report.html").problems


# ---- item 4: counts bounded before the work ----------------------------------------------------------

def test_twenty_thousand_tags_are_refused_before_the_schema(good_set):
    toml = good_set / "result.toml"
    text = toml.read_text(encoding="utf-8")
    tags = ", ".join(f'"t{i}"' for i in range(20_000))
    text = text.replace('tags = ["wan", "pos", "acl", "smartbits"]', f"tags = [{tags}]")
    assert len(text.encode()) < (1 << 20)
    toml.write_text(text, encoding="utf-8")
    rs, problems = load(good_set)
    assert rs is None and [p.rule for p in problems] == ["limit.tags"]
    assert str(problems[0]).endswith("tags: 20,000 items: more than the limit of 32 tags [limit.tags]")


def test_more_tests_than_the_limit_are_refused(good_set):
    toml = good_set / "result.toml"
    text = toml.read_text(encoding="utf-8")
    first = text.index("[[tests]]")
    end = text.find("\n[", first + 9)
    block = text[first:end if end > 0 else len(text)]
    many = "".join(block.replace('id = "', f'id = "x{i}-', 1) for i in range(257))
    toml.write_text(text[:first] + many + text[first:], encoding="utf-8")
    rs, problems = load(good_set)
    assert rs is None and "limit.tests" in [p.rule for p in problems], [str(p) for p in problems][:5]


# ---- the helpers the new readers share ----------------------------------------------------------------

def test_a_compression_bomb_is_refused_after_the_limit():
    bomb = gzip.compress(b"{" + b" " * (64 << 20) + b"}", mtime=0)
    assert len(bomb) < 100_000
    data, kind, problems = unpack(bomb, "x.json.gz")
    assert data is None and kind == "gzip" and [str(p) for p in problems] == [
        "x.json.gz: gzip-compressed: holds more than the limit of 32 MiB (reading stopped there) [limit.decompressed-size]"]
    real = (ROOT / "tests" / "real" / "fdio-csit" / "64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz").read_bytes()
    assert unpack(real, "r.gz")[0] == gzip.decompress(real)
    assert [p.rule for p in unpack(real[: len(real) // 2], "r.gz")[2]] == ["import.compressed"]


def test_xml_entities_and_deep_nesting_are_refused():
    billion = (b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>')
    assert [p.rule for p in parse_xml(billion, "o.xml", "import.xml")[1]] == ["import.xml"]
    external = b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>'
    root, problems = parse_xml(external, "o.xml", "import.xml")
    assert root is None and "never expanded" in str(problems[0])
    assert [str(p) for p in parse_xml(b"<a>" * 70 + b"</a>" * 70, "d.xml", "import.xml")[1]] == [
        "d.xml: XML elements nested deeper than the limit of 64 levels [limit.depth]"]
    real = (ROOT / "tests" / "real" / "fdio-csit" / "robot_output2_2n-10ge2p1x710-vhost-ndrpdr.xml").read_bytes()
    root, problems = parse_xml(real, "output.xml", "import.xml")
    assert root.tag == "robot" and not problems


def test_parquet_is_read_within_its_limits(tmp_path):
    import duckdb

    real = (ROOT / "tests" / "real" / "fdio-csit" / "glue_ndrpdr_2021-12-06_part-00000.snappy.parquet").read_bytes()
    rows, problems = read_parquet(real, "glue.parquet", "import.parquet")
    assert not problems and len(rows) == 9 and len(rows[0]) == 70
    path = tmp_path / "bomb.parquet"
    duckdb.sql(f"COPY (SELECT repeat('x', 100000) AS s FROM range(1000)) TO '{path}' (FORMAT parquet)")
    assert path.stat().st_size < 20_000
    assert [str(p) for p in read_parquet(path.read_bytes(), "bomb.parquet", "import.parquet")[1]] == [
        "bomb.parquet: s: a value of 100,000 characters: longer than the limit of 8,192 characters [limit.string]"]
    duckdb.sql(f"COPY (SELECT range AS a FROM range(100001)) TO '{path}' (FORMAT parquet)")
    assert [p.rule for p in read_parquet(path.read_bytes(), "many.parquet", "import.parquet")[1]] == ["limit.rows"]
    assert [p.rule for p in read_parquet(real[: len(real) // 2] + b"PAR1", "cut.parquet", "import.parquet")[1]] == ["import.parquet"]


@pytest.mark.slow  # builds and converts a 100,001-interval iperf3 document
def test_rows_of_one_native_file_are_counted_as_they_are_made():
    """An iperf3 run of 100,001 one-second intervals: refused at the row past the limit of one file, as the
    rows are made (common.row counts them), not after the conversion."""
    import copy
    import json

    doc = json.loads(example("iperf3", "udp.json"))
    first = doc["intervals"][0]
    doc["intervals"] = []
    for i in range(100_001):
        interval = copy.deepcopy(first)
        for part in [interval["sum"], *interval["streams"]]:
            part["start"], part["end"] = float(i), float(i + 1)
        doc["intervals"].append(interval)
    rows, problems, _n = _convert("iperf3", json.dumps(doc).encode(), "long.json")
    assert rows == [] and [str(p) for p in problems] == ["long.json: more than the limit of 100,000 rows in one file [limit.rows]"], problems[:3]
