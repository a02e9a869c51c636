"""Spirent TestCenter views on our own example exports (CSV and fixed-width text): exact values,
totals rows skipped, port names with spaces and slashes, describe, sniffing and bad input."""

from __future__ import annotations

import pytest

from importer_sets import EXAMPLES, TEST_TOML, FakeTest, all_examples, example, import_and_validate, load_native
from wirespeed.importers import spirent


def _rows(name):
    rows, problems, n = spirent.IMPORTER(example("spirent", name), name, {"test": "t1"}, FakeTest())
    assert not problems, problems
    return {r.keys.get("port") or (r.keys.get("frame_size"), r.keys.get("trial")): r for r in rows}


def test_basic_counters_csv():
    rows = _rows("basic-counters.csv")
    assert set(rows) == {"//1/1", "//1/2", "Port 3 (10G)"}  # the Total row is not data
    r = rows["//1/1"]
    assert (r.value("tx"), r.value("rx"), r.value("tx_rate"), r.value("tx_l2")) == (14880952, 14880952, 1488095, 761904640)
    assert r.value("latency_avg") == pytest.approx(5.214e-6) and r.value("latency_max") == pytest.approx(9.12e-6)
    m = rows["Port 3 (10G)"]
    assert m.value("rx") == 1999998 and m.value("latency_avg") is None  # N/A stays unknown


def test_advanced_sequencing_csv():
    r = _rows("advanced-sequencing.csv")["//1/1"]
    assert (r.value("lost"), r.value("loss"), r.value("out_of_sequence"), r.value("duplicate")) == (12, 0.0001, 8, 2)


def test_rfc2544_summary_csv():
    rows = _rows("rfc2544-throughput.csv")
    assert set(rows) == {(64, 1), (128, 1), (1518, 1), (64, 2)}
    r = rows[(64, 2)]
    assert r.value("throughput_line_rate") == 74.5 and r.value("tx") == 221726190 and r.value("latency_max") == pytest.approx(19e-6)
    assert r.value("duration") == 20


def test_fixed_width_text_with_spaced_port_names():
    rows = _rows("basic-counters.txt")
    assert set(rows) == {"Port 1 (10G)", "Port 2 (10G)"}
    assert rows["Port 2 (10G)"].value("rx") == 8127401 and rows["Port 2 (10G)"].value("latency_min") == pytest.approx(3.5e-6)


def test_describe_states_version_date_speed():
    plan = spirent.describe(example("spirent", "basic-counters.txt"), "basic-counters.txt")
    assert plan.instrument["software"] == [{"name": "Spirent TestCenter", "version": "5.21.0512"}]
    assert plan.campaign == {"start": "2024-03-14", "end": "2024-03-14"}
    t = plan.tests[0]
    assert t.id == "basic-counters" and t.fields["port_speed"] == "10G" and t.fields["ports"] == 2
    plan = spirent.describe(example("spirent", "rfc2544-throughput.csv"), "r.csv")
    assert plan.tests[0].fields["methodology"] == {"frame_sizes": [64, 128, 1518], "trials": 2} and "instrument.software" in plan.unstated


HEAD = "Tx Port Name,Rx Port Names,Stream Block,Tx Count (Frames),Rx Count (Frames),Avg Latency (us)\n"


@pytest.mark.parametrize("text, expect", [
    ("Port,Frames\n1,2\n", "no Spirent TestCenter view header"),
    (HEAD + "//1/1,//1/2,SB1,100,abc,1.0\n", "v.csv:2: Rx Count (Frames): 'abc' is not a number"),
    (HEAD + "//1/1,//1/2,SB1,100,100,1.5 ms\n", "unit 'ms' in a column of us"),
    (HEAD + "//1/1,//1/2,SB1,100\n", "4 cells: expected 6"),
    (HEAD + "//1/1,//1/2,SB1,100,100,1\n//1/1,//1/2,SB1,100,100,1\n", "duplicated row"),
    (HEAD.replace("(us)", "(furlongs)") + "//1/1,//1/2,SB1,100,100,1\n", "unit 'none' in the header"),
    (HEAD + "//1/1,\"//1/2,,//1/3\",SB1,100,100,1\n", "an empty name in the list of Rx ports"),
    (HEAD + "//1/1,//1/2,SB1,,N/A,\n", "no value in this row"),
    (HEAD, "no data rows"),
])
def test_bad_input_is_one_line(text, expect):
    rows, problems, _ = spirent.IMPORTER(text.encode(), "v.csv", {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1, problems
    assert expect in str(problems[0]) and str(problems[0]).startswith("v.csv")


def test_a_csv_from_another_view_is_refused():
    rows, problems, _ = spirent.IMPORTER(example("ixnetwork", "flow-statistics.csv"), "f.csv", {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1 and "no Spirent TestCenter view header" in str(problems[0])


def test_sniff_own_examples_and_not_the_others():
    for path in all_examples():
        assert (spirent.sniff(path.read_bytes()[:65536], path.name) > 0.5) == (path.parent.name == "spirent"), path


def test_loads_through_a_result_set(tmp_path):
    rs, problems = load_native(tmp_path, {"raw/basic.txt": example("spirent", "basic-counters.txt"), "raw/seq.csv": example("spirent", "advanced-sequencing.csv")},
                               '{path = "raw/basic.txt", importer = "spirent", test = "imported", frame_size = 128}, '
                               '{path = "raw/seq.csv", importer = "spirent", test = "imported", frame_size = 64}', TEST_TOML.format(extra=""))
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    mine = [r for r in rs.measurements() if r.test == "imported"]
    assert sorted((r.keys["frame_size"], r.keys["port"]) for r in mine) == [(64, "//1/1"), (64, "//1/2"), (128, "Port 1 (10G)"), (128, "Port 2 (10G)")]


def test_wirespeed_import_then_validate(tmp_path):
    ex = EXAMPLES / "spirent"
    out, rs = import_and_validate(tmp_path, "auto", [ex / "basic-counters.txt", ex / "rfc2544-throughput.csv", ex / "advanced-sequencing.csv"], "stc-2024")
    assert out.count("is spirent") == 3
    assert list(rs.tests) == ["basic-counters", "rfc2544-throughput", "sequencing"]
    assert rs.meta["instrument"]["software"] == [{"name": "Spirent TestCenter", "version": "5.21.0512"}]
    assert rs.tests["basic-counters"].meta["port_speed"] == "10G"
    rfc = [r for r in rs.measurements() if r.test == "rfc2544-throughput"]
    assert sorted((r.keys["frame_size"], r.keys["trial"]) for r in rfc) == [(64, 1), (64, 2), (128, 1), (1518, 1)]
    seq = {r.keys["port"]: r for r in rs.measurements() if r.test == "sequencing"}
    assert seq["//1/1"].value("out_of_sequence") == 8
