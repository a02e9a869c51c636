"""Table kind: RFC 3918 multicast scale and replication."""

from __future__ import annotations

from typing import Any

from wirespeed.engine import number_style
from wirespeed.engine.rfc3918 import group_table_entries
from wirespeed.presentation.tables.model import Cell, Column, ResultTable
from wirespeed.presentation.tables.results import _test_meta, _throughput_rows, frame_label


def multicast_table(summary: dict[str, Any], test_id: str) -> ResultTable | None:
    """RFC 3918: groups, receivers, forwarding entries, and per-receiver vs aggregate forwarding per frame size."""
    test, _ = _test_meta(summary, test_id)
    if test["topology"] != "multicast":
        return None
    receivers, groups = test["receivers"], test.get("multicast_groups")
    rows = [r for r in _throughput_rows(summary, test_id) if r.get("throughput_fps") is not None]
    entries = group_table_entries(receivers, groups) if groups else None
    columns = [Column("frame_size", "Frame size", "bytes"), Column("aggregate", "Aggregate forwarded", "frames/s"),
               Column("per_receiver", "Per receiver port", "frames/s", derived=True), Column("replication", "Copies per frame sent", "", derived=True),
               Column("port_line_rate", "Port line rate", "frames/s", derived=True)]
    body = []
    for r in rows:
        per = r["throughput_fps"] / receivers
        port_line = r["line_rate_fps"] / receivers
        body.append([Cell(frame_label(r), r.get("frame_size")), Cell(number_style.published(r["cells"]["throughput"]["text"]) if "throughput" in r["cells"] else number_style.derived(r["throughput_fps"], 0), r["throughput_fps"]),
                     Cell(number_style.derived(per, 0), per), Cell(str(receivers), receivers), Cell(number_style.derived(port_line, 0), port_line)])
    notes = [f"{test.get('transmitters', 1)} transmitter, {receivers} receivers" + (f", {groups:,} groups joined by every receiver: {entries:,} forwarding entries" if groups else "")
             + (f" ({test['multicast_routing']}, IGMPv{test.get('igmp_version')})" if test.get("multicast_routing") else (f" (IGMPv{test['igmp_version']} snooping)" if test.get("igmp_version") else "")) + "."]
    return ResultTable(f"{test_id}-multicast", f"{test['title']}: multicast scale and replication",
                       f"{test['title']}: every frame sent is replicated to {receivers} receiver ports; the aggregate counts every copy.", test_id, columns, body, notes)
