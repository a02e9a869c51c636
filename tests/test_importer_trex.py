"""T-Rex importers on our own example files (STL get_stats(), NDR benchmark, mapped sweep):
exact values, sniffing, describe, every bad-input case, and loading through a result set."""

from __future__ import annotations

import json
import shutil
import tomllib

import pytest

from importer_sets import EXAMPLES, TEST_TOML, FakeTest, all_examples, example, import_and_validate, load_native
from wirespeed.importers import trex, trex_sweep

MAPPING = tomllib.loads(example("trex-sweep", "sweep.mapping.toml").decode())


def _by_port(rows):
    return {r.keys.get("port"): r for r in rows if r.kind == "measurements"}


def test_stl_stats_ports_streams_and_histogram():
    rows, problems, n = trex.IMPORTER(example("trex", "stl-stats.json"), "s.json", {"test": "t1"}, FakeTest())
    assert not problems and n == 9
    ports = _by_port(rows)
    assert set(ports) == {"0", "1", "0->1 pg_id 7", "1->0 pg_id 8"}
    p0 = ports["0"]
    assert (p0.value("tx"), p0.value("rx")) == (29761905, 29761800)
    assert p0.value("tx_rate") == 2976190.5 and p0.value("rx_rate") == 2976180.0
    assert p0.value("tx_l1") == 2000000016.0 and p0.value("rx_l2") == 1523804160.0
    s7 = ports["0->1 pg_id 7"]
    assert (s7.value("tx"), s7.value("rx"), s7.value("lost"), s7.value("out_of_sequence"), s7.value("duplicate")) == (10000, 9998, 2, 1, 0)
    assert s7.value("latency_min") == pytest.approx(7e-6) and s7.value("latency_avg") == pytest.approx(11.25e-6)
    assert s7.value("latency_max") == pytest.approx(48e-6) and s7.value("jitter_avg") == pytest.approx(3e-6)
    assert ports["1->0 pg_id 8"].value("duplicate") == 1
    hist = {(float(r.keys["bucket_low_us"].value), float(r.keys["bucket_high_us"].value)): r.value("count") for r in rows if r.kind == "histograms"}
    assert hist == {(0, 10): 420, (10, 20): 19340, (20, 30): 215, (30, 40): 10, (40, 50): 13}


def test_bucket_edges_are_tRex_log_buckets():
    assert [trex.bucket_high(k) for k in (0, 10, 90, 100, 200, 1000)] == [10, 20, 100, 200, 300, 2000]


def test_ndr_benchmark_row_and_describe():
    rows, problems, _ = trex.IMPORTER(example("trex", "ndr-bench.json"), "n.json", {"test": "t1"}, FakeTest())
    assert not problems and len(rows) == 1
    r = rows[0]
    assert r.keys["frame_size"] == 64
    assert r.value("throughput") == 19886363.6 and r.value("forwarding_rate") == 19886363.6
    # total_tx_L1 and total_rx_L1 are totals over the ports; rate_tx_bps/rate_rx_bps are the lowest port's
    # L2 rate (ndr_bench.py: min(tx_bps) of the transmitting ports), not a total: the L2 totals are
    # results.tx_bps/rx_bps, which this file does not hold, so no L2 rate is published
    assert r.value("tx_l1") == 13363636339.2 and r.value("rx_l1") == 13363636339.2 and r.value("tx_l2") is None and r.value("rx_l2") is None
    assert r.value("throughput_l1") is None and r.value("throughput_l2") is None  # T-Rex's bit rates are not the vocabulary's frame rates
    # cpu_util is T-Rex's own CPU, the generator's: not the device's, not imported
    assert r.value("loss") == 0.0 and r.value("throughput_line_rate") == 70.0 and r.value("cpu_avg") is None
    assert r.value("latency_min") == pytest.approx(8e-6) and r.value("latency_max") == pytest.approx(52e-6)
    assert r.value("latency_avg") is None  # two streams' smoothed averages are not averaged
    doc = json.loads(example("trex", "ndr-bench.json"))
    doc["results"].update({"tx_bps": 10181818163.2, "rx_bps": 10181818163.0})  # the L2 totals ndr_bench.py writes (get_stats()['total'])
    (r,) = trex.IMPORTER(json.dumps(doc).encode(), "n.json", {"test": "t1"}, FakeTest())[0]
    assert r.value("tx_l2") == 10181818163.2 and r.value("rx_l2") == 10181818163.0
    plan = trex.describe(example("trex", "ndr-bench.json"), "n.json")
    t = plan.tests[0]
    assert t.id == "pdr" and t.fields["ports"] == 2 and t.fields["direction"] == "bidirectional"
    assert t.fields["methodology"]["loss_tolerance_pct"] == 0.1 and t.fields["methodology"]["frame_sizes"] == [64]
    assert "tests.pdr.port_speed" in plan.unstated


