"""Keysight (Ixia) IxNetwork statistics views: CSV exports and the REST API's statistics page.

Two carriers of the same views:

- **CSV** as IxNetwork's GUI, its Tcl/Python wrappers and scripts write a view: a header line (the
  view's column captions, spaces after the commas allowed) and one line per row. Wrappers interleave
  section rows of one cell: `Total Frame Loss` followed by its value on the next line, the loss of
  the rows above it; it is checked against their Tx − Rx and never read as data.
- **REST** (`GET …/statistics/view/<id>/data`): a JSON object with `columnCaptions` and the rows in
  `pageValues` (a list of row groups) or `rowValues` (`{"arg1": [row], …}`), every value a string
  (`"115052349"`, timestamps `"00:00:08.885"`), with `isReady`, `currentPage` and `totalPages`.

The view is told from the captions: **Traffic Item Statistics** (`Traffic Item, Tx Frames, Rx Frames,
Frames Delta, Loss %, Tx/Rx Frame Rate, Tx/Rx L1 Rate (bps), Store-Forward Avg/Min/Max Latency (ns),
First/Last TimeStamp`), **Flow Statistics** (with `Tx Port`, `Rx Port` and tracking columns such as
`Frame Size`; a Traffic Item view with ports is read the same way) and **Port Statistics** (`Port
Name, Line Speed, Frames Tx., Valid Frames Rx., …`). One row per traffic item (key `variant`), flow
(`port` "TX -> RX", `frame_size` when tracked) or port. Latency units come from each caption ("(ns)",
"(us)", "(µs)"); `(Bps)` is bytes a second and is not read as bits; `Rx Bytes` and the timestamps
are not read. As for Spirent (wirespeed.importers.spirent), what the view shows but did not measure
is left out with one warning line: no latency for a row that received nothing, no rate of 0 beside
a count above 0 (read after traffic stopped), no row that sent and received nothing; a file of such
rows only is refused.
"""

from __future__ import annotations

import re

from wirespeed.importers.common import parse_json
from wirespeed.importers.records import Record, duplicate_problems
from wirespeed.importers.tabular import CellError, csv_rows, header_base, header_unit, is_summary, number
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8

RULE = "import.ixnetwork"
_LAT = {f"{kind} {w} latency": m for kind in ("store-forward", "cut-through", "forwarding delay")
        for w, m in (("avg", "latency_avg"), ("min", "latency_min"), ("max", "latency_max"))}
_LAT.update({f"{w} latency": m for w, m in (("avg", "latency_avg"), ("min", "latency_min"), ("max", "latency_max"))})
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
    for _u in ("ns", "us", "ms"):
        COLUMNS[(_base, _u)] = (_metric, _u)
VIEWS = {
    "Flow Statistics": {"tx port", "rx port", "tx frames"},
    "Traffic Item Statistics": {"traffic item", "tx frames", "rx frames"},
    "Port Statistics": {"port name", "frames tx."},
}
KEYS = ("traffic_item", "tx_port", "rx_port", "frame_size", "port", "stat_name", "line_speed")
RATES = (("tx_rate", "tx"), ("tx_l1", "tx"), ("tx_l2", "tx"), ("rx_rate", "rx"), ("rx_l1", "rx"), ("rx_l2", "rx"))
SECTION = re.compile(r"total frame loss", re.I)


def view_of(header: list[str]) -> str | None:
    bases = {header_base(h) for h in header}
    return next((name for name, need in VIEWS.items() if need <= bases), None)


def _rest(head: bytes) -> bool:
    return b'"columnCaptions"' in head and (b'"pageValues"' in head or b'"rowValues"' in head)


def sniff(head: bytes, name: str) -> float:
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        return 0.85 if _rest(head) and re.search(rb'"(Tx Frames|Frames Tx\.)"', head) else 0.0
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


