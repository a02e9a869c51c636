"""`wirespeed new`: a result set skeleton that validates once its blanks are filled in."""

from __future__ import annotations

import re
from pathlib import Path

RESULT_TOML = '''# wirespeed result set, format 1. Fill in every "" and the measurement table, then run
#   wirespeed validate {path}
# How to fill it in: CONTRIBUTING.md. Fields: wirespeed schema --markdown. Columns: wirespeed columns (docs/columns.md).
format_version = 1
slug = "{slug}"
title = ""
summary = ""
status = "draft"          # draft | embargoed (add embargo_until = "YYYY-MM-DD") | published
licence = "CC-BY-4.0"     # SPDX identifier of the data's licence

[source]
kind = "measured"         # transcribed | measured | imported
publisher = ""
publication_kind = "test-run"
published = ""            # YYYY, YYYY-MM or YYYY-MM-DD

[campaign]
start = ""
end = ""
location = ""
lab = ""

[dut]
vendor = ""
model = ""
kind = "switch"

[[dut.software]]
name = ""
version = ""

[instrument]
vendor = ""
product = ""

[[instrument.software]]
name = ""
version = ""

[methodology]
trial_duration_s = 60
trials = 1
frame_sizes = [64, 128, 256, 512, 1024, 1280, 1518]
frame_size_convention = "ethernet-frame"
latency_method = "FIFO"
loss_tolerance_pct = 0

[[tests]]
id = "ipv4-unicast"
title = ""
rfc = ["2544"]
scenario = "ipv4-unicast"
topology = "port-pairs"   # full-mesh | partial-mesh | port-pairs | multicast | chain
ports = 2
port_speed = "10G"
media = "ethernet"
direction = "bidirectional"

[files]
measurements = ["measurements.csv"]
'''

MEASUREMENTS_CSV = "test,frame_size,load_pct,throughput_fps,latency_min_us,latency_avg_us,latency_max_us\n"

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class ScaffoldError(ValueError):
    """The result set cannot be created."""


def scaffold(root: Path, slug: str) -> Path:
    """Create root/slug with a result.toml and an empty measurement table, atomically (through the
    one result-set writer, wirespeed.resultset.writer)."""
    from wirespeed.resultset.writer import write_set

    if not SLUG.match(slug) or len(slug) > 80:
        raise ScaffoldError(f"{slug!r} is not a valid slug: lower-case letters, digits and single dashes, at most 80 characters")
    target = root / slug
    if target.exists() or target.is_symlink():
        raise ScaffoldError(f"{target} already exists")
    root.mkdir(parents=True, exist_ok=True)
    return write_set(target, RESULT_TOML.format(slug=slug, path=target), {"measurements.csv": MEASUREMENTS_CSV.encode("utf-8")})
