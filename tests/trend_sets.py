"""Synthetic trend series for the tests (never published): result sets of one made-up device, one test
and one frame size, each with a software version and trials of throughput (and minimum latency) drawn
around a level with a given trial-to-trial variation, optionally with a step and a test-bed change."""

from __future__ import annotations

import random
from pathlib import Path

LINE_64B_10G = 10e9 / ((64 + 20) * 8)  # frames/s: 14,880,952.38…


def values(n_sets: int, trials: int, level: float, noise: float, step_at: int | None, step: float, seed: int) -> list[list[float]]:
    """Trials per set: level × (1 + step from set step_at on) × (1 + N(0, noise))."""
    rng = random.Random(seed)
    return [[level * (1 + (step if step_at is not None and i >= step_at else 0.0)) * (1 + rng.gauss(0, noise)) for _ in range(trials)]
            for i in range(n_sets)]


def write_series(root: Path, n_sets: int = 20, trials: int = 3, noise: float = 0.01, step_at: int | None = 12, step: float = -0.03,
                 seed: int = 1, testbed_at: int | None = None, prefix: str = "synthetic-trend", status: str = "published") -> list[Path]:
    """Write the sets into root/<prefix>-NN; the software version is 1.0.<n> ("1.0.9" < "1.0.10": version order,
    not slug order, is the series' order: the slugs count down). testbed_at: the set from which the instrument differs."""
    tput = values(n_sets, trials, 0.5 * LINE_64B_10G, noise, step_at, step, seed)
    lat = values(n_sets, trials, 2.0, noise, step_at, -step, seed + 1)  # µs: a throughput fall comes with a latency rise
    out = []
    for i in range(n_sets):
        slug = f"{prefix}-{n_sets - i:02d}"
        d = root / slug
        d.mkdir(parents=True)
        instrument = "Example Generator B" if testbed_at is not None and i >= testbed_at else "Example Generator A"
        (d / "result.toml").write_text(f'''format_version = 1
slug = "{slug}"
title = "Synthetic trend series, run {i + 1}"
status = "{status}"
licence = "CC0-1.0"

[source]
kind = "measured"
publisher = "wirespeed tests"
publication_kind = "test-run"
published = "2026-11-{1 + i % 28:02d}"

[dut]
vendor = "Example"
model = "Synthetic Router 1"
software = [{{name = "Example OS", version = "1.0.{i}"}}]

[instrument]
vendor = "Example"
product = "{instrument}"

[methodology]
trials = {trials}
frame_sizes = [64]

[[tests]]
id = "ipv4"
title = "IPv4 forwarding"
rfc = ["2544"]
scenario = "ipv4-unicast"
topology = "port-pairs"
ports = 2
port_speed = "10G"
direction = "unidirectional"

[files]
measurements = ["measurements.csv"]
''', encoding="utf-8")
        rows = ["test,frame_size,trial,throughput_fps,latency_min_us"]
        rows += [f"ipv4,64,{t + 1},{tput[i][t]:.0f},{lat[i][t]:.4f}" for t in range(trials)]
        (d / "measurements.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        out.append(d)
    return out
