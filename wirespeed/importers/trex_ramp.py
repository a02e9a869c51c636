"""T-Rex ramp loadtest JSON (vars + per-second stats per port) → per-second samples."""

from __future__ import annotations

from wirespeed.importers.common import base_keys, number, parse_json, plausible, row
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
    from wirespeed.figures import Figure

    return Figure.parse(repr(t))
