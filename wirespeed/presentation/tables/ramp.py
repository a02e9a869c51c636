"""Table kind: ramp loadtests, per ramp its loss onset and highest lossless rate (the catalog's ramps)."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import number_style
from wirespeed.presentation.tables.model import Cell, Column, ResultTable
from wirespeed.catalog.view import ramp_tests, ramps


def ramp_table(samples: list[dict[str, Any]], summary: dict[str, Any], threshold_pct: float = 0.1) -> ResultTable | None:
    """Per ramp (test, frame size): samples, peak rates, loss onset and the highest rate received without loss."""
    found = ramps(samples, threshold_pct, ramp_tests(summary["meta"]))
    if not found:
        return None
    columns = [Column("test", "Test"), Column("frame_size", "Frame size", "bytes"), Column("samples", "Samples", "s"),
               Column("max_tx", "Peak sent", "frames/s"), Column("max_rx", "Peak received", "frames/s"),
               Column("lossless", "Highest rate without loss", "frames/s", derived=True), Column("onset_t", "Loss onset", "s", derived=True),
               Column("onset_offered", "Sent at onset", "frames/s", derived=True), Column("line_rate", "Line rate", "frames/s", derived=True)]
    rows = []
    for ramp in found:
        rs, line, test_id, fs = ramp.summary, ramp.line_rate_fps, ramp.test_id, ramp.frame
        rows.append([Cell(test_id, test_id), Cell(fs, fs), Cell(str(rs.samples), rs.samples),
                     Cell(number_style.derived(rs.max_tx_fps, 0), rs.max_tx_fps), Cell(number_style.derived(rs.max_rx_fps, 0), rs.max_rx_fps),
                     Cell(number_style.derived(rs.max_lossless_rx_fps, 0), rs.max_lossless_rx_fps),
                     Cell(number_style.derived(rs.onset_t_s, 0) if rs.onset_t_s is not None else "none", rs.onset_t_s),
                     Cell(number_style.derived(rs.onset_tx_fps, 0), rs.onset_tx_fps), Cell(number_style.derived(line, 0), line)])
    if all(r.summary.onset_tx_fps is None for r in found):  # no ramp lost frames: no "sent at onset" column empty in every row
        at = [c.key for c in columns].index("onset_offered")
        columns.pop(at)
        rows = [row[:at] + row[at + 1:] for row in rows]
    return ResultTable("ramp-summary", "Ramp loadtests: loss onset and highest lossless rate",
                       f"Per ramp: loss onset is the first one-second sample with more than {number_style.plain(threshold_pct)} % loss from which loss does not recover.",
                       None, columns, rows)
