"""Importers on native tool output: iperf3 --json from a real run on 127.0.0.1, T-Rex ramp JSON in
the documented shape; bad native files give one clear line."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time

import pytest

from conftest import ARCHIVE, run_cli
from wirespeed.importers.iperf3 import import_iperf3
from wirespeed.importers.trex_ramp import import_trex_ramp
from wirespeed.catalog.load import load


class _Test:
    id = "t1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def iperf3_udp_json(tmp_path_factory) -> bytes:
    """A real iperf3 UDP run on the loopback: 2 s at 20 Mbit/s."""
    if shutil.which("iperf3") is None:
        pytest.skip("iperf3 is not installed")
    port = _free_port()
    server = subprocess.Popen(["iperf3", "-s", "-1", "-B", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        out = subprocess.run(["iperf3", "-c", "127.0.0.1", "-p", str(port), "-u", "-b", "20M", "-l", "1000", "-t", "2", "--json"],
                             capture_output=True, timeout=30, check=True).stdout
    finally:
        server.wait(timeout=10)
    return out


def test_iperf3_udp_from_a_real_run(iperf3_udp_json):
    doc = json.loads(iperf3_udp_json)
    rows, problems, n = import_iperf3(iperf3_udp_json, "run.json", {"test": "t1", "frame_size": 1046}, _Test())
    assert not problems
    samples = [r for r in rows if r.kind == "samples"]
    assert len(samples) == len(doc["intervals"]) >= 2
    # iperf3's bits_per_second is a layer-4 payload rate: goodput, not a layer-2 rate
    assert samples[0].value("goodput") == pytest.approx(doc["intervals"][0]["sum"]["bits_per_second"])
    assert samples[0].value("tx_l2") is None
    summary = next(r for r in rows if r.kind == "measurements")
    end = doc["end"]["sum"]
    assert summary.value("tx") == end["packets"] and summary.value("lost") == end["lost_packets"]
    assert summary.value("rx") == end["packets"] - end["lost_packets"]
    assert summary.value("interarrival_jitter") == pytest.approx(end["jitter_ms"] / 1000)  # RFC 3550, not RFC 4689


def test_iperf3_native_file_in_a_result_set(tmp_path, iperf3_udp_json):
    folder = tmp_path / "keysight-ixnetwork-ve-dpdk-400g-2022"
    shutil.copytree(ARCHIVE / folder.name, folder)
    (folder / "raw").mkdir()
    (folder / "raw" / "iperf3.json").write_bytes(iperf3_udp_json)
    toml = folder / "result.toml"
    toml.write_text(toml.read_text().replace('[files]\nmeasurements = ["throughput.csv"]',
                                             '[files]\nmeasurements = ["throughput.csv"]\nnative = [{path = "raw/iperf3.json", importer = "iperf3", test = "single-flow", frame_size = 1046}]'))
    rs, problems = load(folder)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    published = len((folder / "throughput.csv").read_text().splitlines()) - 1  # the set's own rows, plus one imported summary
    assert len(rs.samples()) >= 2 and len(rs.measurements()) == published + 1


def test_bad_native_files_are_one_line(tmp_path):
    rows, problems, _ = import_iperf3(b"{not json", "x.json", {}, _Test())
    assert len(problems) == 1 and "not valid JSON" in str(problems[0]) and "x.json:1" in str(problems[0])
    rows, problems, _ = import_iperf3(b'{"start": {}}', "x.json", {}, _Test())
    assert len(problems) == 1 and "not iperf3 --json output" in str(problems[0])
    rows, problems, _ = import_trex_ramp(b'{"vars": {}}', "t.json", {}, _Test())
    assert len(problems) == 1 and "[import.trex-ramp]" in str(problems[0])


def test_trex_ramp_json_shape():
    """The document shape of T-Rex ramp loadtest files (vars + one stats sample per second per port), as the
    tool's documentation describes it; the numbers are arbitrary test inputs, not results."""
    doc = {"vars": {"rampup_duration": 2, "profile_file": "imix.py"},
           "stats": {"10": {"0": {"tx_pps": 100.0, "rx_pps": 90.0, "tx_bps_L1": 1000.0, "rx_bps_L1": 900.0}, "global": {}},
                     "11": {"0": {"tx_pps": 200.0, "rx_pps": 150.0, "tx_bps_L1": 2000.0, "rx_bps_L1": 1500.0}, "1": {"tx_pps": "-nan"}}}}
    rows, problems, n = import_trex_ramp(json.dumps(doc).encode(), "t.json", {"frame_size": 64}, _Test())
    assert n == 2 and len(rows) == 2 and len(problems) == 1 and "stats.11.1" in problems[0].field
    assert [float(r.keys["t_s"].value) for r in rows] == [0.0, 1.0]
    assert rows[1].value("rx_rate") == 150.0 and rows[1].keys["port"] == "0"


def test_unknown_importer_is_reported(tmp_path):
    folder = tmp_path / "keysight-ixnetwork-ve-dpdk-400g-2022"
    shutil.copytree(ARCHIVE / folder.name, folder)
    (folder / "raw.json").write_text("{}")
    toml = folder / "result.toml"
    toml.write_text(toml.read_text().replace('[files]\nmeasurements = ["throughput.csv"]',
                                             '[files]\nmeasurements = ["throughput.csv"]\nnative = [{path = "raw.json", importer = "spirent-xyz", test = "single-flow"}]'))
    proc = run_cli("validate", str(folder))
    assert proc.returncode == 1 and "[import.unknown-importer]" in proc.stdout and "raw.json" in proc.stdout


def test_every_measurement_metric_has_a_place_in_the_results_table():
    """A metric an importer publishes (transaction_rate, rtt_p99, …) is printed by the results table: it has its column order."""
    from wirespeed.engine.columns import METRICS, TABLE_METRICS
    from wirespeed.presentation.tables.results import ORDER

    assert [m for m in METRICS if m in TABLE_METRICS["measurements"] and m not in ORDER] == []
