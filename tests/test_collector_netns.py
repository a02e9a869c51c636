"""The netns ramp collector, run for real: a short T-Rex-style ramp through Linux network namespaces.

Needs root and a usable `ip netns` (skipped otherwise, with the reason). The ramp runs at a nominal
100M, lower than the published 500M example, so that the generator can keep its pace on a machine
shared with other work; when it cannot, the collector refuses to write anything and the test is
skipped with that reason. The machine may be busy: the tests assert only what holds at any load —
the set is complete and validates, the namespaces are gone, the counts reconcile (a sample per
second, received never above sent over the run, the measurement rows are the sums of the samples), the plan's
offered rates, and the shaper's effect where the generator did overload it — never how fast the
generator or the device ran (a run on a busy machine sent 5,308.8 frames/s where 6,095.6 ± 610 was
asserted).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import jsonschema
import pytest

from wirespeed.collectors.netns_ramp import NAMESPACES, CollectorError, run
from wirespeed.engine.linerate import parse_speed, port_fps

SPEED, FRAME, RAMP_S, HOLD_S, WARMUP_S, LIMIT_PCT = "100M", 1518, 6, 2, 2, 60.0
LINE_FPS = port_fps(FRAME, parse_speed(SPEED))  # 8,127 frames/s
LIMIT_FPS = LINE_FPS * LIMIT_PCT / 100  # 4,876 frames/s
SCHEMA = Path(__file__).resolve().parents[1] / "wirespeed" / "schema" / "result.v1.schema.json"
SLUG = "netns-ramp-test"
pytestmark = [pytest.mark.slow, pytest.mark.netns]


def _netns_unusable() -> str | None:
    """Why this machine cannot run the collector, or None."""
    if os.geteuid() != 0:
        return "needs root to create network namespaces"
    if missing := [t for t in ("ip", "iperf3", "tc") if shutil.which(t) is None]:
        return f"not installed: {', '.join(missing)}"
    probe = f"ws-probe-{os.getpid()}"
    r = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True, timeout=10)
    if r.returncode:
        return f"ip netns is not usable here: {r.stderr.strip() or r.returncode}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True, timeout=10)
    return None


def _table(path: Path) -> list[dict[str, float | str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return [{k: (v if k == "test" else float(v)) for k, v in row.items()} for row in csv.DictReader(f)]


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real short ramp, shared by the tests of this module."""
    if reason := _netns_unusable():
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("results")
    calls: list[tuple[int, int]] = []
    try:
        folder = run(out, SLUG, port_speed=SPEED, frame_size=FRAME, rampup_s=RAMP_S, hold_s=HOLD_S, warmup_s=WARMUP_S,
                     dut_limit_pct=LIMIT_PCT, progress=lambda done, total: calls.append((done, total)))
    except CollectorError as exc:
        if "machine too busy" in str(exc) or "another netns collection is running" in str(exc):
            pytest.skip(f"cannot run a timing-sensitive loadtest now: {exc}")
        raise
    assert calls and calls[-1][0] == calls[-1][1], "progress must end at its total"
    return folder


def test_folder_is_complete_and_validates(result: Path) -> None:
    assert result.name == SLUG and sorted(p.name for p in result.parent.iterdir()) == [SLUG], "no temporary folder is left beside it"
    doc = tomllib.loads((result / "result.toml").read_text("utf-8"))
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text("utf-8"))).validate(doc)
    assert doc["slug"] == SLUG and doc["format_version"] == 1 and doc["source"]["kind"] == "measured"
    test = doc["tests"][0]
    assert test["port_speed"] == SPEED and test["methodology"]["search"] == "ramp" and test["methodology"]["rampup_s"] == RAMP_S
    files = doc["files"]
    declared = {*files["measurements"], *files["samples"], *files["histograms"], *(a["path"] for a in files["attachments"])}
    present = {p.relative_to(result).as_posix() for p in result.rglob("*") if p.is_file()} - {"result.toml"}
    assert declared == present
    assert sum((result / p).stat().st_size for p in present if p.startswith("raw/")) < 1_000_000


def test_namespaces_are_gone(result: Path) -> None:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=10).stdout.split()
    assert not set(NAMESPACES) & set(listed)


