"""The netns collector's config file and its hooks, without namespaces: one clear line per mistake, every hook call recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from search_sim import TailDropDevice
from wirespeed.collectors.hooks import Hook, HookedGenerator, HookError, HookRunner, link_counters
from wirespeed.collectors.netns_config import ConfigError, load

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "collect" / "netns-ab.toml"


def test_the_example_loads_and_quick_shrinks_it() -> None:
    full, quick = load(EXAMPLE), load(EXAMPLE, quick=True)
    assert full.variants == ("bridge", "ipv4-forward", "ipv4-nftables") and full.nft_rules == 1000 and full.frame_sizes == (64, 512, 1518)
    assert quick.variants == ("ipv4-forward",) and quick.frame_sizes == (64,) and quick.repeats == 1
    assert [h.when for h in full.hooks] == ["before-test", "after-test", "after-test", "before-test", "after-test"] and full.hooks[0].entry_point == "link-counters"
    assert [(h.name, h.namespace, h.command[0]) for h in full.hooks if h.attach] == [("dut-ruleset", "wst-dut", "nft"), ("dut-links", "wst-dut", "ip")]
    assert quick.title == "IPv4 forwarding in network namespaces, 64 bytes: NDR/PDR search (quick run)" and quick.quick and not full.quick


@pytest.mark.parametrize("text, message", [
    ("[collect]\nframe_sizes = [32]\n", "frame_sizes: expected 64-1518 bytes"),
    ("[collect]\nframe_sizes = [9000]\n", "frame_sizes: expected 64-1518 bytes"),
    ("[collect]\nbogus = 1\n", "collect.bogus: unknown field"),
    ("[collect]\nrepeats = \"two\"\n", "repeats: expected a int"),
    ("[collect]\nvariants = [\"router\"]\n", "variants: expected each one of"),
    ("[collect]\nalgorithm = \"guess\"\n", "algorithm: expected one of mlrsearch"),
    ("[extra]\n", "extra: unknown table"),
    ("[[hooks]]\nwhen = \"never\"\ncommand = [\"true\"]\n", "hooks[0].when: expected one of"),
    ("[[hooks]]\nwhen = \"after-test\"\nentry_point = \"nope\"\n", "hooks[0].entry_point: 'nope' is not in the entry point group"),
    ("[[hooks]]\nwhen = \"after-test\"\ncommand = \"rm -rf /\"\n", "hooks[0].command: expected a non-empty list of strings"),
    ("[[hooks]]\nwhen = \"after-test\"\ncommand = [\"true\"]\nentry_point = \"link-counters\"\n", "hooks[0]: give exactly one of"),
    ("[collect\n", "cannot be read as TOML"),
])
def test_a_bad_config_is_one_line_naming_the_field(tmp_path: Path, text: str, message: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError) as exc:
        load(cfg)
    assert str(exc.value).startswith(str(cfg)) and message in str(exc.value) and "\n" not in str(exc.value)


def test_jumbo_frames_need_the_jumbo_mtu(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[collect]\nmtu = 9000\nframe_sizes = [64, 1518, 9000]\n")
    assert load(cfg).frame_sizes == (64, 1518, 9000)


@pytest.mark.slow  # runs the hook commands
def test_hooks_run_around_each_trial_and_are_recorded() -> None:
    runner = HookRunner((Hook("before-trial", "echo", ("echo", "before")), Hook("after-trial", "counters", entry_point="link-counters")))
    gen = HookedGenerator(TailDropDevice(1000), runner, "sim")
    gen.trial(64, 500, 1.0)
    gen.trial(64, 2000, 1.0)
    assert [(r["when"], r["trial"], r["exit"]) for r in runner.records] == [("before-trial", 1, 0), ("after-trial", 1, 0), ("before-trial", 2, 0), ("after-trial", 2, 0)]
    assert runner.records[0]["output"] == "before\n" and runner.records[0]["variant"] == "sim" and runner.records[0]["duration_s"] >= 0
    assert json.loads(runner.records[1]["output"])["cpu"][0][0] == "cpu"
    assert json.loads(runner.json())[2]["rate_fps"] == 2000


@pytest.mark.slow  # runs the hook commands
def test_a_failing_hook_stops_with_its_name_and_last_line() -> None:
    runner = HookRunner((Hook("before-trial", "probe", ("sh", "-c", "echo fan failure >&2; exit 2")),))
    with pytest.raises(HookError, match=r"hook 'probe' \(before-trial\) failed: exit 2: fan failure"):
        HookedGenerator(TailDropDevice(1000), runner, "sim").trial(64, 500, 1.0)
    assert runner.records[0]["exit"] == 2


@pytest.mark.slow  # runs the hook commands
def test_a_hanging_hook_times_out() -> None:
    runner = HookRunner((Hook("after-test", "hang", ("sleep", "5"), timeout_s=0.2),))
    with pytest.raises(HookError, match="exit 124: timed out after 0.2 s"):
        runner.run("after-test", variant="sim")


def test_the_example_hook_snapshots_cpu_without_namespaces() -> None:
    out = json.loads(link_counters({"namespaces": []}))
    assert out["cpu"][0][0] == "cpu" and len(out["cpu"]) >= 2
