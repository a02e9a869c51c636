"""The loss-onset table of a ramp loadtest: one row per ramp (frame size, direction, variant, port) of a test,
with the declared limit (wirespeed.engine.ramp.LIMIT_DEFINITION) and the other readings beside it."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import number_style
from wirespeed.engine import ramp
from wirespeed.presentation.headlines import group_ramps, ramp_line_rate
from wirespeed.presentation.tables.results import Cell, Column, ResultTable


def _rate(v: float | None) -> Cell:
    return Cell(number_style.derived(v, 0) if v is not None else "none", v, derived=v is not None)


def loss_onset_table(samples: list[dict[str, Any]], summary: dict[str, Any], test_id: str) -> ResultTable | None:
    """Per ramp of a loadtest-ramp test: highest rate without loss, its share of line rate, loss onset, peaks."""
    test = next(t for t in summary["meta"]["tests"] if t["id"] == test_id)
    if "loadtest-ramp" not in (test.get("rfc") or []):
        return None
    series = [s for s in samples if s["test_id"] == test_id and s.get("tx_rate_fps") is not None and s.get("rx_rate_fps") is not None]
    if not series:
        return None
    rows = [r for r in summary["rows"] if r["test_id"] == test_id]
    ramps = group_ramps(series)
    keys = [("direction", "Direction", 1), ("variant", "Variant", 2), ("port", "Port", 3)]
    shown = [(k, label, i) for k, label, i in keys if any(key[i] for key in ramps)]
    columns = [Column("frame_size", "Frame size", "bytes"), *[Column(k, label) for k, label, _ in shown],
               Column("limit", "Highest rate without loss", "frames/s", derived=True), Column("limit_pct", "Of line rate", "%", derived=True),
               Column("onset_t", "Loss onset", "s", derived=True), Column("onset_tx", "Sent at onset", "frames/s", derived=True),
               Column("peak_rx", "Peak received", "frames/s", derived=True), Column("line_rate", "Line rate", "frames/s", derived=True)]
    body = []
    for key, pts in ramps.items():
        pts.sort(key=lambda s: s["t_s"])
        rs = ramp.summarise([(p["t_s"], p["tx_rate_fps"], p["rx_rate_fps"], p.get("loss_pct")) for p in pts])
        line = ramp_line_rate(rows, pts[0])
        pct = rs.max_lossless_rx_fps / line * 100 if line and rs.max_lossless_rx_fps is not None else None
        body.append([Cell(key[0], int(key[0]) if key[0].isdigit() else key[0]), *[Cell(key[i], key[i]) for _, _, i in shown],
                     _rate(rs.max_lossless_rx_fps), Cell(number_style.derived(pct, 1) if pct is not None else "", pct, derived=pct is not None),
                     Cell(number_style.derived(rs.onset_t_s, 0) if rs.onset_t_s is not None else "none", rs.onset_t_s, derived=rs.onset_t_s is not None),
                     _rate(rs.onset_tx_fps), _rate(rs.max_rx_fps), Cell(number_style.derived(line, 0) if line else "", line, derived=bool(line))])
    notes = [f"The limit of a ramp is {ramp.LIMIT_DEFINITION}."] + [f"{r.label}: {r.explanation}" for r in ramp.readings(rs)[1:]]
    return ResultTable(f"{test_id}-loss-onset", f"{test['title']}: loss onset per ramp",
                       f"Per ramp: the highest rate received without loss (the declared limit), where loss set in, and the peaks. "
                       f"Loss onset is the first one-second sample with more than {number_style.plain(ramp.DEFAULT_THRESHOLD_PCT)} % loss from which loss does not recover.",
                       test_id, columns, body, notes)
