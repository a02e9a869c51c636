"""Tables for special test kinds: RFC 3918 multicast scale, ramp loadtests, latency distributions."""

from __future__ import annotations

from typing import Any

from wirespeed.presentation import formatting
from wirespeed.catalog.view import ramps
from wirespeed.engine.rfc3918 import group_table_entries
from wirespeed.presentation.tables.results import Cell, Column, ResultTable, _test_meta, _throughput_rows, frame_label


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
        body.append([Cell(frame_label(r), r.get("frame_size")), Cell(formatting.published(r["cells"]["throughput"]["text"]) if "throughput" in r["cells"] else formatting.derived(r["throughput_fps"], 0), r["throughput_fps"]),
                     Cell(formatting.derived(per, 0), per), Cell(str(receivers), receivers), Cell(formatting.derived(port_line, 0), port_line)])
    notes = [f"{test.get('transmitters', 1)} transmitter, {receivers} receivers" + (f", {groups:,} groups joined by every receiver: {entries:,} forwarding entries" if groups else "")
             + (f" ({test['multicast_routing']}, IGMPv{test.get('igmp_version')})" if test.get("multicast_routing") else (f" (IGMPv{test['igmp_version']} snooping)" if test.get("igmp_version") else "")) + "."]
    return ResultTable(f"{test_id}-multicast", f"{test['title']}: multicast scale and replication",
                       f"{test['title']}: every frame sent is replicated to {receivers} receiver ports; the aggregate counts every copy.", test_id, columns, body, notes)


def ramp_table(samples: list[dict[str, Any]], summary: dict[str, Any], threshold_pct: float = 0.1) -> ResultTable | None:
    """Per ramp (test, frame size): samples, peak rates, loss onset and the highest rate received without loss."""
    found = ramps(samples, threshold_pct)
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
                     Cell(formatting.derived(rs.max_tx_fps, 0), rs.max_tx_fps), Cell(formatting.derived(rs.max_rx_fps, 0), rs.max_rx_fps),
                     Cell(formatting.derived(rs.max_lossless_rx_fps, 0), rs.max_lossless_rx_fps),
                     Cell(formatting.derived(rs.onset_t_s, 0) if rs.onset_t_s is not None else "none", rs.onset_t_s),
                     Cell(formatting.derived(rs.onset_tx_fps, 0), rs.onset_tx_fps), Cell(formatting.derived(line, 0), line)])
    return ResultTable("ramp-summary", "Ramp loadtests: loss onset and highest lossless rate",
                       f"Per ramp: loss onset is the first one-second sample with more than {threshold_pct:g} % loss from which loss does not recover.",
                       None, columns, rows)


def histogram_table(buckets: list[dict[str, Any]], test_id: str, frame: str, load: float | None = None) -> ResultTable:
    """Percentiles of a latency histogram (bucket edges bound each percentile)."""
    total = sum(b["count_frames"] for b in buckets)
    columns = [Column("percentile", "Percentile", "%"), Column("low", "Latency at least", "µs", derived=True), Column("high", "Latency below", "µs", derived=True)]
    rows = []
    for p in (50, 90, 99, 99.9, 100):
        target = total * p / 100
        cum = 0
        for b in buckets:
            cum += b["count_frames"]
            if cum >= target:
                rows.append([Cell(f"{p:g}", p), Cell(f"{b['bucket_low_us']:g}", b["bucket_low_us"]), Cell(f"{b['bucket_high_us']:g}", b["bucket_high_us"])])
                break
    at = f" at {formatting.published(format(load, 'g'))} % load" if load is not None else ""
    ident = f"{test_id}-{frame}" + (f"-{format(load, 'g').replace('.', '_')}pct" if load is not None else "")
    return ResultTable(f"{ident}-latency-percentiles", f"Latency percentiles, {frame}-byte frames{at}",
                       f"Latency percentiles of {total:,.0f} frames{at}, bounded by the histogram's bucket edges.", test_id, columns, rows)


def trial_throughput_table(summary: dict[str, Any]) -> ResultTable | None:
    """RFC 2544 throughput the engine finds in trial rows: the highest offered rate without loss."""
    rfc2544 = {t["test_id"] for t in summary["tests"] if "2544" in (t.get("rfc") or [])}
    rows = [r for r in summary.get("trial_throughput") or [] if r["test_id"] in rfc2544 and r["trials"]]  # only for RFC 2544 searches
    if not rows:
        return None
    columns = [Column("test", "Test"), Column("frame_size", "Frame size", "bytes"), Column("direction", "Direction"),
               Column("throughput", "Throughput", "frames/s", derived=True), Column("pct", "Of line rate", "%", derived=True),
               Column("range", "Range over trials", "frames/s", derived=True), Column("trials", "Trials")]
    body = []
    for r in rows:
        fs = str(r["frame_size"] or r["imix"] or "")
        tp = r["throughput_fps"]
        pct = tp / r["line_rate_fps"] * 100 if tp is not None and r["line_rate_fps"] else None
        rng = f"{formatting.derived(r['min_fps'], 0)}–{formatting.derived(r['max_fps'], 0)}" if tp is not None else ""
        body.append([Cell(r["test_id"], r["test_id"]), Cell(fs, fs), Cell(r["direction"] or "", r["direction"]),
                     Cell(formatting.derived(tp, 0) if tp is not None else "none lossless", tp), Cell(formatting.derived(pct, 2), pct),
                     Cell(rng, None), Cell(str(r["trials"]), r["trials"])])
    return ResultTable("trial-throughput", "RFC 2544 throughput from the trials",
                       "Highest offered rate at which no frame was lost, per trial, averaged over the trials (RFC 2544 section 26.1).", None, columns, body)