def test_sweep_through_the_declared_mapping():
    recs, problems = trex_sweep.parse(example("trex-sweep", "sweep.json"), "w.json", MAPPING)
    assert not problems
    assert [(r.keys["frame_size"], float(r.keys["load_pct"].value), r.keys["trial"]) for r in recs] == [(64, 10, 1), (64, 10, 2), (64, 50, 1), (1518, 50, 1)]
    assert recs[2].values["lost"] == (789479, "frames") and recs[2].values["forwarding_rate"] == (14802004.5, "pps")
    assert recs[1].values["rx"] == (29761903, "frames") and recs[3].values["offered_rate"] == (812743.8, "pps")
    assert recs[3].values["lost"] == (None, "frames")  # "N/A" is not a number, and not a zero
    plan = trex_sweep.describe(example("trex-sweep", "sweep.json"), str(EXAMPLES / "trex-sweep" / "sweep.json"))
    assert not plan.problems and plan.tests[0].native == [{"mapping": MAPPING}]
    assert plan.tests[0].fields["methodology"]["offered_loads_pct"] == [10, 50] and plan.tests[0].fields["methodology"]["trials"] == 2


def test_sweep_without_trial_numbers_repeated_runs_in_order():
    m = {k: v for k, v in MAPPING.items() if k != "trial"}
    recs, problems = trex_sweep.parse(example("trex-sweep", "sweep.json"), "w.json", m)
    assert not problems and [r.keys["trial"] for r in recs] == [1, 2, 1, 1]


