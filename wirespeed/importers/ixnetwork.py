"""Keysight IxNetwork statistics-view CSV exports: Traffic Item, Flow and Port Statistics.

The view is told from the header:

- **Traffic Item Statistics** (`Traffic Item, Tx Frames, Rx Frames, Frames Delta, Loss %, Tx Frame
  Rate, Rx Frame Rate, Tx/Rx L1 Rate (bps), Rx Rate (Mbps), Store-Forward Avg/Min/Max Latency
  (ns), First/Last TimeStamp`): one measurement row per traffic item, keyed by variant (the
  traffic item's name as a slug; `describe` declares the variants).
- **Flow Statistics** (adds `Tx Port`, `Rx Port` and tracking columns such as `Frame Size`): one
  row per flow, keyed by variant (traffic item), port ("TX -> RX") and frame size when tracked.
  IxNetwork interleaves an aggregate row after each group of flows (no Tx/Rx port): these totals
  rows, and "Total" rows, are recognised and not imported as data.
- **Port Statistics** (`Stat Name, Port Name, Line Speed, Frames Tx., Valid Frames Rx., Frames
  Tx. Rate, Valid Frames Rx. Rate, …`): one row per port (key `port`); the line speed ("10GE LAN",
  "100GE") gives the port speed `describe` states.

Latency units are read from each header ("(ns)", "(us)", "(µs)"); a latency column without a unit,
or a cell carrying another unit than its header, is refused. Cells may be quoted with thousands
separators, empty or `N/A`.
"""

from __future__ import annotations

import re

from wirespeed.importers.records import Record, table_end, table_row
from wirespeed.importers.tabular import CellError, csv_rows, header_base, is_summary, match_header, number
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8

RULE = "import.ixnetwork"
_LAT = {f"store-forward {w} latency": m for w, m in (("avg", "latency_avg"), ("min", "latency_min"), ("max", "latency_max"))}
_LAT.update({f"cut-through {w} latency": m for w, m in (("avg", "latency_avg"), ("min", "latency_min"), ("max", "latency_max"))})
COLUMNS: dict[tuple[str, str | None], tuple[str, str | None]] = {
    ("traffic item", None): ("traffic_item", None), ("tx port", None): ("tx_port", None), ("rx port", None): ("rx_port", None),
    ("frame size", None): ("frame_size", None), ("port name", None): ("port", None), ("stat name", None): ("stat_name", None),
    ("line speed", None): ("line_speed", None),
    ("tx frames", None): ("tx", "frames"), ("rx frames", None): ("rx", "frames"), ("frames delta", None): ("lost", "frames"),
    ("loss %", None): ("loss", "pct"), ("tx frame rate", None): ("tx_rate", "fps"), ("rx frame rate", None): ("rx_rate", "fps"),
    ("tx l1 rate", "bps"): ("tx_l1", "bps"), ("rx l1 rate", "bps"): ("rx_l1", "bps"),
    ("frames tx.", None): ("tx", "frames"), ("valid frames rx.", None): ("rx", "frames"),
    ("frames tx. rate", None): ("tx_rate", "fps"), ("valid frames rx. rate", None): ("rx_rate", "fps"),
}
for _u in ("bps", "kbps", "mbps", "gbps"):
    COLUMNS[("rx rate", _u)] = ("rx_l2", _u)
    COLUMNS[("tx rate", _u)] = ("tx_l2", _u)
for _base, _metric in _LAT.items():
    for _u in ("ns", "us"):
        COLUMNS[(_base, _u)] = (_metric, _u)
VIEWS = {
    "Flow Statistics": {"tx port", "rx port", "tx frames"},
    "Traffic Item Statistics": {"traffic item", "tx frames", "rx frames"},
    "Port Statistics": {"port name", "frames tx."},
}
SPEEDS = {"10ge": "10G", "25ge": "25G", "40ge": "40G", "50ge": "50G", "100ge": "100G", "200ge": "200G", "400ge": "400G", "800ge": "800G", "1000": "1G", "1ge": "1G"}


def view_of(header: list[str]) -> str | None:
    bases = {header_base(h) for h in header}
    return next((name for name, need in VIEWS.items() if need <= bases), None)


def sniff(head: bytes, name: str) -> float:
    first = head.decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0]
    if re.search(r"Store-Forward|Cut-Through|Frames Delta|Valid Frames Rx\.", first) or ("Traffic Item" in first and "Tx Frames" in first):
        return 0.85
    return 0.0


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "item"


def line_speed(text: str) -> str | None:
    """'10GE LAN' -> '10G', '100GE' -> '100G'; None when not recognised."""
    m = re.match(r"\s*(\d+)\s*GE", text, re.I)
    return f"{m.group(1)}G" if m else None


