"""The netns search collector for real: searches through namespace devices, a whole `collect netns --quick`, and interrupts.

Needs root, `ip netns`, trafgen, tcpdump, nft and bridge (skipped with the reason otherwise). The
machine may be busy (2 shared cores): nothing here depends on its speed. The tests assert what holds
under any load — the search ends with bounds that bracket its answer, every trial's counts
reconcile with what was asked, the set validates, and nothing is left behind: no namespace, no
trafgen or tcpdump, no temporary folder, no half-written set.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import interruptible

from wirespeed.collectors import netns_search, netns_trafgen as tg
from wirespeed.collectors.search.mlrsearch import mlr_search
from wirespeed.system import locking
from wirespeed.collectors.search.rfc2544 import binary_search
from wirespeed.collectors.search.session import SearchConfig

pytestmark = [pytest.mark.slow, pytest.mark.netns]
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "collect" / "netns-ab.toml"


def _unusable() -> str | None:
    if os.geteuid() != 0:
        return "needs root to create network namespaces"
    if missing := tg.missing_tools():
        return f"not installed: {', '.join(missing)}"
    r = subprocess.run(["ip", "netns", "add", f"wst-probe-{os.getpid()}"], capture_output=True, text=True, timeout=10)
    if r.returncode:
        return f"ip netns is not usable here: {r.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", f"wst-probe-{os.getpid()}"], capture_output=True, timeout=10)
    if locking.busy(netns_search.LOCK_FILE):
        return "another netns collection is running on this machine"
    return None


@pytest.fixture(autouse=True)
def _needs_netns():
    if reason := _unusable():
        pytest.skip(reason)
    yield
    assert netns_search.leftovers() == []


@pytest.mark.parametrize("variant, search", [("ipv4-forward", mlr_search), ("bridge", binary_search)])
def test_a_search_through_a_real_device_converges_and_reconciles(variant, search, tmp_path: Path) -> None:
    log: list[str] = []
    tg.cleanup()
    gen = tg.NetnsTrafgen(variant, tmp_path, log=log)
    try:
        tg.setup(variant, log)
        gen.trial(64, 1000, 0.5)  # warm-up, as the collector does: frames of the links' start-up stay out of the search
        time.sleep(0.5)
        cfg = SearchConfig(frame_bytes=64, min_rate_fps=500, max_rate_fps=100_000, trial_duration_s=0.5, resolution=0.1,
                           resolution_fps=200, max_trials=20, time_budget_s=120, loss_ratios=(0.0, 0.005))
        res = search(gen, cfg)
    finally:
        gen.close()
        tg.cleanup()
    for b in res.bounds:
        assert b.converged or "maximum" in b.reason or "time budget" in b.reason, b
        if b.lower_fps is not None and b.upper_fps is not None:
            assert 500 <= b.lower_fps < b.upper_fps <= 100_000
        if b.converged and b.lower_fps and b.upper_fps:
            assert b.upper_fps - b.lower_fps <= max(200, 0.1 * b.upper_fps)
        for t in res.trials:  # the NDR's lower bound is a load that passed, its upper one that failed or could not be offered
            if t.load_fps == b.lower_fps:
                assert t.result.lost_frames <= b.loss_ratio * t.result.tx_frames
    for t in res.trials:  # only the test frames cross the counters: every frame asked for is counted as sent
        assert t.result.tx_frames == max(1, round(t.load_fps * 0.5)), t
        assert 0 <= t.result.rx_frames <= t.result.tx_frames
    assert tg.cleanup() == []


def test_collect_quick_writes_a_valid_set(tmp_path: Path) -> None:
    """The lab's provenance and the machine's facts, a draft, a quick run that says so, and the device's configuration and counters attached."""
    import json
    import tomllib

    from wirespeed.collectors.provenance import describe_machine, machine

    started = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "wirespeed", "collect", "netns", "--config", str(EXAMPLE), "--into", "netns-quick",
                        "--quick", "--publisher", "Acme Test Lab", "--licence", "CC-BY-4.0", "--root", str(tmp_path)],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["netns-quick"], "no temporary folder beside the set"
    folder = tmp_path / "netns-quick"
    v = subprocess.run([sys.executable, "-m", "wirespeed", "validate", str(folder)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert v.returncode == 0, v.stdout + v.stderr
    rows = (folder / "measurements.csv").read_text().splitlines()
    assert rows[0].startswith("test,frame_size,variant,trial") and any(",ndr,," in r for r in rows) and any(",ndr-50,1," in r for r in rows)
    hooks = (folder / "raw" / "hooks.json").read_text()
    assert '"name": "link-counters"' in hooks and '"name": "dut-qdisc"' in hooks

    doc = tomllib.loads((folder / "result.toml").read_text())
    facts = machine()
    assert (doc["status"], doc["licence"], doc["source"]["publisher"]) == ("draft", "CC-BY-4.0", "Acme Test Lab")
    assert doc["campaign"]["testbed"] == describe_machine(facts) and doc["campaign"]["location"] == f"host {facts['host']} ({facts['os']})"
    assert doc["campaign"]["engineers"] == [facts["account"]] and json.loads((folder / "raw" / "machine.json").read_text())["host"] == facts["host"]
    assert doc["title"] == "IPv4 forwarding in network namespaces, 64 bytes: NDR/PDR search (quick run)"
    assert {t["methodology"]["latency_method"] for t in doc["tests"]} == {"one-way-capture"}  # what its notes describe: tcpdump on both sides
    assert {t["methodology"]["search"] for t in doc["tests"]} == {"mlrsearch"}  # the example's algorithm, as its notes say
    assert "quick-run" in doc["tags"] and doc["summary"].startswith("Quick run (1 device, 1 frame size, 1 search per point to 10 %; a short check, not for comparison).")
    attached = {a["path"]: a["title"] for a in doc["files"]["attachments"]}
    links = folder / "raw" / "hooks" / "after-test-dut-links-ipv4-forward.txt"
    assert attached["raw/hooks/after-test-dut-links-ipv4-forward.txt"].startswith("The device's interface counters after the test (ip -s link)")
    assert "wst-d0" in links.read_text() and "RX:" in links.read_text()
    assert "raw/hooks/before-test-dut-ruleset-ipv4-forward.txt" in attached  # IPv4 forwarding has no rule set: the file says the hook printed nothing
    print(f"collect --quick took {time.monotonic() - started:.0f} s")


def _config_with(tmp_path: Path, extra: str) -> Path:
    cfg = tmp_path / "cfg.toml"
    cfg.write_text(EXAMPLE.read_text().split("[[hooks]]")[0] + extra)
    return cfg


def test_a_failing_hook_stops_the_collection_and_leaves_nothing(tmp_path: Path) -> None:
    cfg = _config_with(tmp_path, '[[hooks]]\nwhen = "before-trial"\nname = "fails"\ncommand = ["sh", "-c", "echo broken device >&2; exit 3"]\n')
    out = tmp_path / "out"
    with pytest.raises(netns_search.CollectorError, match=r"hook 'fails' \(before-trial\) failed: exit 3: broken device"):
        netns_search.run(out, "never-written", config=cfg, quick=True)
    assert not out.exists() or list(out.iterdir()) == []
    assert tg.cleanup() == [] and netns_search.leftovers() == []


def test_ctrl_c_leaves_no_namespace_process_or_set(tmp_path: Path) -> None:
    cfg = _config_with(tmp_path, "")
    out = tmp_path / "out"
    p = subprocess.Popen([sys.executable, "-m", "wirespeed", "collect", "netns", "--config", str(cfg), "--into", "interrupted", "--quick",
                          "--root", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the first trial is under way
        if subprocess.run(["pgrep", "-f", "trafgen -o wst-g0"], capture_output=True).returncode == 0:
            break
        time.sleep(0.05)
    else:
        p.kill()
        pytest.fail("the collection never started a trial")
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode != 0
    assert not out.exists() or list(out.iterdir()) == [], list(out.iterdir())
    assert netns_search.leftovers() == [], err[-500:]
    assert not list(Path(tempfile.gettempdir()).glob(f"wirespeed-netns-*")) or all(
        d.stat().st_mtime < time.time() - 3600 for d in Path(tempfile.gettempdir()).glob("wirespeed-netns-*"))
    shutil.rmtree(out, ignore_errors=True)
