"""The T-Rex collector's configuration file (TOML): what to describe and which trials to run.

    [set]                      # title, summary?, tags?, and the provenance: publisher, licence, location,
                               # operator, testbed, status, embargo_until (wirespeed.collectors.provenance)
    [dut]                      # copied into result.toml [dut] (vendor, model required)
    [test]                     # id, title, scenario, address_family?, description?, port_speed? (else the server's)
    [ports]                    # tx = 0, rx = 1
    [trials]                   # frame_sizes × (rates_pct | rates_fps), duration_s, repeat?
    [ramp]                     # or: frame_sizes, start_pct, stop_pct, steps, duration_s (a trial per step)
    [[trial]]                  # or: explicit trials {frame_size, rate_fps | rate_pct, duration_s}
    [search]                   # or: NDR/PDR searches, with [latency] trials at loads of their answer (trex_plans)
    [loadtest]                 # or: the ramp loadtest of seed 004: warm-up, ramp, hold, per-second samples (trex_plans)
    [quick]                    # --quick: title? and tables whose fields replace those above, e.g. [quick.search]
    [[hooks]]                  # commands or entry points before/after the test and each trial (hooks.py)

Exactly one of [trials], [ramp], [[trial]], [search] and [loadtest]. Problems are one line each with the
file, line and field.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wirespeed.collectors import trex_plans
from wirespeed.collectors.hooks import Hook, HookError
from wirespeed.collectors.provenance import CONFIG_KEYS as PROVENANCE_KEYS, ProvenanceError, check_value
from wirespeed.collectors.trex_generator import MAX_FRAME, MIN_FRAME
from wirespeed.engine.linerate import parse_speed
from wirespeed.problems import Problem, display_path
from wirespeed.resultset.tomllines import with_lines

RULE = "collect.trex-config"
MAX_CONFIG_BYTES = 256 * 1024
MAX_TRIALS = 200  # one raw/trial-NNN.stats.json each, and a result set holds at most 256 files (limit.files)
SCENARIOS = ("l2-unicast", "ipv4-unicast", "ipv6-unicast", "l2-xconnect", "bridge-domain", "ipv4-routing", "acl-filtering", "baseline-forwarding")
SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclass(frozen=True)
class Planned:
    """One trial to run; rate either in frames/s or in % of the port's line rate."""

    frame_size: int
    duration_s: float
    rate_fps: float | None = None
    rate_pct: float | None = None
    repeat: int = 1


TABLES = ("set", "dut", "test", "ports", "trials", "ramp", "trial", "search", "latency", "loadtest", "quick", "hooks")
MODES = ("trials", "ramp", "trial", "search", "loadtest")
SET_KEYS = ("title", "summary", "tags", *PROVENANCE_KEYS)


