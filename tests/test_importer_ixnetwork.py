"""Keysight IxNetwork statistics CSV on our own example exports: exact values, interleaved totals
rows skipped, latency units from the header (ns and µs), describe, sniffing and bad input."""

from __future__ import annotations

import pytest

from importer_sets import EXAMPLES, TEST_TOML, FakeTest, all_examples, example, import_and_validate, load_native
from wirespeed.importers import ixnetwork


def _rows(name):
    rows, problems, n = ixnetwork.IMPORTER(example("ixnetwork", name), name, {"test": "t1"}, FakeTest())
    assert not problems, problems
    return rows


def test_traffic_items_latency_in_ns():
    rows = {r.keys["variant"]: r for r in _rows("traffic-item-statistics.csv")}
    r = rows["ipv4-1518b-east-west"]
    assert (r.value("tx"), r.value("rx"), r.value("lost")) == (8127440, 8127436, 4)
    assert r.value("rx_rate") == 812743.6 and r.value("rx_l1") == 9999995078.4 and r.value("rx_l2") == pytest.approx(9869.75e6)
    assert r.value("latency_avg") == pytest.approx(1204e-9) and r.value("latency_max") == pytest.approx(3870e-9)


def test_flows_skip_the_interleaved_totals_and_read_microseconds():
    rows = _rows("flow-statistics.csv")
    assert len(rows) == 4
    keyed = {(r.keys["frame_size"], r.keys["port"]): r for r in rows}
    r = keyed[(64, "Ethernet - 002 -> Ethernet - 001")]
    assert r.value("lost") == 2 and r.value("loss") == 0.000003 and r.value("rx_rate") == 7440475.8
    assert r.value("latency_avg") == pytest.approx(0.829e-6) and r.value("latency_min") == pytest.approx(0.65e-6)


def test_ports_and_line_speed():
    rows = {r.keys["port"]: r for r in _rows("port-statistics.csv")}
    assert rows["Ethernet - 001"].value("rx") == 78468478 and rows["Ethernet - 002"].value("tx_rate") == 7846848
    plan = ixnetwork.describe(example("ixnetwork", "port-statistics.csv"), "p.csv")
    assert plan.tests[0].fields["port_speed"] == "10G" and plan.tests[0].fields["ports"] == 2


def test_describe_declares_traffic_items_as_variants():
    plan = ixnetwork.describe(example("ixnetwork", "flow-statistics.csv"), "f.csv")
    t = plan.tests[0]
    assert t.id == "flows" and t.fields["variants"] == {"ipv4-east-west": "IPv4 east-west"}
    assert t.fields["methodology"] == {"frame_sizes": [64, 1518]} and t.fields["ports"] == 2
    assert plan.instrument == {"vendor": "Keysight", "product": "IxNetwork"} and "tests.flows.port_speed" in plan.unstated


HEAD = "Traffic Item,Tx Frames,Rx Frames,Store-Forward Avg Latency (ns)\n"


@pytest.mark.parametrize("text, expect", [
    ("Foo,Bar\n1,2\n", "header of no known IxNetwork view"),
    ("", "empty"),
    (HEAD + "A,100,99,1.5 us\n", "unit 'us' in a column of ns"),
    (HEAD.replace(" (ns)", "") + "A,100,99,12\n", "unit 'none' in the header"),
    (HEAD.replace("(ns)", "(ms)") + "A,100,99,12\n", "unit 'ms' in the header"),
    (HEAD + "A,\"1,00,0\",99,12\n", "'1,00,0' is not a number"),
    (HEAD + "A,100,99,12\nA,100,99,12\n", "duplicated row"),
    (HEAD + "A,100\n", "2 cells: expected 4"),
    (HEAD + "A,N/A,,n/a\n", "no value in this row"),
])
def test_bad_input_is_one_line(text, expect):
    rows, problems, _ = ixnetwork.IMPORTER(text.encode(), "ix.csv", {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1, problems
    assert expect in str(problems[0]) and str(problems[0]).startswith("ix.csv")


def test_a_csv_from_another_view_is_refused():
    rows, problems, _ = ixnetwork.IMPORTER(example("spirent", "rfc2544-throughput.csv"), "r.csv", {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1 and "no known IxNetwork view" in str(problems[0])


def test_sniff_own_examples_and_not_the_others():
    for path in all_examples():
        assert (ixnetwork.sniff(path.read_bytes()[:65536], path.name) > 0.5) == (path.parent.name == "ixnetwork"), path


def test_loads_through_a_result_set(tmp_path):
    test = TEST_TOML.format(extra='[tests.variants]\nipv4-east-west = "IPv4 east-west"\n')
    rs, problems = load_native(tmp_path, {"raw/flows.csv": example("ixnetwork", "flow-statistics.csv")},
                               '{path = "raw/flows.csv", importer = "ixnetwork", test = "imported"}', test)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    mine = [r for r in rs.measurements() if r.test == "imported"]
    assert len(mine) == 4 and {r.keys["frame_size"] for r in mine} == {64, 1518}


def test_describe_names_what_the_traffic_item_view_does_not_state():
    plan = ixnetwork.describe(example("ixnetwork", "traffic-item-statistics.csv"), "t.csv")
    assert not plan.problems and plan.tests[0].id == "traffic-items"
    assert {"tests.traffic-items.methodology.frame_sizes", "tests.traffic-items.port_speed", "instrument.software"} <= set(plan.unstated)


def test_wirespeed_import_then_validate(tmp_path):
    ex = EXAMPLES / "ixnetwork"
    out, rs = import_and_validate(tmp_path, "ixnetwork", [ex / "flow-statistics.csv", ex / "traffic-item-statistics.csv", ex / "port-statistics.csv"], "ixn-2024")
    assert list(rs.tests) == ["flows", "traffic-items", "ports"]
    assert rs.tests["ports"].meta["port_speed"] == "10G" and rs.tests["traffic-items"].meta["variants"]["ipv4-64b-east-west"] == "IPv4 64B east-west"
    flows = [r for r in rs.measurements() if r.test == "flows"]
    assert len(flows) == 4 and sum(r.value("lost") for r in flows) == 2
    items = {r.keys["variant"]: r for r in rs.measurements() if r.test == "traffic-items"}
    assert items["ipv4-64b-east-west"].value("latency_avg") == pytest.approx(820e-9)