def parse(data: bytes, file: str) -> tuple[str | None, dict, list[Record], list[Problem]]:
    """(view, facts {items, speeds}, records, problems)."""
    text, problems = decode_utf8(data, file)
    if text is None:
        return None, {}, [], problems
    rows = csv_rows(text.lstrip("\ufeff"))
    if not rows:
        return None, {}, [], [Problem(file, None, "", "empty: expected an IxNetwork statistics CSV", RULE)]
    line, header = rows[0]
    view = view_of(header)
    if view is None:
        return None, {}, [], [Problem(file, line, "", "header of no known IxNetwork view: expected Traffic Item Statistics (Traffic Item, Tx Frames, Rx Frames …), "
                                      "Flow Statistics (Tx Port, Rx Port …) or Port Statistics (Port Name, Frames Tx. …)", RULE)]
    cols, more = match_header(header, COLUMNS, file, line, RULE)
    problems += more
    if problems:
        return view, {}, [], problems
    facts: dict = {"items": {}, "speeds": set(), "frame_sizes": set()}
    recs: list[Record] = []
    for ln, cells in rows[1:]:
        if is_summary(cells):
            continue
        if len(cells) != len(header):
            problems.append(Problem(file, ln, "", f"{len(cells)} cells: expected {len(header)} as in the header (a truncated row or a table of another view)", RULE))
            continue
        got = {t: cells[i] for i, (t, u) in cols.items() if u is None}
        if view == "Flow Statistics" and not got.get("tx_port") and not got.get("rx_port"):
            continue  # the aggregate row IxNetwork interleaves after a group of flows
        keys: dict = {}
        values: dict = {}
        bad = False
        item = " ".join(got.get("traffic_item", "").split())
        if item:
            keys["variant"] = slug(item)
            facts["items"][slug(item)] = item
        if view == "Flow Statistics":
            keys["port"] = f"{' '.join(got['tx_port'].split())} -> {' '.join(got['rx_port'].split())}"
        if view == "Port Statistics":
            keys["port"] = " ".join((got.get("port") or got.get("stat_name", "")).split())
            sp = line_speed(got.get("line_speed", ""))
            if sp:
                facts["speeds"].add(sp)
        if got.get("frame_size"):
            try:
                fs = number(got["frame_size"])
                if fs is None or fs != int(fs) or fs < 1:
                    raise CellError("not a whole number of bytes")
                keys["frame_size"] = int(fs)
                facts["frame_sizes"].add(int(fs))
            except CellError as exc:
                problems.append(Problem(file, ln, "Frame Size", f"{got['frame_size']!r}: {exc}", RULE))
                continue
        for i, (target, unit) in cols.items():
            if unit is None:
                continue
            try:
                v = number(cells[i], unit)
                if v is not None and v < 0 and target != "lost":
                    raise CellError(f"{cells[i]!r} is negative")
                values[target] = (v, unit)
            except CellError as exc:
                problems.append(Problem(file, ln, header[i], f"{exc}: expected a number in {unit}", RULE))
                bad = True
        if bad:
            continue
        table_row(recs, problems, file, ln, keys, values, "frame counts, rates or latencies", RULE)
    table_end(recs, problems, file, view, RULE)
    return view, facts, recs, problems


def _read(data: bytes, file: str, spec: dict):
    _view, _facts, recs, problems = parse(data, file)
    return recs, problems


def describe(data: bytes, name: str):
    from wirespeed.importers.contract import ImportPlan, TestPlan
    from wirespeed.importers.records import methodology, unstated

    plan = ImportPlan("ixnetwork")
    view, facts, recs, plan.problems = parse(data, name)
    if view is None or any(p.severity == "error" for p in plan.problems):
        return plan
    tid = {"Traffic Item Statistics": "traffic-items", "Flow Statistics": "flows", "Port Statistics": "ports"}[view]
    fields: dict = {"title": f"IxNetwork {view}", "rfc": ["vendor"], "methodology": methodology(recs)}
    if facts["items"]:
        fields["variants"] = dict(facts["items"])
    if len(facts["speeds"]) == 1:
        fields["port_speed"] = next(iter(facts["speeds"]))
    ports = {p for r in recs for p in r.keys.get("port", "").split(" -> ") if p}
    if ports:
        fields["ports"] = len(ports)
    plan.tests.append(TestPlan(tid, {k: v for k, v in fields.items() if v}))
    plan.instrument = {"vendor": "Keysight", "product": "IxNetwork"}
    plan.unstated = unstated(tid, fields, "instrument.software")
    return plan


def _importer():
    from wirespeed.importers.contract import Importer
    from wirespeed.importers.records import converter

    return Importer(summary="Keysight IxNetwork statistics CSV (Traffic Item, Flow and Port Statistics; totals rows skipped, latency unit from the header)",
                    sniff=sniff, describe=describe, convert=converter(_read),
                    examples=tuple(f"docs/importers/examples/ixnetwork/{n}" for n in ("traffic-item-statistics.csv", "flow-statistics.csv", "port-statistics.csv")),
                    kinds=("csv", "text", "json"))


IMPORTER = _importer()
