"""`wirespeed collect trex` against the T-Rex API simulator (tests/trex_sim.py) whose device each test declares:
NDR/PDR searches with repeated trials and latency at three loads, a generator that cannot keep up, the
ramp loadtest, hooks that attach their output, a recorded session replayed to the same set without a
server, and the synthetic mark that keeps every such set from being published. And the latency and
rate-change protocol against replies from T-Rex's own documentation (tests/fixtures/trex-rpc)."""

from __future__ import annotations

import filecmp
import json
import math
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT, run_cli
from trex_replay import ReplayServer, SESSIONS
from trex_sim import Device, TrexSim, apportion, bucket
from wirespeed.cli import cli
from wirespeed.collectors import trex_tape
from wirespeed.collectors.trex_generator import LatencyStreams, TrexGenerator
from wirespeed.collectors.trex_rpc import RpcClient
from wirespeed.collectors.trex_set import stats_doc
from wirespeed.engine.linerate import parse_speed, port_fps
from wirespeed.importers import trex as trex_importer
from wirespeed.catalog.load import load

SEARCH = ROOT / "examples" / "collect" / "trex-ndr-pdr-latency.toml"
LOADTEST = ROOT / "examples" / "collect" / "trex-loadtest-ramp.toml"
CAPACITY = 5_000_000  # the declared device: forwards at most 5 Mframes/s of any size, drops the rest
LINE_64 = port_fps(64, parse_speed("10G"))  # 14,880,952.38 frames/s


def latency_model(u: float) -> list[tuple[float, float]]:
    """The declared latency of the latency stream's frames at utilisation u: half at 4 + 10u µs, 40 % at 6 + 20u, 10 % at 20 + 200u."""
    return [(4 + 10 * u, 0.5), (6 + 20 * u, 0.4), (20 + 200 * u, 0.1)]


DEVICE = Device(CAPACITY, latency_model, jitter_us=2.0, words="forwards at most 5,000,000 frames/s (tail drop above); latency 4 + 10u µs "
                "(half the frames), 6 + 20u µs (40 %), 20 + 200u µs (10 %) at utilisation u; jitter 2 µs")


