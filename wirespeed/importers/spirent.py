"""Spirent TestCenter result-view exports: CSV and fixed-width text.

Views, told apart by their header:

- **Basic Counters** (`Tx Port Name, Rx Port Names, Stream Block, Tx Count (Frames), Rx Count
  (Frames), Tx Rate (fps), Rx Rate (fps), Tx Rate (bps), Rx Rate (bps), …, Avg/Min/Max Latency
  (us)`): one measurement row per stream block (keys `port` = the Tx port, `stream`).
- **Advanced Sequencing** (adds `Dropped Count (Frames)`, `Dropped Frame Percent`, `In-order`,
  `Reordered`, `Duplicate`, `Late Count (Frames)`): lost, loss, out_of_sequence, duplicate.
- **RFC 2544 throughput / latency summaries** (Results DB columns `ConfiguredFrameSize`,
  `OfferedLoad(%)`, `Throughput(%)`, `TxFrameCount`, `RxFrameCount`, `PercentLoss`,
  `Min/Average/MaximumLatency(us)`, `Duration(sec)`, `Trial`): one row per frame size × trial;
  a latency summary (no `Throughput(%)`) is keyed by its offered load (`load_pct`).

The text export is a fixed-width table whose header is underlined with dashes (the runs of dashes
give the columns, so port names with spaces and slashes — `//1/1`, `Port 1 (10G)` — survive); lines
above it ("Spirent TestCenter 5.21 - Result View: …", "Exported: …") are read as the preamble.
Cells may hold `N/A`, be empty, carry stray spaces or thousands separators; an Rx cell may list
several ports separated by commas. Totals rows ("Total") are recognised and not imported as data.
Latency units come from the header; a cell with another unit is a mixed-unit error.
"""

from __future__ import annotations

import re

from wirespeed.importers.records import Record, figure, table_end, table_row
from wirespeed.importers.tabular import CellError, csv_rows, fixed_width_rows, is_summary, match_header, number, preamble
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8

RULE = "import.spirent"
# (header base, header unit) -> (metric, unit), or (key column, None)
COLUMNS: dict[tuple[str, str | None], tuple[str, str | None]] = {
    ("tx port name", None): ("port", None), ("rx port names", None): ("rx_ports", None), ("rx port name", None): ("rx_ports", None),
    ("stream block", None): ("stream", None),
    ("tx count", "frames"): ("tx", "frames"), ("rx count", "frames"): ("rx", "frames"),
    ("tx rate", "fps"): ("tx_rate", "fps"), ("rx rate", "fps"): ("rx_rate", "fps"),
    ("tx rate", "bps"): ("tx_l2", "bps"), ("rx rate", "bps"): ("rx_l2", "bps"),
    ("avg latency", "us"): ("latency_avg", "us"), ("min latency", "us"): ("latency_min", "us"), ("max latency", "us"): ("latency_max", "us"),
    ("avg latency", "ns"): ("latency_avg", "ns"), ("min latency", "ns"): ("latency_min", "ns"), ("max latency", "ns"): ("latency_max", "ns"),
    ("dropped count", "frames"): ("lost", "frames"), ("dropped frame percent", None): ("loss", "pct"),
    ("reordered count", "frames"): ("out_of_sequence", "frames"), ("duplicate count", "frames"): ("duplicate", "frames"),
    ("trial", None): ("trial", None), ("configuredframesize", None): ("frame_size", None), ("framesize", None): ("frame_size", None),
    ("offeredload", "pct"): ("load_pct", None), ("throughput", "pct"): ("throughput_line_rate", "pct"),
    ("forwardingrate", "fps"): ("forwarding_rate", "fps"),
    ("txframecount", None): ("tx", "frames"), ("rxframecount", None): ("rx", "frames"), ("percentloss", None): ("loss", "pct"),
    ("minlatency", "us"): ("latency_min", "us"), ("averagelatency", "us"): ("latency_avg", "us"), ("maximumlatency", "us"): ("latency_max", "us"),
    ("duration", "s"): ("duration", "s"),
}
VIEWS = {  # view name -> header names (base) that identify it
    "Advanced Sequencing": {"reordered count", "dropped count"},
    "Basic Counters": {"tx count", "stream block"},
    "RFC 2544 throughput": {"configuredframesize", "throughput"},
    "RFC 2544 latency": {"configuredframesize", "averagelatency"},
}


def view_of(header: list[str]) -> str | None:
    from wirespeed.importers.tabular import header_base

    bases = {header_base(h) for h in header}
    for name, need in VIEWS.items():
        if need <= bases:
            return name
    return None


def _table(data: bytes, file: str) -> tuple[list[tuple[int, list[str]]], dict, list[Problem]]:
    text, problems = decode_utf8(data, file)
    if text is None:
        return [], {}, problems
    text = text.lstrip("\ufeff")
    rows = fixed_width_rows(text)
    if not rows:
        rows = csv_rows(text)
        # a CSV export may start with a few "Key: value" lines before its header
        for n, (line, cells) in enumerate(rows):
            if view_of(cells):
                return rows[n:], preamble(text, line), []
        return [], {}, [Problem(file, None, "", "no Spirent TestCenter view header: expected Basic Counters, Advanced Sequencing "
                                "or an RFC 2544 summary (e.g. Tx Port Name, Stream Block, Tx Count (Frames) …)", RULE)]
    return rows, preamble(text, rows[0][0]), []


def sniff(head: bytes, name: str) -> float:
    text = head.decode("utf-8", "replace")
    first = "\n".join(text.splitlines()[:12])
    if "Spirent" in first:
        return 0.9
    if re.search(r"Tx Port Name.*Stream Block|Stream Block.*Tx Count \(Frames\)", first) or "ConfiguredFrameSize" in first:
        return 0.8
    return 0.0