def _columns(header: list[str], file: str, where) -> tuple[dict[int, tuple[str, str | None]], list[Problem]]:
    out, problems = {}, []
    known = {b for b, _u in COLUMNS}
    for i, name in enumerate(header):
        m = re.search(r"\(\s*([^()]*?)\s*\)\s*$", name)
        if m and m.group(1) == "Bps":  # bytes a second (IxNetwork writes both): no column of ours
            continue
        base, unit = header_base(name), header_unit(name)
        spec = COLUMNS.get((base, unit)) or (COLUMNS.get((base, None)) if unit is None else None)
        if spec is None and base in known:
            units = sorted({u or "none" for b, u in COLUMNS if b == base})
            said = m.group(1) if m else "none"
            problems.append(Problem(file, where(None), name, f"unit {said!r} in the caption: expected one of {', '.join(units)}", RULE))
        elif spec is not None:
            out[i] = spec
    return out, problems


class _Rows:
    """The rows of one view read from CSV lines or REST values, into records, with what was left out."""

    def __init__(self, header: list[str], file: str):
        self.header, self.file = header, file
        self.view = view_of(header)
        self.recs: list[Record] = []
        self.problems: list[Problem] = []
        self.notes: dict[str, list[str]] = {}
        self.idle: list[str] = []
        self.facts: dict = {"items": {}, "speeds": set(), "frame_sizes": set()}

    def note(self, what: str, place: str) -> None:
        places = self.notes.setdefault(what, [])
        if place not in places:
            places.append(place)

    def add(self, cells: list[str], cols: dict, place: str, line: int) -> Record | None:
        got = {t: " ".join(cells[i].split()) for i, (t, u) in cols.items() if u is None}
        if self.view == "Flow Statistics" and not got.get("tx_port") and not got.get("rx_port"):
            return None  # the aggregate row IxNetwork interleaves after a group of flows
        keys: dict = {}
        if got.get("traffic_item"):
            keys["variant"] = slug(got["traffic_item"])
            self.facts["items"][keys["variant"]] = got["traffic_item"]
        if self.view == "Flow Statistics":
            keys["port"] = f"{got['tx_port']} -> {got['rx_port']}"
        if self.view == "Port Statistics":
            keys["port"] = got.get("port") or got.get("stat_name", "")
            if sp := line_speed(got.get("line_speed", "")):
                self.facts["speeds"].add(sp)
        at = (lambda f: line or None), (lambda f: "" if line else place)
        if got.get("frame_size"):
            try:
                fs = number(got["frame_size"]) if re.fullmatch(r"\d+", got["frame_size"]) else None
            except CellError:  # beyond the cell or digit limits: no frame size
                fs = None
            if fs is None or fs < 1:
                self.problems.append(Problem(self.file, at[0](0), at[1](0) or "Frame Size", f"{got['frame_size']!r}: expected a whole number of bytes", RULE))
                return None
            keys["frame_size"] = int(fs)
            self.facts["frame_sizes"].add(int(fs))
        values: dict = {}
        for i, (target, unit) in cols.items():
            if unit is None:
                continue
            try:
                v = number(cells[i], unit)
            except CellError as exc:
                path = at[1](0)  # a JSON path names the cell, not its column: the message does
                named = f"{self.header[i]}: " if path else ""
                self.problems.append(Problem(self.file, at[0](0), path or self.header[i], f"{named}{exc}: expected a number in {unit}", RULE))
                return None
            if v is not None and v < 0 and target != "lost":
                self.problems.append(Problem(self.file, at[0](0), at[1](0) or self.header[i], f"{self.header[i]}: {cells[i]!r} is negative", RULE))
                return None
            if v is not None:
                values[target] = (v, unit)
        if not values:
            self.problems.append(Problem(self.file, at[0](0), at[1](0), "no value in this row: expected frame counts, rates or latencies", RULE))
            return None
        counts = [values[k][0] for k in ("tx", "rx") if k in values]
        if counts and not any(counts):
            self.idle.append(place)
            return None
        get = lambda k: values[k][0] if k in values else None  # noqa: E731
        if get("rx") == 0 and any(k.startswith("latency") for k in values):
            self.note("no latency for a row that received no frame: left out, never 0", place)
            values = {k: x for k, x in values.items() if not k.startswith("latency")}
        if any(get(r) == 0 and (get(c) or 0) > 0 for r, c in RATES):
            values = {k: x for k, x in values.items() if not (k in dict(RATES) and x[0] == 0)}
            self.note("rates of 0 beside frame counts above 0: read after traffic stopped, left out", place)
        lo, avg, hi = get("latency_min"), get("latency_avg"), get("latency_max")
        if lo is not None and hi is not None and (lo > hi or (avg is not None and not lo <= avg <= hi)):
            self.problems.append(Problem(self.file, at[0](0), at[1](0), f"latency min {lo}, avg {avg}, max {hi}: expected min ≤ avg ≤ max", RULE))
            return None
        rec = Record("measurements", place, line, keys, values)
        self.recs.append(rec)
        return rec

    def finish(self) -> None:
        if self.idle and not self.recs and not any(p.severity == "error" for p in self.problems):
            self.problems.append(Problem(self.file, None, "", f"every row sent and received 0 frames ({len(self.idle)} row{'s' if len(self.idle) > 1 else ''}): "
                                         "the view was read before traffic ran, and holds no result", RULE))
            return
        if self.idle:
            self.notes["rows that sent and received no frame: no measurement, left out"] = self.idle
        for what, places in self.notes.items():
            shown = ", ".join(places[:6]) + (", …" if len(places) > 6 else "")
            self.problems.append(Problem(self.file, None, "", f"{what} ({shown})", RULE, "warning"))
        self.problems += duplicate_problems(self.recs, self.file, RULE, "row")
        if not self.recs and not any(p.severity == "error" for p in self.problems):
            self.problems.append(Problem(self.file, None, "", f"no data rows under the {self.view} header", RULE))