@pytest.mark.parametrize("data, expect", [
    (b'{"0": {"opackets": 1', "not valid JSON"),
    (b'{"results": {}}', "found neither"),
    (b'[1, 2]', "found neither"),
    (b'{"0": {"opackets": "many"}, "total": {}}', "0.opackets: expected a number, found 'many'"),
    (b'{"0": {"foo": 1}, "total": {}}', "expected port counters or rates"),
    (b'{"0": {"opackets": 1}, "total": {}, "latency": {"7": {"latency": {"histogram": {"x": 3}}}}}', "latency.7.latency.histogram.x"),
    (b'{"results": {"total_iterations": 3}, "config": {}}', "results.tx_pps: expected the rate"),
])
def test_trex_bad_input_is_one_line(data, expect):
    rows, problems, _ = trex.IMPORTER(data, "bad.json", {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1, problems
    assert expect in str(problems[0]) and str(problems[0]).startswith("bad.json") and "\n" not in str(problems[0])


@pytest.mark.parametrize("data, mapping, expect", [
    (b'[{"size": 64, "rx_pps": 1}, {"size": 64, "rx_pps": 2}]', {"frame_size": "size", "trial": "size", "forwarding_rate_pps": "rx_pps"}, "duplicated run"),
    (b'[{"size": 64, "rate": "10%", "rep": 1, "rx": 5}, {"size": 64, "rate": 10, "rep": 1, "rx": 6}]', {"frame_size": "size", "load_pct": "rate", "trial": "rep", "forwarding_rate_pps": "rx"}, "[1]: duplicated run"),
    (b'[{"size": 64, "rx": "5 Mbps"}]', {"frame_size": "size", "forwarding_rate_pps": "rx"}, "unit 'Mbps' in a column of pps"),
    (b'[{"size": "big", "rx": 5}]', {"frame_size": "size", "forwarding_rate_pps": "rx"}, "[0].size: frame_size"),
    (b'{"size": 64}', {"frame_size": "size", "forwarding_rate_pps": "rx"}, "expected a JSON array of runs"),
    (b'[{"size": 64, "rx": 5}', {"frame_size": "size", "forwarding_rate_pps": "rx"}, "not valid JSON"),
    (b'[{"size": 64}]', {"frame_size": "size", "bogus_xyz": "rx"}, "mapping.bogus_xyz"),
    (b'[{"size": 64}]', {"frame_size": "size"}, "at least one value column"),
])
def test_sweep_bad_input_is_one_line(data, mapping, expect):
    rows, problems, _ = trex_sweep.IMPORTER(data, "sweep.json", {"test": "t1", "mapping": mapping}, FakeTest())
    assert rows == [] and len(problems) == 1, problems
    assert expect in str(problems[0]) and "sweep.json" in str(problems[0])


def test_sweep_needs_its_mapping_beside_it(tmp_path):
    (tmp_path / "runs.json").write_bytes(example("trex-sweep", "sweep.json"))
    plan = trex_sweep.describe(example("trex-sweep", "sweep.json"), str(tmp_path / "runs.json"))
    assert len(plan.problems) == 1 and "runs.mapping.toml" in str(plan.problems[0])


def test_sniff_own_examples_and_not_the_others():
    for path in all_examples():
        head = path.read_bytes()[:65536]
        for name, mod in (("trex", trex), ("trex-sweep", trex_sweep)):
            assert (mod.sniff(head, path.name) > 0.5) == (path.parent.name == name), (name, path)


def test_loads_through_a_result_set(tmp_path):
    entries = ('{path = "raw/stats.json", importer = "trex", test = "imported"}, '
               '{path = "raw/sweep.json", importer = "trex-sweep", test = "imported", mapping = '
               + json.dumps(MAPPING).replace('": "', '" = "').replace('{"', '{').replace(', "', ', ').replace('" =', ' =') + '}')
    rs, problems = load_native(tmp_path, {"raw/stats.json": example("trex", "stl-stats.json"), "raw/sweep.json": example("trex-sweep", "sweep.json")},
                               entries, TEST_TOML.format(extra=""))
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    mine = [r for r in rs.rows if r.test == "imported"]
    assert len([r for r in mine if r.kind == "measurements"]) == 4 + 4 and len([r for r in mine if r.kind == "histograms"]) == 5


def test_wirespeed_import_then_validate(tmp_path):
    ex = EXAMPLES
    shutil.copyfile(ex / "trex-sweep" / "sweep.json", tmp_path / "sweep.json")
    shutil.copyfile(ex / "trex-sweep" / "sweep.mapping.toml", tmp_path / "sweep.mapping.toml")
    out, rs = import_and_validate(tmp_path, "auto", [ex / "trex" / "stl-stats.json", ex / "trex" / "ndr-bench.json", tmp_path / "sweep.json"], "trex-2024")
    assert "stl-stats.json is trex" in out and "ndr-bench.json is trex" in out and "sweep.json is trex-sweep" in out
    assert [t for t in rs.tests] == ["stl-stats", "pdr", "fixed-rate-sweep"]
    assert rs.meta["files"]["native"][2]["mapping"] == MAPPING  # the mapping is declared with the file
    ndr = [r for r in rs.measurements() if r.test == "pdr"]
    assert len(ndr) == 1 and ndr[0].value("throughput") == 19886363.6
    sweep = [r for r in rs.measurements() if r.test == "fixed-rate-sweep"]
    assert len(sweep) == 4 and sorted(r.value("lost") for r in sweep if r.value("lost") is not None) == [0, 2, 789479]
    assert len(rs.histograms()) == 5


def test_latency_of_a_stream_that_received_nothing_is_absent():
    """trex_stl_stats.py: a pg_id whose latency packets never arrived reports total_min, average,
    total_max and jitter of 0 and an empty histogram: not a latency of 0."""
    doc = json.loads(example("trex", "stl-stats.json"))
    pg = next(k for k in doc["latency"] if k.isdigit())
    doc["latency"][pg]["latency"].update({"total_min": 0, "average": 0, "total_max": 0, "jitter": 0, "histogram": {}})
    rows, problems, _ = trex.IMPORTER(json.dumps(doc).encode(), "s.json", {"test": "t1"}, FakeTest())
    (r,) = [r for r in rows if r.kind == "measurements" and f"pg_id {pg}" in str(r.keys.get("port"))]
    assert not problems and all(r.value(m) is None for m in ("latency_min", "latency_avg", "latency_max", "jitter_avg"))
