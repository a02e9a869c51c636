"""T-Rex ramp loadtest JSON (vars + per-second stats per port) → per-second samples."""

from __future__ import annotations

import re
from pathlib import PurePath

from wirespeed.importers.common import base_keys, json_head_has, number, parse_json, plausible, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.problems import Problem


def import_trex_ramp(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """T-Rex ramp loadtest JSON (vars + per-second stats per port) → per-second samples."""
    doc, problems = parse_json(data, file)
    if doc is None:
        return [], problems, 0
    stats = doc.get("stats") if isinstance(doc, dict) else None
    if not isinstance(stats, dict) or not stats:
        return [], [Problem(file, None, "stats", "no per-second 'stats' object: not a T-Rex ramp loadtest file", "import.trex-ramp")], 0
    rows, n = [], 0
    try:
        ordered = sorted(stats.items(), key=lambda kv: float(kv[0]))
    except ValueError:
        ordered = []
    if not ordered or not all(k.isascii() and plausible(float(k)) and float(k) >= 0 for k, _ in ordered):
        return [], [Problem(file, None, "stats", "sample keys must be numbers of seconds (0 to 1e30)", "import.trex-ramp")], 0
    t0 = float(ordered[0][0])
    for key, sample in ordered:
        n += 1
        if not isinstance(sample, dict):
            problems.append(Problem(file, None, f"stats.{key}", "sample is not an object", "import.trex-ramp"))
            continue
        ports = {p: v for p, v in sample.items() if p.isascii() and p.isdigit() and len(p) <= 4 and isinstance(v, dict)}
        if not ports:
            problems.append(Problem(file, None, f"stats.{key}", "sample has no per-port statistics", "import.trex-ramp"))
            continue
        for port, st in sorted(ports.items()):
            values = {
                "tx_rate": (number(st, "tx_pps"), "pps"),
                "rx_rate": (number(st, "rx_pps"), "pps"),
                "tx_l1": (number(st, "tx_bps_L1"), "bps"),
                "rx_l1": (number(st, "rx_bps_L1"), "bps"),
                "tx_l2": (number(st, "tx_bps"), "bps"),
                "rx_l2": (number(st, "rx_bps"), "bps"),
            }
            if all(v is None for v, _ in values.values()):
                problems.append(Problem(file, None, f"stats.{key}.{port}", "no tx/rx rates in this sample", "import.trex-ramp"))
                continue
            keys = {**base_keys(spec, test.id), "port": port, "t_s": _seconds(float(key) - t0)}
            rows.append(row("samples", file, 0, keys, values))
    return rows, problems, n


def _seconds(t: float):
    from wirespeed.engine.figures import Figure

    return Figure.parse(repr(t))


def sniff(head: bytes, name: str) -> float:
    """A JSON object with "vars" (ramp parameters) and per-second "stats"."""
    return 0.9 if json_head_has(head, "vars", "stats") and (b"rampup" in head or b"tx_pps" in head) else 0.0


def _pct(v) -> float | None:
    """A percentage or a number of seconds as the script writes it: 100, "100", "100%" or " 100 "."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip().rstrip("%s").strip())
        except ValueError:
            return None
    return None


def describe(data: bytes, name: str) -> ImportPlan:
    """The ramp's parameters (vars) and its ports; the device and port speed are not in the file."""
    plan = ImportPlan("trex-ramp")
    doc, plan.problems = parse_json(data, name)
    if doc is None:
        return plan
    stats = doc.get("stats") if isinstance(doc, dict) else None
    if not isinstance(stats, dict) or not stats:
        plan.problems.append(Problem(name, None, "stats", "no per-second 'stats' object: not a T-Rex ramp loadtest file", "import.trex-ramp"))
        return plan
    tvars = doc.get("vars") if isinstance(doc.get("vars"), dict) else {}
    profile = str(tvars.get("profile_file", "")).strip()
    test_id = re.sub(r"[^a-z0-9]+", "-", PurePath(profile).stem.lower()).strip("-") or "ramp"
    ports = {p for sample in stats.values() if isinstance(sample, dict) for p in sample if p.isdigit()}
    unidirectional = str(tvars.get("unidirectional", "")).strip().lower() in {"1", "true", "yes"}
    methodology = {"search": "ramp", "frame_size_convention": "trex-packet"}
    for key, field in (("warmup_duration", "warmup_s"), ("rampup_duration", "rampup_s"), ("hold_duration", "hold_s"), ("rampup_target", "ramp_target_pct")):
        value = _pct(tvars.get(key))
        if value is not None:
            methodology[field] = value
    fields = {"title": f"Ramp loadtest, profile {profile}" if profile else "Ramp loadtest", "rfc": ["loadtest-ramp"],
              "direction": "unidirectional" if unidirectional else "bidirectional", "methodology": methodology}
    if ports:
        fields["ports"] = len(ports)
    plan.tests.append(TestPlan(test_id, fields))
    plan.instrument = {"vendor": "Cisco (open source)", "product": "T-Rex traffic generator (ramp loadtest)"}
    plan.unstated = [f"tests.{test_id}.port_speed", f"tests.{test_id}.scenario", f"tests.{test_id}.topology"]
    return plan


IMPORTER = Importer(
    summary="T-Rex ramp loadtest JSON (vars + per-second per-port stats) → per-second samples",
    sniff=sniff,
    describe=describe,
    convert=import_trex_ramp,
    examples=("docs/importers/examples/trex-ramp/ramp.json",),
)