EXPECTED = ("an IxNetwork view: Traffic Item Statistics (Traffic Item, Tx Frames, Rx Frames …), "
            "Flow Statistics (Tx Port, Rx Port, Tx Frames …) or Port Statistics (Port Name, Frames Tx. …)")


def _csv(text: str, file: str) -> _Rows | list[Problem]:
    rows = csv_rows(text)
    if not rows:
        return [Problem(file, None, "", f"empty: expected {EXPECTED}", RULE)]
    line, header = rows[0]
    reader = _Rows(header, file)
    if reader.view is None:
        return [Problem(file, line, "", f"header {', '.join(header[:4])!r}…: expected {EXPECTED}", RULE)]
    cols, reader.problems = _columns(header, file, lambda _x: line)
    if reader.problems:
        return reader
    group: list[Record] = []
    i = 1
    while i < len(rows):
        ln, cells = rows[i]
        i += 1
        if len(cells) == 1 and SECTION.fullmatch(cells[0]):  # "Total Frame Loss", then its value on the next line
            if i >= len(rows) or len(rows[i][1]) != 1:
                reader.problems.append(Problem(file, ln, "", "'Total Frame Loss' without its value on the next line", RULE))
                continue
            vln, (value,) = rows[i]
            i += 1
            _check_total(reader, group, value, vln)
            group = []
            continue
        if is_summary(cells):
            continue
        if len(cells) != len(header):
            reader.problems.append(Problem(file, ln, "", f"{len(cells)} cells: expected {len(header)} as in the header (a truncated row or a table of another view)", RULE))
            continue
        rec = reader.add(cells, cols, f"line {ln}", ln)
        if rec is not None:
            group.append(rec)
    return reader


def _check_total(reader: _Rows, group: list[Record], value: str, line: int) -> None:
    """A stated Total Frame Loss against the Tx − Rx of the rows it closes."""
    try:
        total = number(value)
    except CellError:
        total = None
    if total is None:
        reader.problems.append(Problem(reader.file, line, "", f"Total Frame Loss {value!r}: expected a number of frames", RULE))
        return
    counted = [r for r in group if "tx" in r.values and "rx" in r.values]
    if len(counted) == len(group) and group:
        loss = sum(r.values["tx"][0] - r.values["rx"][0] for r in group)
        if loss != total:
            lines = f"lines {group[0].line}–{group[-1].line}" if len(group) > 1 else f"line {group[0].line}"
            reader.problems.append(Problem(reader.file, line, "", f"Total Frame Loss {total:g}, but Tx − Rx of {lines} add up to {loss:g}: "
                                           "expected the same number", RULE))