@dataclass
class Config:
    path: str
    raw: dict
    mode: str  # "fixed-rate" (grid or explicit) | "ramp" | "search" | "loadtest"
    trials: list[Planned]
    tx_port: int
    rx_port: int
    search: trex_plans.SearchPlan | None = None
    latency: trex_plans.LatencyPlan | None = None
    loadtest: trex_plans.LoadtestPlan | None = None
    hooks: tuple[Hook, ...] = ()
    quick: bool = False
    text: str = ""  # the file as read (a recording keeps it)

    @property
    def provenance(self) -> dict[str, Any]:
        """The [set] table's provenance fields (wirespeed.collectors.provenance checks them)."""
        return {k: v for k, v in self.raw["set"].items() if k in PROVENANCE_KEYS}


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def read_config(path: Path, text: str | None = None, quick: bool = False) -> tuple[Config | None, list[Problem]]:
    """The parsed configuration (from the file, or from `text`: a recording's copy of it), or None and its
    problems (file:line: field: message [rule]); `quick` applies the [quick] table."""
    shown = display_path(path) if text is None else str(path)
    if text is None:
        if path.is_symlink() or not path.is_file():
            return None, [Problem(shown, None, "", "expected a plain TOML file (not a link or folder)", RULE)]
        if path.stat().st_size > MAX_CONFIG_BYTES:
            return None, [Problem(shown, None, "", "larger than 256 KiB: expected a small collector configuration", RULE)]
        text = path.read_bytes().decode("utf-8", "replace")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [Problem(shown, None, "", f"not valid TOML: {exc}", RULE)]
    probs: list[Problem] = []

    def bad(field: str, message: str) -> None:
        probs.append(Problem(shown, None, field, message, RULE))

    for table in sorted(set(raw) - set(TABLES)):
        bad(table, f"unknown table (known: {', '.join(TABLES)})")
    if quick:
        _quick(raw, bad)

    for table in ("set", "dut", "test"):
        if not isinstance(raw.get(table), dict):
            bad(table, f"expected a [{table}] table")
    s, dut, test = (raw.get(t) if isinstance(raw.get(t), dict) else {} for t in ("set", "dut", "test"))
    if s and not (isinstance(s.get("title"), str) and s["title"].strip()):
        bad("set.title", "expected the result set's title")
    for key in sorted(set(s) - set(SET_KEYS)):
        bad(f"set.{key}", f"unknown field (known: {', '.join(SET_KEYS)})")
    for key in (k for k in PROVENANCE_KEYS if k in s):
        try:
            check_value(key, s[key], f"set.{key}")
        except ProvenanceError as exc:
            bad(f"set.{key}", str(exc).removeprefix(f"set.{key}: "))
    if dut and not all(isinstance(dut.get(k), str) and dut[k].strip() for k in ("vendor", "model")):
        bad("dut", "expected vendor and model of the device under test")
    if test:
        if not (isinstance(test.get("id"), str) and SLUG.fullmatch(test["id"])):
            bad("test.id", "expected a test id of lower-case words joined by hyphens")
        if not (isinstance(test.get("title"), str) and test["title"].strip()):
            bad("test.title", "expected the test's title")
        if test.get("scenario") not in SCENARIOS:
            bad("test.scenario", f"expected one of {', '.join(SCENARIOS)}")
        if "port_speed" in test:
            try:
                if parse_speed(str(test["port_speed"])).media != "ethernet":
                    bad("test.port_speed", "expected an Ethernet port speed (T-Rex ports are Ethernet), e.g. 10G")
            except ValueError as exc:
                bad("test.port_speed", str(exc))
    ports = raw.get("ports", {"tx": 0, "rx": 1})
    tx, rx = (ports.get("tx"), ports.get("rx")) if isinstance(ports, dict) else (None, None)
    if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < 256 for p in (tx, rx)) or tx == rx:
        bad("ports", "expected two different T-Rex port numbers: tx = 0, rx = 1")
    modes = [m for m in MODES if m in raw]
    trials: list[Planned] = []
    mode, search, latency, loadtest = "fixed-rate", None, None, None
    if len(modes) != 1:
        bad("", "expected exactly one of [trials] (frame sizes × rates), [ramp], [[trial]] entries, [search] or [loadtest]")
    elif modes[0] == "trials":
        trials = _grid(raw["trials"], bad)
    elif modes[0] == "ramp":
        mode, trials = "ramp", _ramp(raw["ramp"], bad)
    elif modes[0] == "search":
        mode, search = "search", trex_plans.search_plan(raw["search"], bad)
        latency = trex_plans.latency_plan(raw["latency"], search, bad) if "latency" in raw else None
    elif modes[0] == "loadtest":
        mode, loadtest = "loadtest", trex_plans.loadtest_plan(raw["loadtest"], bad)
    else:
        trials = _explicit(raw["trial"], bad)
    if "latency" in raw and mode != "search":
        bad("latency", "latency trials run at loads of a search's answer: they need a [search] table")
    if len(trials) > MAX_TRIALS:
        bad(modes[0], f"{len(trials)} trials: more than {MAX_TRIALS} (each keeps its counters in a file, and a result set holds at most 256 files); split the run into several sets")
    hooks = raw.get("hooks", [])
    try:
        hooks = tuple(Hook.from_config(i, h, shown) for i, h in enumerate(hooks)) if isinstance(hooks, list) else bad("hooks", "expected [[hooks]] tables")
    except HookError as exc:
        field, _, message = str(exc).removeprefix(f"{shown}: ").partition(": ")
        bad(field, message)
    if probs:
        return None, with_lines(probs, shown, text)
    return Config(shown, raw, mode, trials, tx, rx, search, latency, loadtest, hooks or (), quick, text), []