def parse(data: bytes, file: str) -> tuple[str | None, dict, list[Record], list[Problem]]:
    """(view, preamble, records, problems)."""
    rows, meta, problems = _table(data, file)
    if not rows:
        return None, meta, [], problems
    line, header = rows[0]
    view = view_of(header)
    if view is None:
        return None, meta, [], [Problem(file, line, "", "header of no known Spirent TestCenter view: expected Basic Counters, Advanced Sequencing or an RFC 2544 summary", RULE)]
    cols, problems = match_header(header, COLUMNS, file, line, RULE)
    if problems:
        return view, meta, [], problems
    recs: list[Record] = []
    for ln, cells in rows[1:]:
        if is_summary(cells):
            continue
        if len(cells) != len(header):
            problems.append(Problem(file, ln, "", f"{len(cells)} cells: expected {len(header)} as in the header (a truncated row or a table of another view)", RULE))
            continue
        keys, values, bad = {}, {}, False
        for i, (target, unit) in cols.items():
            cell = cells[i]
            try:
                if target == "port" or target == "stream":
                    if cell:
                        keys[target] = " ".join(cell.split())
                elif target == "rx_ports":
                    ports = [" ".join(p.split()) for p in cell.split(",")] if cell else []
                    if any(not p for p in ports):
                        raise CellError(f"{cell!r}: an empty name in the list of Rx ports")
                elif target in ("trial", "frame_size"):
                    v = number(cell)
                    if v is None or v != int(v) or v < 1:
                        raise CellError(f"{cell!r} is not a whole number from 1")
                    keys[target] = int(v)
                elif target == "load_pct":
                    v = number(cell.rstrip("%"), None)
                    if v is not None:
                        if not 0 < v <= 100:
                            raise CellError(f"{cell!r} is not a load in (0, 100] %")
                        if view == "RFC 2544 latency":
                            keys["load_pct"] = figure(int(v) if v == int(v) else v)
                else:
                    v = number(cell, unit)
                    if v is not None and v < 0:
                        raise CellError(f"{cell!r} is negative")
                    values[target] = (v, unit)
            except CellError as exc:
                problems.append(Problem(file, ln, header[i], f"{exc}: expected a number in {unit or 'the column'}", RULE))
                bad = True
        if bad:
            continue
        table_row(recs, problems, file, ln, keys, values, "counts, rates or latencies", RULE)
    table_end(recs, problems, file, view, RULE)
    return view, meta, recs, problems


def _label_ports(recs: list[Record]) -> None:
    """The port key of a stream row: its Tx port, with the stream block when a port sends several."""
    per_port: dict[str, int] = {}
    for r in recs:
        if "port" in r.keys:
            per_port[r.keys["port"]] = per_port.get(r.keys["port"], 0) + 1
    for r in recs:
        stream = r.keys.pop("stream", None)
        if stream and per_port.get(r.keys.get("port"), 0) > 1:
            r.keys["port"] = f"{r.keys['port']} {stream}"
        elif stream and "port" not in r.keys:
            r.keys["port"] = stream


def _read(data: bytes, file: str, spec: dict):
    _view, _meta, recs, problems = parse(data, file)
    _label_ports(recs)
    return recs, problems


def describe(data: bytes, name: str):
    from wirespeed.importers.contract import ImportPlan, TestPlan
    from wirespeed.importers.records import methodology, unstated

    plan = ImportPlan("spirent")
    view, meta, recs, plan.problems = parse(data, name)
    if view is None or any(p.severity == "error" for p in plan.problems):
        return plan
    head = " ".join(f"{k}: {v}" for k, v in meta.items())
    plan.instrument = {"vendor": "Spirent", "product": "Spirent TestCenter"}
    if m := re.search(r"spirent testcenter\s+v?(\d+(?:\.\d+)+)", head, re.I):
        plan.instrument["software"] = [{"name": "Spirent TestCenter", "version": m.group(1)}]
    else:
        plan.unstated.append("instrument.software")
    if m := re.search(r"(\d{4}-\d{2}-\d{2})", meta.get("exported", "") or meta.get("date", "")):
        plan.campaign = {"start": m.group(1), "end": m.group(1)}
    tid = {"Basic Counters": "basic-counters", "Advanced Sequencing": "sequencing", "RFC 2544 throughput": "rfc2544-throughput", "RFC 2544 latency": "rfc2544-latency"}[view]
    ports = {r.keys["port"] for r in recs if "port" in r.keys}
    fields = {"title": f"Spirent TestCenter {view}", "rfc": ["2544"] if view.startswith("RFC") else ["vendor"], "methodology": methodology(recs)}
    if ports:
        fields["ports"] = len(ports)
    speeds = {m.group(1) for p in ports if (m := re.search(r"\((\d+G)\)", p))}
    if len(speeds) == 1:
        fields["port_speed"] = speeds.pop()
    plan.tests.append(TestPlan(tid, {k: v for k, v in fields.items() if v}))
    plan.unstated += unstated(tid, fields)
    return plan


def _importer():
    from wirespeed.importers.contract import Importer
    from wirespeed.importers.records import converter

    return Importer(summary="Spirent TestCenter result views (Basic Counters, Advanced Sequencing, RFC 2544 summaries) as CSV or fixed-width text exports",
                    sniff=sniff, describe=describe, convert=converter(_read),
                    examples=tuple(f"docs/importers/examples/spirent/{n}" for n in ("basic-counters.csv", "advanced-sequencing.csv", "rfc2544-throughput.csv", "basic-counters.txt")),
                    kinds=("csv", "text"))


IMPORTER = _importer()
