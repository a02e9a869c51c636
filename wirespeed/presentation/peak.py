"""The highest forwarding rate a set measured: the largest L1 bit rate of its aggregate rows (a repeated search's
summary row, not each search), printed in one unit with no more digits than its inputs carry. The home page ranks
the largest devices by it. `at_scale` says whether the device came within reach of its ports at all: a set whose
every throughput stays under 1 % of its line rate tested a software path behind nominal ports (veth), and its
port speed says nothing about its size (the same rule draws its throughput chart in frames/s)."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import qualified
from wirespeed.engine.units import UNITS
from wirespeed.engine import number_style

AT_SCALE_PCT = 1.0  # under this share of the line rate everywhere, a device is far below its nominal ports


def peak(summary: dict[str, Any]) -> dict[str, Any] | None:
    """{"bps", "text" ("12.76 Tbit/s"), "test", "at_scale"} of a set's highest L1 throughput; None when it has none."""
    rows = [r for r in summary["rows"] if not r.get("component") and not r.get("port") and r.get("throughput_l1_bps")]
    if any(r.get("trial") is None for r in rows):
        rows = [r for r in rows if r.get("trial") is None]
    if not rows:
        return None
    top = max(rows, key=lambda r: r["throughput_l1_bps"])
    unit = UNITS[number_style.pick_unit("bit_rate", [top["throughput_l1_bps"]])]
    shares = [r["throughput_pct_line_rate"] for r in rows if r.get("throughput_pct_line_rate") is not None]
    return {"bps": top["throughput_l1_bps"], "test": top["test_id"],
            "text": f"{qualified.text(top['throughput_l1_bps'] / float(unit.factor), qualified.of_derived(top, 'throughput_l1'))} {unit.symbol}",
            "at_scale": bool(shares) and max(shares) >= AT_SCALE_PCT}