def _json(data: bytes, file: str) -> _Rows | list[Problem]:
    doc, problems = parse_json(data, file)
    if doc is None:
        return problems
    captions = doc.get("columnCaptions") if isinstance(doc, dict) else None
    if not isinstance(captions, list) or not all(isinstance(c, str) for c in captions):
        return [Problem(file, None, "columnCaptions", "expected an IxNetwork statistics page: an object with columnCaptions (a list of strings) "
                        "and pageValues or rowValues", RULE)]
    reader = _Rows(captions, file)
    if reader.view is None:
        return [Problem(file, None, "columnCaptions", f"captions {', '.join(captions[:4])!r}…: expected {EXPECTED}", RULE)]
    if doc.get("isReady") is False:
        return [Problem(file, None, "isReady", "false: the view was not ready when it was read, its values may be incomplete", RULE)]
    cols, reader.problems = _columns(captions, file, lambda _x: None)
    if reader.problems:
        return reader
    groups, path = doc.get("pageValues"), "pageValues"
    if groups is None and isinstance(doc.get("rowValues"), dict):
        groups, path = list(doc["rowValues"].values()), "rowValues"
        keys = list(doc["rowValues"])
    else:
        keys = None
    if not isinstance(groups, list):
        return [Problem(file, None, path, "expected the rows: a list of row groups, each a list of rows", RULE)]
    pages, page = doc.get("totalPages"), doc.get("currentPage")
    if isinstance(pages, int) and pages > 1:
        reader.problems.append(Problem(file, None, "totalPages", f"page {page} of {pages}: only this page's rows are in the file", RULE, "warning"))
    for g, group in enumerate(groups):
        for r, row in enumerate(group if isinstance(group, list) else [None]):
            where = f"{path}.{keys[g]}[{r}]" if keys else f"{path}[{g}][{r}]"
            if not isinstance(row, list) or not all(isinstance(c, (str, int, float)) and not isinstance(c, bool) for c in row):
                reader.problems.append(Problem(file, None, where, "expected a row: a list of values", RULE))
                continue
            if len(row) != len(captions):
                reader.problems.append(Problem(file, None, where, f"{len(row)} values: expected {len(captions)}, one per caption", RULE))
                continue
            reader.add([str(c) for c in row], cols, where, 0)
    rows = doc.get("totalRows", doc.get("rowCount"))
    if isinstance(rows, int) and rows != sum(len(g) for g in groups if isinstance(g, list)) and not (isinstance(pages, int) and pages > 1):
        reader.problems.append(Problem(file, None, "totalRows", f"{rows} rows stated, {sum(len(g) for g in groups if isinstance(g, list))} in {path}: expected the same", RULE))
    return reader


def parse(data: bytes, file: str) -> tuple[str | None, dict, list[Record], list[Problem]]:
    """(view, facts {items, speeds, frame_sizes}, records, problems)."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        reader = _json(data, file)
    else:
        text, problems = decode_utf8(data, file)
        if text is None:
            return None, {}, [], problems
        reader = _csv(text.lstrip("\ufeff"), file)
    if isinstance(reader, list):
        return None, {}, [], reader
    if not any(p.severity == "error" for p in reader.problems):
        reader.finish()
    return reader.view, reader.facts, reader.recs, reader.problems


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
    plan.tests.append(TestPlan(tid, {k: v for k, v in fields.items() if v}))
    plan.instrument = {"vendor": "Keysight", "product": "IxNetwork"}
    plan.unstated = unstated(tid, fields, "instrument.software")
    return plan


def _importer():
    from wirespeed.importers.contract import Importer
    from wirespeed.importers.records import converter

    return Importer(summary="Keysight IxNetwork statistics views (Traffic Item, Flow, Port Statistics) as CSV or the REST API's "
                            "statistics page JSON; totals rows checked and skipped, latency unit from the caption",
                    sniff=sniff, describe=describe, convert=converter(_read),
                    examples=tuple(f"docs/importers/examples/ixnetwork/{n}" for n in ("traffic-item-statistics.csv", "rest-statistics-page.json")),
                    kinds=("csv", "text", "json"))


IMPORTER = _importer()