def _quick(raw: dict, bad) -> None:
    """--quick: [quick] title replaces [set] title, and each [quick.TABLE]'s fields replace those of [TABLE]."""
    q = raw.get("quick")
    if not isinstance(q, dict):
        bad("quick", "--quick needs a [quick] table (a title, and tables whose fields replace the configuration's)")
        return
    for key, value in q.items():
        if key == "title" and isinstance(value, str) and value.strip():
            raw.setdefault("set", {})["title"] = value
        elif isinstance(value, dict) and isinstance(raw.get(key), dict) and key in MODES + ("latency", "set"):
            raw[key] = {**raw[key], **value}
        else:
            bad(f"quick.{key}", "expected title or a table that replaces fields of one of the configuration's tables (e.g. [quick.search])")


def _sizes(v: Any, field: str, bad) -> list[int]:
    if not isinstance(v, list) or not v or not all(isinstance(x, int) and not isinstance(x, bool) and MIN_FRAME <= x <= MAX_FRAME for x in v):
        bad(field, f"expected a list of Ethernet frame sizes from {MIN_FRAME} to {MAX_FRAME} bytes (FCS included)")
        return []
    return v


def _duration(t: dict, field: str, bad) -> float | None:
    d = t.get("duration_s")
    if not _num(d) or not 0 < d <= 86400:
        bad(field, "expected duration_s: the trial duration in seconds (up to a day)")
        return None
    return float(d)


def _grid(t: Any, bad) -> list[Planned]:
    if not isinstance(t, dict):
        bad("trials", "expected a table")
        return []
    sizes, dur = _sizes(t.get("frame_sizes"), "trials.frame_sizes", bad), _duration(t, "trials.duration_s", bad)
    repeat = t.get("repeat", 1)
    if not isinstance(repeat, int) or isinstance(repeat, bool) or not 1 <= repeat <= 100:
        bad("trials.repeat", "expected the number of trials per point, 1 to 100")
        return []
    if ("rates_pct" in t) == ("rates_fps" in t):
        bad("trials", "expected rates_pct (% of line rate) or rates_fps (frames/s), not both")
        return []
    key = "rates_pct" if "rates_pct" in t else "rates_fps"
    rates = t[key]
    if not isinstance(rates, list) or not rates or not all(_num(r) and r > 0 and (key == "rates_fps" or r <= 100) for r in rates):
        bad(f"trials.{key}", "expected a list of positive rates" + (" of at most 100 %" if key == "rates_pct" else ""))
        return []
    if dur is None:
        return []
    return [Planned(fs, dur, rate_fps=float(r) if key == "rates_fps" else None, rate_pct=float(r) if key == "rates_pct" else None, repeat=n)
            for fs in sizes for r in rates for n in range(1, repeat + 1)]


def _ramp(t: Any, bad) -> list[Planned]:
    if not isinstance(t, dict):
        bad("ramp", "expected a table")
        return []
    sizes, dur = _sizes(t.get("frame_sizes"), "ramp.frame_sizes", bad), _duration(t, "ramp.duration_s", bad)
    lo, hi, steps = t.get("start_pct"), t.get("stop_pct"), t.get("steps")
    if not (_num(lo) and _num(hi) and 0 < lo < hi <= 100 and isinstance(steps, int) and not isinstance(steps, bool) and 2 <= steps <= 1000):
        bad("ramp", "expected 0 < start_pct < stop_pct <= 100 and 2 to 1000 steps")
        return []
    if dur is None:
        return []
    return [Planned(fs, dur, rate_pct=round(lo + (hi - lo) * k / (steps - 1), 6)) for fs in sizes for k in range(steps)]


def _explicit(items: Any, bad) -> list[Planned]:
    if not isinstance(items, list) or not items:
        bad("trial", "expected [[trial]] entries")
        return []
    out, seen = [], {}
    for i, t in enumerate(items):
        f = f"trial[{i}]"
        sizes = _sizes([t.get("frame_size")] if isinstance(t, dict) else None, f"{f}.frame_size", bad)
        dur = _duration(t, f"{f}.duration_s", bad) if isinstance(t, dict) else None
        fps, pct = (t.get("rate_fps"), t.get("rate_pct")) if isinstance(t, dict) else (None, None)
        if (fps is None) == (pct is None) or not (_num(fps) and fps > 0 or _num(pct) and 0 < pct <= 100):
            bad(f, "expected rate_fps (frames/s) or rate_pct (% of line rate, at most 100), not both")
            continue
        if sizes and dur:
            k = (sizes[0], fps, pct)
            seen[k] = seen.get(k, 0) + 1
            out.append(Planned(sizes[0], dur, rate_fps=float(fps) if fps is not None else None, rate_pct=float(pct) if pct is not None else None, repeat=seen[k]))
    return out