def test_a_sample_for_every_second(result: Path) -> None:
    header = (result / "samples.csv").read_text("utf-8").splitlines()[0]
    assert header == "test,frame_size,t_s,duration_s,offered_rate_pps,tx_frames,rx_frames,lost_frames,tx_rate_pps,rx_rate_pps"
    rows = _table(result / "samples.csv")
    assert [r["t_s"] for r in rows] == list(range(RAMP_S + HOLD_S))
    assert all(r["test"] == f"ipv4-ramp-{FRAME}" and r["frame_size"] == FRAME for r in rows)
    for r in rows:  # the rates are the counts over the second's measured length, to the printed 0.1 frames/s; the length
        # is printed to the microsecond, so frames over the printed length may differ by frames/length² × 0.5 µs more
        for frames, rate in ((r["tx_frames"], r["tx_rate_pps"]), (r["rx_frames"], r["rx_rate_pps"])):
            assert abs(rate - frames / r["duration_s"]) <= 0.05 + frames / r["duration_s"] ** 2 * 0.5e-6 + 1e-9, r


def test_offered_rates_follow_the_plan(result: Path) -> None:
    rows = _table(result / "samples.csv")
    offered = [r["offered_rate_pps"] for r in rows]
    assert offered[:RAMP_S] == sorted(offered[:RAMP_S]) and offered[RAMP_S:] == [pytest.approx(LINE_FPS, rel=1e-3)] * HOLD_S


def test_counts_reconcile(result: Path) -> None:
    samples, meas = _table(result / "samples.csv"), _table(result / "measurements.csv")
    assert len(meas) == RAMP_S + 1 and meas[-1]["load_pct"] == 100
    for r in samples + meas:  # one interval may receive frames sent in the one before (counters are read while traffic flows) ...
        assert r["rx_frames"] >= 0 and r["tx_frames"] > 0, r
    assert sum(r["rx_frames"] for r in samples) <= sum(r["tx_frames"] for r in samples)  # ... never more in all
    assert sum(r["tx_frames"] for r in samples) == sum(r["tx_frames"] for r in meas)
    assert sum(r["rx_frames"] for r in samples) == sum(r["rx_frames"] for r in meas)
    assert sum(r["lost_frames"] for r in samples) == sum(r["lost_frames"] for r in meas)
    for r in samples + meas:  # frames lost are what the DUT counted dropping: never negative, never more than were sent
        assert 0 <= r["lost_frames"] <= r["tx_frames"]


def test_an_overloaded_shaper_drops_and_queues(result: Path) -> None:
    """Only where the generator did send well above the shaper's rate: then frames are lost and the 50 ms queue fills."""
    hold = _table(result / "measurements.csv")[-1]
    sent_fps = hold["tx_frames"] / hold["duration_s"]
    if sent_fps < 1.2 * LIMIT_FPS:
        pytest.skip(f"the generator sent {sent_fps:,.0f} frames/s in the hold, not enough above the shaper's {LIMIT_FPS:,.0f} on this busy machine")
    assert hold["rx_frames"] < hold["tx_frames"] and hold["lost_frames"] > 0
    with (result / "histograms.csv").open(encoding="utf-8", newline="") as f:
        rows = [{k: (v if k in ("test", "variant") else float(v)) for k, v in r.items()} for r in csv.DictReader(f)]
    assert {r["variant"] for r in rows} == {"warm-up", "hold"} and {r["test"] for r in rows} == {"icmp-rtt-under-load"} and {r["frame_size"] for r in rows} == {98}

    def median_us(load: str) -> float:
        buckets = [r for r in rows if r["variant"] == load]
        assert all(a["bucket_high_us"] == b["bucket_low_us"] for a, b in zip(buckets, buckets[1:]))
        total, seen = sum(r["count_frames"] for r in buckets), 0.0
        for r in buckets:
            seen += r["count_frames"]
            if seen >= total / 2:
                return r["bucket_high_us"]
        raise AssertionError("empty histogram")

    assert median_us("hold") > median_us("warm-up")


@pytest.mark.parametrize("kwargs, message", [
    ({"slug": "Not A Slug"}, "slug"),
    ({"port_speed": "OC-12c"}, "Ethernet"),
    ({"port_speed": "fast"}, "unknown port speed"),
    ({"frame_size": 9000}, "1518"),
    ({"rampup_s": 1}, "rampup_s"),
])
def test_bad_arguments_are_refused_before_anything_runs(tmp_path: Path, kwargs: dict, message: str) -> None:
    args = {"slug": "ok", **kwargs}
    with pytest.raises(CollectorError, match=message):
        run(tmp_path, args.pop("slug"), **args)
    assert list(tmp_path.iterdir()) == []
