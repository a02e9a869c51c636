"""Keysight IxNetwork on real outputs (tests/real/ixia-ixnetwork/, SOURCES.md): a wrapper's Traffic Item
CSV with interleaved `Total Frame Loss` rows, and the REST API's statistics page (every value a string).
Each row against the values read from the file by hand; what the view did not measure left out; bad
input in one line."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT
from importer_sets import TEST_TOML, FakeTest, all_examples, import_and_validate, load_native
from wirespeed.importers import ixnetwork

REAL = ROOT / "tests" / "real" / "ixia-ixnetwork"
CSV = REAL / "jundong_traffic_results.csv"
REST = REAL / "sonicpins_ixnetwork_rest_traffic_item_stats_view9_data.json"


def _convert(data: bytes, name: str = "ix"):
    return ixnetwork.IMPORTER(data, name, {"test": "t1"}, FakeTest())


def _values(row) -> dict:
    return {m: c.figure.text + " " + c.unit.name for m, c in row.cells.items()}


def test_traffic_item_csv_of_a_tcl_wrapper():
    rows, problems, n = _convert(CSV.read_bytes())
    assert not problems and n == 4
    got = {(r.keys["variant"], r.keys["frame_size"]): _values(r) for r in rows}
    assert got == {
        # line 2: ::@tester_to_dta1.traffic(1),120,354,354,34145.217,20494.84,306454.28,00:00,00:00
        ("tester-to-dta1-traffic-1", 120): {"tx": "354 frames", "rx": "354 frames", "latency_avg": "34145.217 ns",
                                            "latency_min": "20494.84 ns", "latency_max": "306454.28 ns"},
        # line 3: ::@tester_to_dta1.traffic(2),120,347,347,,,115299.64,00:00,00:00 (no average nor minimum: absent)
        ("tester-to-dta1-traffic-2", 120): {"tx": "347 frames", "rx": "347 frames", "latency_max": "115299.64 ns"},
        # line 6, after "Total Frame Loss" / "0" on lines 4 and 5
        ("tester-to-dta1-traffic-1", 121): {"tx": "361 frames", "rx": "361 frames", "latency_avg": "44142.074 ns",
                                            "latency_min": "30450.18 ns", "latency_max": "232344.46 ns"},
        ("tester-to-dta1-traffic-2", 121): {"tx": "354 frames", "rx": "354 frames", "latency_max": "175297.76 ns"},  # line 7
    }


def test_a_stated_total_frame_loss_must_match_its_rows():
    data = CSV.read_bytes().replace(b"Total Frame Loss\n0\n::@tester_to_dta1.traffic(1),121", b"Total Frame Loss\n5\n::@tester_to_dta1.traffic(1),121")
    rows, problems, _n = _convert(data, "t.csv")
    assert rows == [] and [str(p) for p in problems] == [
        "t.csv:5: Total Frame Loss 5, but Tx − Rx of lines 2–3 add up to 0: expected the same number [import.ixnetwork]"]
    rows, problems, _n = _convert(CSV.read_bytes().rstrip(b"0\n") + b"\n", "t.csv")
    assert [str(p) for p in problems] == ["t.csv:8: 'Total Frame Loss' without its value on the next line [import.ixnetwork]"]


def test_rest_statistics_page_every_value_a_string():
    rows, problems, n = _convert(REST.read_bytes(), "page.json")
    assert n == 2 and [str(p) for p in problems] == [
        "page.json: warning: rates of 0 beside frame counts above 0: read after traffic stopped, left out (pageValues[0][0], pageValues[1][0]) [import.ixnetwork]"]
    got = {(r.keys["variant"], r.keys["port"]): _values(r) for r in rows}
    assert got == {
        # pageValues[0][0]: "Ethernet - 001", "Ethernet - 003", "Unicast Traffic", …, "115052349", "115052349", "0", "0", …,
        # Store-Forward Avg/Min/Max Latency (ns) "1088", "1081", "6314"
        ("unicast-traffic", "Ethernet - 001 -> Ethernet - 003"): {"tx": "115052349 frames", "rx": "115052349 frames", "lost": "0 frames",
                                                                  "loss": "0 pct", "latency_avg": "1088 ns", "latency_min": "1081 ns", "latency_max": "6314 ns"},
        # pageValues[1][0]: "Unicast Traffic #1", "105", "105", …, "3711", "1093", "6306"
        ("unicast-traffic-1", "Ethernet - 002 -> Ethernet - 003"): {"tx": "105 frames", "rx": "105 frames", "lost": "0 frames",
                                                                    "loss": "0 pct", "latency_avg": "3711 ns", "latency_min": "1093 ns", "latency_max": "6306 ns"},
    }
    doc = json.loads(REST.read_bytes())
    del doc["pageValues"]  # the same rows, as rowValues {"arg1": [row], "arg2": [row]}
    again, problems, _n = _convert(json.dumps(doc).encode(), "rows.json")
    assert [(r.keys, _values(r)) for r in again] == [(r.keys, _values(r)) for r in rows]
    assert problems[0].message.endswith("(rowValues.arg1[0], rowValues.arg2[0])")


def test_rest_page_of_the_traffic_item_view():
    """sonic-pins lib/ixia_helper_test.cc (ParseTrafficItemStats): the Traffic Item Statistics page,
    without port columns: one row per traffic item, rates all 0 (read after the traffic stopped)."""
    rows, problems, n = _convert((REAL / "sonicpins_ixnetwork_rest_traffic_item_level_stats.json").read_bytes(), "items.json")
    assert n == 2 and [str(p) for p in problems] == [
        "items.json: warning: rates of 0 beside frame counts above 0: read after traffic stopped, left out (rowValues.arg1[0], rowValues.arg2[0]) [import.ixnetwork]"]
    assert {r.keys["variant"]: _values(r) for r in rows} == {
        # rowValues.arg1[0]: "Unicast Traffic", "115052349", "115052349", "0", "0", …, Store-Forward Avg/Min/Max Latency (ns) "1088", "1081", "6314"
        "unicast-traffic": {"tx": "115052349 frames", "rx": "115052349 frames", "lost": "0 frames", "loss": "0 pct",
                            "latency_avg": "1088 ns", "latency_min": "1081 ns", "latency_max": "6314 ns"},
        # rowValues.arg2[0]: "Unicast Traffic #1", "105", "105", …, "3711", "1093", "6306"
        "unicast-traffic-1": {"tx": "105 frames", "rx": "105 frames", "lost": "0 frames", "loss": "0 pct",
                              "latency_avg": "3711 ns", "latency_min": "1093 ns", "latency_max": "6306 ns"},
    }


def _page(**change) -> bytes:
    doc = json.loads(REST.read_bytes())
    if "pageValues" in change:
        doc["totalRows"] = len(change["pageValues"])
    doc.update(change)
    return json.dumps(doc).encode()


@pytest.mark.parametrize("data, expect", [
    (_page(isReady=False), "p.json: isReady: false: the view was not ready when it was read, its values may be incomplete [import.ixnetwork]"),
    (_page(columnCaptions=None), "p.json: columnCaptions: expected an IxNetwork statistics page: an object with columnCaptions"),
    (_page(pageValues=[[["Ethernet - 001", "5"]]]), "p.json: pageValues[0][0]: 2 values: expected 26, one per caption [import.ixnetwork]"),
    (_page(pageValues=[[["a"] * 4 + ["x"] * 22]]), "p.json: pageValues[0][0]: Tx Frames: 'x' is not a number: expected a number in frames"),
    (_page(pageValues=[[["a", "b", "c", "d", "10", "10"] + ["0"] * 15 + ["9", "3", "5", "", ""]]]), "p.json: pageValues[0][0]: latency min 3, avg 9, max 5: expected min ≤ avg ≤ max"),
    (_page(pageValues=[[["a", "b", "c", "d", "0", "0"] + ["0"] * 20]]), "p.json: every row sent and received 0 frames (1 row): the view was read before traffic ran"),
    (_page(totalRows=3), "p.json: totalRows: 3 rows stated, 2 in pageValues: expected the same [import.ixnetwork]"),
])
def test_bad_rest_pages_are_one_line(data, expect):
    rows, problems, _n = _convert(data, "p.json")
    errors = [p for p in problems if p.severity == "error"]
    assert rows == [] and len(errors) == 1 and str(errors[0]).startswith(expect), problems


def test_a_page_of_several_says_it_holds_one():
    rows, problems, _n = _convert(_page(totalPages=3), "p.json")
    assert len(rows) == 2 and "p.json: totalPages: warning: page 1 of 3: only this page's rows are in the file [import.ixnetwork]" in map(str, problems)


HEAD = "Traffic Item,Tx Frames,Rx Frames,Store-Forward Avg Latency (ns)\n"


@pytest.mark.parametrize("text, expect", [
    ("Foo,Bar\n1,2\n", "ix.csv:1: header 'Foo, Bar'…: expected an IxNetwork view"),
    ("", "empty"),
    (HEAD + "A,100,99,1.5 us\n", "unit 'us' in a column of ns"),
    (HEAD.replace(" (ns)", "") + "A,100,99,12\n", "unit 'none' in the caption: expected one of ms, ns, us"),
    (HEAD.replace("(ns)", "(furlongs)") + "A,100,99,12\n", "unit 'furlongs' in the caption: expected one of ms, ns, us"),
    (HEAD + "A,\"1,00,0\",99,12\n", "'1,00,0' is not a number"),
    (HEAD + "A,100,99,12\nA,100,99,12\n", "duplicated row"),
    (HEAD + "A,100\n", "2 cells: expected 4"),
    (HEAD + "A,N/A,,n/a\n", "no value in this row"),
])
def test_bad_input_is_one_line(text, expect):
    rows, problems, _ = _convert(text.encode(), "ix.csv")
    assert rows == [] and len(problems) == 1, problems
    assert expect in str(problems[0]) and str(problems[0]).startswith("ix.csv")


def test_a_spirent_export_is_not_ixnetwork():
    data = (ROOT / "tests" / "real" / "spirent-testcenter" / "stc_StreamBlockResults__Basic_Counters__1.txt").read_bytes()
    rows, problems, _ = _convert(data, "r.txt")
    assert rows == [] and len(problems) == 1 and "expected an IxNetwork view" in str(problems[0])


def test_sniff_own_examples_and_not_the_others():
    for path in all_examples():
        assert (ixnetwork.sniff(path.read_bytes()[:65536], path.name) > 0.5) == (path.parent.name == "ixnetwork"), path


def test_describe_declares_traffic_items_as_variants():
    plan = ixnetwork.describe(REST.read_bytes(), "page.json")
    t = plan.tests[0]
    assert t.id == "flows" and t.fields["variants"] == {"unicast-traffic": "Unicast Traffic", "unicast-traffic-1": "Unicast Traffic #1"}
    assert plan.instrument == {"vendor": "Keysight", "product": "IxNetwork"} and "tests.flows.port_speed" in plan.unstated
    plan = ixnetwork.describe(CSV.read_bytes(), "t.csv")
    assert plan.tests[0].id == "traffic-items" and plan.tests[0].fields["methodology"] == {"frame_sizes": [120, 121]}


def test_loads_through_a_result_set(tmp_path):
    test = TEST_TOML.format(extra='[tests.variants]\nunicast-traffic = "Unicast Traffic"\nunicast-traffic-1 = "Unicast Traffic #1"\n')
    rs, problems = load_native(tmp_path, {"raw/page.json": REST.read_bytes()}, '{path = "raw/page.json", importer = "ixnetwork", test = "imported"}', test)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    mine = {r.keys["variant"]: r for r in rs.measurements() if r.test == "imported"}
    assert mine["unicast-traffic"].value("rx") == 115052349 and mine["unicast-traffic"].value("latency_avg") == pytest.approx(1088e-9)


def test_wirespeed_import_then_validate(tmp_path):
    out, rs = import_and_validate(tmp_path, "auto", [CSV, REST], "ixn-2024")
    assert out.count("is ixnetwork") == 2 and list(rs.tests) == ["traffic-items", "flows"]
    items = {(r.keys["variant"], r.keys["frame_size"]): r for r in rs.measurements() if r.test == "traffic-items"}
    assert items[("tester-to-dta1-traffic-1", 121)].value("latency_max") == pytest.approx(232344.46e-9)