class FakeTime:
    """The collector's clock and sleep, shared with the simulator: trials take no wall time, counts are exact."""

    def __init__(self) -> None:
        self.now = 1000.0

    def sleep(self, s: float) -> None:
        self.now += max(0.0, s)

    def clock(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    t = FakeTime()
    monkeypatch.setattr(trex_tape, "pause", t.sleep)
    monkeypatch.setattr(trex_tape, "monotonic", t.clock)
    return t


def collect(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["collect", "trex", *args])
    return res.exit_code, res.output


def rows(folder: Path, name: str = "measurements.csv") -> list[dict[str, str]]:
    import csv

    with (folder / name).open(newline="") as f:
        return list(csv.DictReader(f))


# ---- searches with latency

def test_a_search_with_latency_at_three_loads_writes_a_synthetic_draft(tmp_path: Path, clock: FakeTime) -> None:
    with TrexSim(DEVICE, clock.clock) as sim:
        code, out = collect("--server", sim.address, "--config", str(SEARCH), "--into", "sim-search", "--root", str(tmp_path),
                            "--publisher", "Acme Test Lab", "--licence", "CC-BY-4.0")
    assert code == 0, out
    assert sim.errors == []
    folder = tmp_path / "sim-search"
    proc = run_cli("validate", str(folder))
    assert proc.returncode == 0 and "1 valid, 0 invalid; 0 errors" in proc.stderr, proc.stdout + proc.stderr
    doc = tomllib.loads((folder / "result.toml").read_text())
    assert (doc["status"], doc["licence"], doc["source"]["publisher"], doc["source"]["kind"]) == ("draft", "CC-BY-4.0", "Acme Test Lab", "synthetic")
    assert "synthetic" in doc["tags"] and "device model: forwards at most 5,000,000 frames/s" in doc["source"]["notes"]
    assert doc["campaign"]["testbed"].startswith("T-Rex server trex-simulator: simulated, 1 data-plane cores")
    test = doc["tests"][0]
    assert test["methodology"]["trials"] == 3 and "limited_by" not in test["methodology"]
    assert set(test["variants"]) == {"ndr", "pdr", "pdr-10", "pdr-50", "pdr-90"}

    table = rows(folder)
    # 512 and 1518 bytes: the line rate (2,349,624 and 812,744 frames/s) is below the capacity: every search passes at its first trial
    for size in (512, 1518):
        line = port_fps(size, parse_speed("10G"))
        searched = [r for r in table if r["frame_size"] == str(size) and r["variant"] in ("ndr", "pdr") and r["trial"]]
        assert len(searched) == 6 and all(r["throughput_fps"] == str(math.floor(line)) and r["throughput_upper_fps"] == "" for r in searched)
    # 64 bytes: the NDR is the capacity, the PDR the highest rate losing at most 0.5 %: C / 0.995; each search brackets its answer
    for variant, answer in (("ndr", CAPACITY), ("pdr", math.floor(CAPACITY / 0.995))):
        searches = [r for r in table if r["frame_size"] == "64" and r["variant"] == variant and r["trial"]]
        assert [r["trial"] for r in searches] == ["1", "2", "3"]
        for r in searches:
            lower, upper = int(r["throughput_fps"]), int(r["throughput_upper_fps"])
            assert lower <= answer < upper and upper - lower <= max(100, 0.005 * upper), r
        mean = next(r for r in table if r["frame_size"] == "64" and r["variant"] == variant and not r["trial"])
        values = [int(r["throughput_fps"]) for r in searches]
        assert float(mean["throughput_fps"]) == pytest.approx(sum(values) / 3, abs=0.05)
        assert (int(mean["throughput_min_fps"]), int(mean["throughput_max_fps"])) == (min(values), max(values))
    pdr = next(float(r["throughput_fps"]) for r in table if r["frame_size"] == "64" and r["variant"] == "pdr" and not r["trial"])

    # latency: three trials at each of 10, 50 and 90 % of the mean PDR, the load plus the 9,000 frames/s latency stream, exactly as declared
    lat = [r for r in table if r["frame_size"] == "64" and r["variant"].startswith("pdr-")]
    assert [(r["variant"], r["trial"]) for r in lat] == [(f"pdr-{p}", str(i)) for p in (10, 50, 90) for i in (1, 2, 3)]
    hist = rows(folder, "histograms.csv")
    for pct in (10, 50, 90):
        load = round(pdr * pct / 100)
        u = (load + 9000) / CAPACITY
        model = latency_model(u)
        frames = 9000 * 10
        counts = apportion(frames if u <= 1 else math.floor(frames / u), [s for _v, s in model])
        for r in (r for r in lat if r["variant"] == f"pdr-{pct}"):
            assert (float(r["offered_rate_fps"]), int(r["tx_frames"]), float(r["duration_s"])) == (load + 9000, (load + 9000) * 10, 10.0)
            assert int(r["rx_frames"]) == int(r["tx_frames"])  # below the capacity: nothing lost
            assert float(r["latency_min_us"]) == pytest.approx(model[0][0], abs=5e-4)
            assert float(r["latency_max_us"]) == pytest.approx(model[2][0], abs=5e-4)
            assert float(r["latency_avg_us"]) == pytest.approx(sum(v * n for (v, _s), n in zip(model, counts)) / frames, abs=5e-4)
            assert float(r["jitter_avg_us"]) == 2.0
        got = {(float(h["bucket_low_us"]), int(h["count_frames"])) for h in hist if h["variant"] == f"pdr-{pct}" and h["frame_size"] == "64"}
        want: dict[float, int] = {}
        for (v, _s), n in zip(model, counts):
            want[bucket(v)] = want.get(bucket(v), 0) + 3 * n  # three trials added together
        assert got == set(want.items())

    # each latency trial's statistics in T-Rex get_stats() form, read back by the trex importer
    first = json.loads((folder / "raw/latency-001.stats.json").read_text())
    shape, _doc, recs, probs = trex_importer.parse(json.dumps(first).encode(), "x")
    assert shape == "stats" and probs == []
    stream = next(r for r in recs if r.keys.get("port", "").endswith("pg_id 1"))
    assert stream.values["latency_max"][0] == pytest.approx(latency_model((round(pdr / 10) + 9000) / CAPACITY)[2][0])
    assert len(list(folder.glob("raw/latency-*.stats.json"))) == 27

    # never published: validate refuses the same set marked published, and the collector refuses to collect it as published
    published = tmp_path / "published" / "sim-search"
    shutil.copytree(folder, published)
    (published / "result.toml").write_text((folder / "result.toml").read_text().replace('status = "draft"', 'status = "published"'))
    proc = run_cli("validate", str(published))
    assert proc.returncode == 1 and "status: published: a synthetic set" in proc.stdout and "[publish.synthetic]" in proc.stdout


def test_a_simulator_set_is_never_collected_as_published(tmp_path: Path, clock: FakeTime) -> None:
    with TrexSim(DEVICE, clock.clock) as sim:
        code, out = collect("--server", sim.address, "--config", str(SEARCH), "--into", "x", "--root", str(tmp_path), "--quick", "--status", "published",
                            "--licence", "CC-BY-4.0")
    assert code == 1 and "is a simulator" in out and "synthetic and can never be published; collect it as a draft" in out
    assert list(tmp_path.iterdir()) == []


def test_a_generator_that_cannot_send_the_load_marks_its_searches(tmp_path: Path, clock: FakeTime) -> None:
    """T-Rex sends at most 3 Mframes/s here, below the device's 5 M: every 64-byte search ends at the generator, not the device."""
    slow = Device(CAPACITY, latency_model, generator_fps=3_000_000, words="forwards 5,000,000 frames/s; the generator sends at most 3,000,000")
    with TrexSim(slow, clock.clock) as sim:
        code, out = collect("--server", sim.address, "--config", str(SEARCH), "--into", "slow", "--root", str(tmp_path), "--quick")
    assert code == 0, out
    folder = tmp_path / "slow"
    doc = tomllib.loads((folder / "result.toml").read_text())
    assert doc["tests"][0]["methodology"]["limited_by"] == "generator" and "1 of 1 searches ended there" in doc["tests"][0]["methodology"]["notes"]
    ndr = [r for r in rows(folder) if r["variant"] == "ndr"]
    assert all(r["throughput_fps"].startswith(">=") and r["throughput_upper_fps"] == "" for r in ndr), ndr
    assert all(int(float(r["throughput_fps"][2:])) <= 3_000_000 for r in ndr)
    assert "≥" in doc["summary"] and "limited by the generator" in doc["summary"]
    trials = rows(folder, "raw/trials.csv")
    assert {t["generator_short"] for t in trials if int(t["load_fps"]) > 3_000_000} == {"true"}  # each trial the generator could not send is marked
    assert {t["generator_short"] for t in trials if int(t["load_fps"]) <= 3_000_000} <= {"false"}
    assert run_cli("validate", str(folder)).returncode == 0


# ---- the loadtest

def test_the_ramp_loadtest_samples_every_second(tmp_path: Path, clock: FakeTime) -> None:
    with TrexSim(DEVICE, clock.clock) as sim:
        code, out = collect("--server", sim.address, "--config", str(LOADTEST), "--into", "ramp", "--root", str(tmp_path), "--quick")
    assert code == 0, out
    folder = tmp_path / "ramp"
    doc = tomllib.loads((folder / "result.toml").read_text())
    meth = doc["tests"][0]["methodology"]
    assert (meth["warmup_s"], meth["rampup_s"], meth["hold_s"], meth["search"], doc["title"]) == (2, 10, 5, "ramp", "DEVICE: 64-byte ramp loadtest to line rate (T-Rex, quick run)")
    assert "quick-run" in doc["tags"] and doc["source"]["kind"] == "synthetic"
    native = json.loads((folder / "native/loadtest.json").read_text())
    assert list(native["stats"]) == [repr(float(s)) for s in range(15)]  # 10 ramp seconds and 5 of hold, from the ramp's start
    for k, sample in enumerate(native["stats"].values()):
        offered = LINE_64 * min(k + 1, 10) / 10
        assert sample["0"]["opackets"] == math.floor(offered + 1e-6) and sample["0"]["tx_pps"] == sample["0"]["opackets"]
        assert sample["1"]["ipackets"] == min(sample["0"]["opackets"], math.floor(CAPACITY * sample["0"]["opackets"] / offered + 1e-6) if offered > CAPACITY else sample["0"]["opackets"])
    hold = next(r for r in rows(folder) if r["variant"] == "hold")
    assert int(hold["tx_frames"]) == 5 * math.floor(LINE_64) and float(hold["duration_s"]) == 5.0
    rs, problems = load(folder)
    assert [p for p in problems if p.severity == "error"] == []
    samples = [r for r in rs.rows if r.kind == "samples"]
    assert len(samples) == 30 and {r.keys["port"] for r in samples} == {"0", "1"}  # the trex-ramp importer read the native file


# ---- record, replay, hooks

def test_a_recorded_session_replays_to_the_same_set_without_a_server(tmp_path: Path, clock: FakeTime) -> None:
    config = tmp_path / "lab.toml"
    marker = tmp_path / "hook-ran"
    config.write_text(SEARCH.read_text().split("# What a lab keeps")[0] + f'''
[[hooks]]
when = "before-test"
name = "dut-config"
command = ["sh", "-c", "echo hostname dut1; echo interface Te0/0/0/0; touch {marker}"]
attach = "The device's configuration before the test"
''')
    recording = tmp_path / "session.json"
    with TrexSim(DEVICE, clock.clock) as sim:
        code, out = collect("--server", sim.address, "--config", str(config), "--into", "lab", "--root", str(tmp_path / "live"), "--quick",
                            "--record", str(recording), "--publisher", "Acme Test Lab")
    assert code == 0, out
    assert marker.exists()
    marker.unlink()
    live = tmp_path / "live" / "lab"
    hooked = live / "raw/hooks/before-test-dut-config-ipv4-ndr-pdr.txt"
    assert hooked.read_text() == "hostname dut1\ninterface Te0/0/0/0\n"
    doc = tomllib.loads((live / "result.toml").read_text())
    assert {"path": "raw/hooks/before-test-dut-config-ipv4-ndr-pdr.txt",
            "title": "The device's configuration before the test (before-test, ipv4-ndr-pdr: hook dut-config)"} in doc["files"]["attachments"]

    rec = json.loads(recording.read_text())
    assert rec["recording"] == "wirespeed collect trex" and rec["config"]["text"] == config.read_text()
    assert rec["options"] == {"quick": True, "publisher": "Acme Test Lab"}
    # the simulator is gone: the replay needs no server, runs no hook, and writes the same set byte for byte
    code, out = collect("--replay", str(recording), "--into", "lab", "--root", str(tmp_path / "replayed"))
    assert code == 0, out
    assert not marker.exists()
    again = tmp_path / "replayed" / "lab"
    files = sorted(p.relative_to(live) for p in live.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert [str(f) for f in files if not filecmp.cmp(live / f, again / f, shallow=False)] == []


def test_a_replay_that_leaves_the_recording_fails_in_one_line(tmp_path: Path, clock: FakeTime) -> None:
    recording = tmp_path / "session.json"
    with TrexSim(DEVICE, clock.clock) as sim:
        code, out = collect("--server", sim.address, "--config", str(SEARCH), "--into", "a", "--root", str(tmp_path / "live"), "--quick", "--record", str(recording))
    assert code == 0, out
    other = tmp_path / "other.toml"
    other.write_text(SEARCH.read_text().replace("frame_sizes = [64]", "frame_sizes = [128]"))
    code, out = collect("--replay", str(recording), "--config", str(other), "--into", "b", "--root", str(tmp_path / "replayed"), "--quick")
    assert code == 1
    assert out.strip().startswith(f"trex: replay {recording}: event ") and "add_stream: params.stream is" in out and len(out.strip().splitlines()) == 1
    assert not (tmp_path / "replayed").exists() or list((tmp_path / "replayed").iterdir()) == []
    not_a_recording = tmp_path / "x.json"
    not_a_recording.write_text('{"events": []}')
    code, out = collect("--replay", str(not_a_recording), "--into", "c", "--root", str(tmp_path))
    assert code == 1 and 'not a recording of wirespeed collect trex (no "recording": "wirespeed collect trex")' in out


def test_a_failed_live_session_is_still_recorded(tmp_path: Path, clock: FakeTime) -> None:
    """A session that failed is worth sharing too: the recording holds it up to the failure, and replays to the same error."""
    recording = tmp_path / "session.json"
    with TrexSim(DEVICE, clock.clock) as sim:
        sim.ports[0].owner = "itay"
        code, out = collect("--server", sim.address, "--config", str(SEARCH), "--into", "a", "--root", str(tmp_path), "--quick", "--record", str(recording))
    assert code == 1 and "port 0 is busy: owned by 'itay'" in out
    code, again = collect("--replay", str(recording), "--into", "a", "--root", str(tmp_path), "--quick")
    assert code == 1 and again == out


# ---- the protocol against T-Rex's documented replies

def test_a_latency_trial_reads_the_documented_packet_group(monkeypatch: pytest.MonkeyPatch) -> None:
    t = FakeTime()
    with ReplayServer("latency_trial") as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        client.connect()
        client.call("get_version"), client.call("get_system_info")
        gen = TrexGenerator(client, 0, 1, sleep=t.sleep, clock=t.clock)
        gen.acquire()
        res = LatencyStreams(gen, 10000.0, 5).trial(83, 0.0, 50.0)
        gen.release()
        client.close()
    assert srv.mismatches == [] and srv.pending == []
    added = next(r for r in srv.requests if r["method"] == "add_stream")["params"]["stream"]
    assert added["flow_stats"] == {"enabled": True, "stream_id": 5, "rule_type": "latency", "vxlan": False, "ieee_1588": False}
    assert added["core_id"] == -1 and added["mode"]["rate"] == {"type": "pps", "value": 10000.0}
    assert (res.tx_frames, res.rx_frames, res.rate_fps, res.latency_min_ns, res.latency_avg_ns, res.latency_max_ns, res.jitter_ns) == (
        500000, 500000, 10000.0, None, 15200.0, 44000.0, 0.0)
    assert res.histogram_us == ((0.0, 10.0, 3), (20.0, 30.0, 489342), (30.0, 40.0, 10512), (40.0, 50.0, 143))
    doc = stats_doc(gen.readings[-1], 0, 1)  # the file the set keeps, as the trex importer reads it
    shape, _d, recs, probs = trex_importer.parse(json.dumps(doc).encode(), "x")
    assert shape == "stats" and probs == []
    stream = next(r for r in recs if r.keys.get("port") == "pg_id 5")
    assert (stream.values["latency_avg"][0], stream.values["latency_max"][0], stream.values["jitter_avg"][0], stream.values["tx"][0]) == (15.2, 44, 0, 500000)
    assert sorted((r.keys["bucket_low_us"].value, r.values["count"][0]) for r in recs if r.kind == "histograms") == [(0, 3), (20, 489342), (30, 10512), (40, 143)]


def test_a_rate_change_is_the_documented_update_traffic() -> None:
    with ReplayServer("update_traffic") as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        client.connect()
        gen = TrexGenerator(client, 0, 1)
        gen.handlers = {0: "AQokC3ZA", 1: "AQokC3ZA"}
        gen.set_rate(1000.0)
        client.close()
    assert srv.mismatches == [] and srv.pending == []
    assert client.transcript[-1].reply["result"] == {"multiplier": 1.953125}
    assert SESSIONS["update_traffic"]["exchanges"][-1][0] == "update_traffic"
