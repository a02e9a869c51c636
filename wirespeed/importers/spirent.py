"""Spirent TestCenter results: its result views' text and CSV exports and its result-object dumps.

What Spirent TestCenter writes, told apart by the header (wirespeed.importers.texttable reads the layouts):

- **Result views** (the GUI's "Basic Counters", "Advanced Sequencing", the detailed stream view, as
  text with the header underlined by one unbroken run of dashes, or as CSV): names with units,
  `Tx Port Name, Rx Port Names, Stream Block, Tx Count (Frames), Rx Count (Frames), Tx Rate (fps),
  Tx Rate (bps), Tx L1 Rate (bps), Avg/Min/Max Latency (us), Dropped Count (Frames), …`; the detailed
  view names its stream `Name/ID`.
- **Result objects** as the automation API prints them (`RxStreamBlockResults`, `TxStreamBlockResults`:
  `StreamBlock, TxPortName, TxFrameCount, RxFrameCount, SigFrameCount, AvgLatency, …`, or `Port,
  StreamBlock, FrameCount, BitRate, L1BitRate, …`) and **dynamic result views** (`StreamBlock.Name
  StreamBlock.Agg.TxFrameCount …`, words separated by spaces). Their latencies and jitters carry no
  unit: they are microseconds, the unit of the views built from them ("Avg Latency (us)"); the real
  dump's 12.16 to 40.94 for router hops could be no other unit (nanoseconds would be faster than any
  router, while its histogram bins are named in ns from 20 ns up).
- **RFC 2544 summaries** of the Results DB (`ConfiguredFrameSize, OfferedLoad(%), Throughput(%),
  TxFrameCount, RxFrameCount, PercentLoss, Min/Average/MaximumLatency(us), Duration(sec), Trial`),
  CSV, one row per frame size × trial (no real export was found to check them against).

One measurement row per stream (key `port`: the Tx port, with the stream block when the port sends
several). What a view shows but did not measure is left out, never published as 0, each with one
warning line per file:

- a stream with no frame sent nor received is no measurement (the view was read before traffic
  ran); a file whose every stream is such holds no run and is refused;
- a stream that received no frame (or no signature frame) has no latency nor jitter, whatever the
  cell says (`N/A`, or 0 in the min and max columns);
- an instantaneous rate of 0 beside a count above 0 was read after the generator stopped;
- a bit rate that gives less than a minimal frame (or more than a jumbo one) per frame at the
  stated frame rate is not that bit rate (the detailed view's `Tx Rate (bps)` holds bytes/s);
- a jitter of 0 beside latencies that vary was not measured (Spirent counts jitter only in its
  jitter result mode).

The AnalyzerPortResults dump and the Stream Threshold Results view hold no stream's figures: they
are recognised and refused in one line. Totals rows ("Total") are skipped; `N/A`, empty cells, comma lists of Rx ports, port names with `/`
and spaces are read as written. A latency whose minimum is above its average or maximum is refused.
"""

from __future__ import annotations

import re

from wirespeed.importers.records import Record, figure, table_end
from wirespeed.importers.tabular import CellError, csv_rows, header_base, header_unit, is_summary, number, preamble
from wirespeed.importers.texttable import TextTable, spaced, underlined
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8

RULE = "import.spirent"
_LAT = ("latency_avg", "latency_min", "latency_max", "jitter_avg", "jitter_max")
# result views: (header base, header unit) -> (target, unit); a key column has unit None
VIEW_COLUMNS: dict[tuple[str, str | None], tuple[str, str | None]] = {
    ("tx port name", None): ("port", None), ("rx port names", None): ("rx_ports", None), ("rx port name", None): ("rx_ports", None),
    ("stream block", None): ("stream", None), ("name/id", None): ("stream", None),
    ("tx count", "frames"): ("tx", "frames"), ("rx count", "frames"): ("rx", "frames"), ("rx sig count", "frames"): ("sig", "frames"),
    ("tx rate", "fps"): ("tx_rate", "fps"), ("rx rate", "fps"): ("rx_rate", "fps"),
    ("tx rate", "bps"): ("tx_l2", "bps"), ("rx rate", "bps"): ("rx_l2", "bps"),
    ("tx l1 rate", "bps"): ("tx_l1", "bps"), ("rx l1 rate", "bps"): ("rx_l1", "bps"),
    ("dropped count", "frames"): ("lost", "frames"), ("dropped frame percent", None): ("loss", "pct"),
    ("reordered count", "frames"): ("out_of_sequence", "frames"), ("duplicate count", "frames"): ("duplicate", "frames"),
    ("trial", None): ("trial", None), ("configuredframesize", None): ("frame_size", None), ("framesize", None): ("frame_size", None),
    ("offeredload", "pct"): ("load_pct", None), ("throughput", "pct"): ("throughput_line_rate", "pct"),
    ("forwardingrate", "fps"): ("forwarding_rate", "fps"),
    ("txframecount", None): ("tx", "frames"), ("rxframecount", None): ("rx", "frames"), ("percentloss", None): ("loss", "pct"),
    ("minlatency", "us"): ("latency_min", "us"), ("averagelatency", "us"): ("latency_avg", "us"), ("maximumlatency", "us"): ("latency_max", "us"),
    ("duration", "s"): ("duration", "s"),
}
for _w in ("avg", "min", "max"):
    for _u in ("us", "ns", "ms"):
        VIEW_COLUMNS[(f"{_w} latency", _u)] = (f"latency_{_w}", _u)
    for _u in ("us", "ns"):
        if _w != "min":
            VIEW_COLUMNS[(f"{_w} jitter", _u)] = (f"jitter_{_w}", _u)
NOT_READ = {("tx count", "bits"), ("rx count", "bits"), ("tx count", "bytes"), ("rx count", "bytes")}  # counts of bits: no column of ours
# result objects and dynamic result views: attribute (lower case, without StreamBlock./Agg./Port.) -> (target, unit)
ATTRIBUTES: dict[str, tuple[str, str | None]] = {
    "name": ("stream", None), "streamblock": ("stream", None), "txportname": ("port", None), "port": ("port", None),
    "rxportnames": ("rx_ports", None),
    "txframecount": ("tx", "frames"), "framecount": ("tx", "frames"), "rxframecount": ("rx", "frames"), "sigframecount": ("sig", "frames"),
    "txframerate": ("tx_rate", "fps"), "framerate": ("tx_rate", "fps"), "rxframerate": ("rx_rate", "fps"),
    "bitrate": ("tx_l2", "bps"), "txbitrate": ("tx_l2", "bps"), "rxbitrate": ("rx_l2", "bps"),
    "l1bitrate": ("tx_l1", "bps"), "txl1bitrate": ("tx_l1", "bps"), "rxl1bitrate": ("rx_l1", "bps"),
    "avglatency": ("latency_avg", "us"), "minlatency": ("latency_min", "us"), "maxlatency": ("latency_max", "us"),
    "avgjitter": ("jitter_avg", "us"), "maxjitter": ("jitter_max", "us"),
    "droppedframecount": ("lost", "frames"), "droppedframepercent": ("loss", "pct"),
    "duplicateframecount": ("duplicate", "frames"), "reorderedframecount": ("out_of_sequence", "frames"),
}
_SEQUENCE = ("lost", "loss", "duplicate", "out_of_sequence")
_RAW_RX = {"avglatency", "rxframecount", "sigframecount"}
_RAW_TX = {"framecount", "octetcount", "l1bitcount"}
_L2_BYTES, _L1_BYTES = (60, 16384), (80, 16404)  # bytes a frame, without and with preamble and gap, that a bit rate may give


def _attribute(name: str) -> str:
    n = name.lower()
    for prefix in ("streamblock.", "agg."):
        if n.startswith(prefix) and n != prefix:
            n = n[len(prefix):]
    return n


def _drv_header(header: list[str]) -> bool:
    return any(h.lower().startswith("streamblock.") for h in header) and all(" " not in h for h in header)


def view_of(header: list[str]) -> str | None:
    """The view a header belongs to, from its column names."""
    bases = {header_base(h) for h in header}
    attrs = {_attribute(h) for h in header}
    if any(h.lower().startswith("streamblock.") for h in header):
        return "Dynamic result view" if {"name", "txframecount"} <= attrs or {"name", "rxframecount"} <= attrs else None
    if _RAW_RX <= attrs and "streamblock" in attrs:
        return "RxStreamBlockResults"
    if _RAW_TX <= attrs and {"port", "streamblock"} <= attrs:
        return "TxStreamBlockResults"
    for name, need in (("Advanced Sequencing", {"reordered count", "dropped count"}), ("RFC 2544 throughput", {"configuredframesize", "throughput"}),
                       ("RFC 2544 latency", {"configuredframesize", "averagelatency"})):
        if need <= bases:
            return name
    if {"tx count", "rx count"} <= bases and bases & {"stream block", "name/id"}:
        return "Detailed Stream Results" if "name/id" in bases else "Basic Counters"
    if {"port", "totalframecount", "sigframecount"} <= attrs and "streamblock" not in attrs:
        return "AnalyzerPortResults"
    if header and header[0].strip().lower() == "port" and sum(" > " in h for h in header) >= 2:
        return "Stream Threshold Results"
    return None


# views Spirent writes that hold no stream's measurement: recognised, and refused with the reason
NOT_IMPORTED = {"AnalyzerPortResults": "what each analyzer port received, all streams together and no frame sent, so neither a stream's "
                                       "loss nor its rate can be read",
                "Stream Threshold Results": "per port, how many streams passed each threshold (latency, jitter, drops), not the streams' figures"}


EXPECTED = ("a Spirent TestCenter result view (Tx Port Name, Stream Block, Tx Count (Frames), Rx Count (Frames) …), "
            "RxStreamBlockResults or TxStreamBlockResults attributes, a dynamic result view (StreamBlock.Name, "
            "StreamBlock.Agg.TxFrameCount …) or an RFC 2544 summary (ConfiguredFrameSize, Throughput(%) …)")


def _table(data: bytes, file: str) -> tuple[TextTable | None, dict, list[Problem]]:
    text, problems = decode_utf8(data, file)
    if text is None:
        return None, {}, problems
    text = text.lstrip("\ufeff")
    table = underlined(text) or spaced(text, _drv_header)
    if table is not None and view_of(table.header):
        return table, {"title": " ".join(table.title)}, []
    rows = csv_rows(text)
    for n, (line, cells) in enumerate(rows):  # a CSV export may start with "Key: value" lines
        if len(cells) > 2 and view_of(cells):
            table = TextTable([], line, cells, rows[n + 1:])
            return table, preamble(text, line), []
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return None, {}, [Problem(file, None, "", f"no Spirent TestCenter header: found {first[:60]!r}; expected {EXPECTED}", RULE)]


def sniff(head: bytes, name: str) -> float:
    text = head.decode("utf-8", "replace")
    lines = text.splitlines()[:12]
    first = "\n".join(lines)
    if "Spirent TestCenter" in first:
        return 0.9
    for ln in lines:
        cells = ln.split(",") if ln.count(",") > 2 else re.split(r"\s{2,}", ln.strip()) if "  " in ln.strip() else ln.split()
        if len(cells) > 2 and view_of([c.strip() for c in cells]):
            return 0.8
    return 0.0


def _columns(header: list[str], view: str, file: str, line: int) -> tuple[dict[int, tuple[str, str | None]], list[Problem]]:
    out: dict[int, tuple[str, str | None]] = {}
    problems: list[Problem] = []
    raw = view in ("RxStreamBlockResults", "TxStreamBlockResults", "Dynamic result view")
    bases = {b for b, _u in VIEW_COLUMNS}
    for i, name in enumerate(header):
        if raw:
            spec = ATTRIBUTES.get(_attribute(name))
        else:
            base, unit = header_base(name), header_unit(name)
            spec = VIEW_COLUMNS.get((base, unit)) or (VIEW_COLUMNS.get((base, None)) if unit is None else None)
            said = m.group(1) if (m := re.search(r"\(\s*([^()]*?)\s*\)\s*$", name)) else "none"
            if spec is None and base in bases and (base, said.lower()) not in NOT_READ:
                units = sorted({u or "none" for b, u in VIEW_COLUMNS if b == base})
                problems.append(Problem(file, line, name, f"unit {said!r} in the header: expected one of {', '.join(units)}", RULE))
                continue
        if spec is not None:
            if spec[0] in {t for t, _u in out.values()}:
                continue  # the first column of a kind is read (RxPort beside RxPortNames)
            out[i] = spec
    return out, problems


class _Notes:
    """What was left out, and where, to say once per file."""

    def __init__(self):
        self.lines: dict[str, list[int]] = {}
        self.example: dict[str, str] = {}

    def add(self, what: str, line: int, example: str = "") -> None:
        lines = self.lines.setdefault(what, [])
        self.example.setdefault(what, example)
        if line not in lines:
            lines.append(line)

    def problems(self, file: str) -> list[Problem]:
        out = []
        for what, lines in self.lines.items():
            shown = ", ".join(map(str, lines[:6])) + (", …" if len(lines) > 6 else "")
            example = f"; line {lines[0]}: {self.example[what]}" if self.example.get(what) else ""
            out.append(Problem(file, None, "", f"{what} (line{'s' if len(lines) > 1 else ''} {shown}{example})", RULE, "warning"))
        return out


def _clean(values: dict[str, tuple], notes: _Notes, ln: int, file: str, problems: list[Problem]) -> dict[str, tuple]:
    """The values a row states, without those the tool did not measure (see the module's list)."""
    v = {k: x for k, x in values.items() if x[0] is not None}
    get = lambda k: v[k][0] if k in v else None  # noqa: E731
    if get("rx") == 0 or get("sig") == 0:
        if any(k in values for k in _LAT):
            notes.add("no latency nor jitter for a stream that received no frame: left out, never 0", ln)
        for k in _LAT:
            v.pop(k, None)
    if get("rx") == 0 and any(k in v for k in _SEQUENCE):
        notes.add("no dropped, duplicate or reordered count for a stream that received no frame (Spirent counts them from "
                  "the sequence numbers of received frames): left out, never 0", ln)
        for k in _SEQUENCE:
            v.pop(k, None)
    rates = (("tx_rate", "tx"), ("tx_l1", "tx"), ("tx_l2", "tx"), ("rx_rate", "rx"), ("rx_l1", "rx"), ("rx_l2", "rx"))
    if any(get(rate) == 0 and (get(count) or 0) > 0 for rate, count in rates):  # one instant: every rate of the row is of it
        for rate, _count in rates:
            if get(rate) == 0:
                v.pop(rate)
        notes.add("rates of 0 beside frame counts above 0: not measured at that instant (read after the generator stopped, "
                  "or not computed), left out", ln)
    for bits, fps, (low, high), layer in (("tx_l2", "tx_rate", _L2_BYTES, "layer 2"), ("rx_l2", "rx_rate", _L2_BYTES, "layer 2"),
                                         ("tx_l1", "tx_rate", _L1_BYTES, "layer 1"), ("rx_l1", "rx_rate", _L1_BYTES, "layer 1")):
        if get(bits) and get(fps):
            per = get(bits) / get(fps) / 8
            if not low <= per <= high:
                notes.add(f"a {layer} bit rate that gives fewer than {low} or more than {high} bytes a frame at the row's frame rate: "
                          "not bits a second, left out", ln, f"{get(bits)} bps at {get(fps)} fps is {per:.4g} bytes a frame")
                v.pop(bits)
    for jitter in ("jitter_avg", "jitter_max"):
        if get(jitter) == 0 and get("latency_max") is not None and get("latency_min") is not None and get("latency_max") > get("latency_min"):
            v.pop(jitter)
            notes.add("a jitter of 0 beside latencies that vary: not measured (Spirent's jitter result mode), left out", ln)
    lo, avg, hi = get("latency_min"), get("latency_avg"), get("latency_max")
    if lo is not None and hi is not None and (lo > hi or (avg is not None and not lo <= avg <= hi)):
        problems.append(Problem(file, ln, "", f"latency min {lo}, avg {avg}, max {hi} {v['latency_min'][1]}: expected min ≤ avg ≤ max", RULE))
        return {}
    v.pop("sig", None)
    return v


def parse(data: bytes, file: str) -> tuple[str | None, dict, list[Record], list[Problem]]:
    """(view, preamble, records, problems)."""
    table, meta, problems = _table(data, file)
    if table is None:
        return None, meta, [], problems
    view = view_of(table.header)
    if view in NOT_IMPORTED:
        return view, meta, [], [Problem(file, table.line, "", f"a Spirent TestCenter {view} view: {NOT_IMPORTED[view]}; expected {EXPECTED}", RULE)]
    cols, problems = _columns(table.header, view, file, table.line)
    if problems:
        return view, meta, [], problems
    problems += [Problem(file, ln, "", f"{why}: expected one cell under each column", RULE) for ln, why in table.uncut]
    if table.extra:
        n = len(next(iter(table.extra.values())))
        problems.append(Problem(file, None, "", f"{n} values beyond the {len(table.header)} columns of the header are not read "
                                f"(lines {', '.join(map(str, list(table.extra)[:6]))})", RULE, "warning"))
    notes, idle = _Notes(), []
    recs: list[Record] = []
    for ln, cells in table.rows:
        if is_summary(cells):
            continue
        if len(cells) != len(table.header):
            problems.append(Problem(file, ln, "", f"{len(cells)} cells: expected {len(table.header)} as in the header (a truncated row or a table of another view)", RULE))
            continue
        rec = _record(cells, cols, table.header, view, file, ln, problems)
        if rec is None:
            continue
        counts = [rec.values[k][0] for k in ("tx", "rx") if k in rec.values and rec.values[k][0] is not None]
        if counts and not any(counts):
            idle.append(ln)
            continue
        rec.values = _clean(rec.values, notes, ln, file, problems)
        if not rec.values:
            continue
        recs.append(rec)
    if idle and not recs and not any(p.severity == "error" for p in problems):
        return view, meta, [], [Problem(file, None, "", f"every stream sent and received 0 frames ({len(idle)} stream{'s' if len(idle) > 1 else ''}): the view was read "
                                        "before traffic ran, and holds no result", RULE)]
    if idle:
        notes.lines["streams that sent and received no frame: no measurement, left out"] = idle
    problems += notes.problems(file)
    table_end(recs, problems, file, view, RULE)
    return view, meta, recs, problems


def _record(cells, cols, header, view, file, ln, problems) -> Record | None:
    keys, values = {}, {}
    for i, (target, unit) in cols.items():
        cell = cells[i]
        try:
            if target in ("port", "stream"):
                if cell and cell.upper() not in ("N/A", "NA"):
                    name = " ".join(cell.split())
                    if view in ("TxStreamBlockResults", "RxStreamBlockResults") and name.isdigit():  # object indexes, not names
                        name = f"{'Port' if target == 'port' else 'StreamBlock'} {name}"
                    keys[target] = name
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
                if unit == "frames" and v is not None and v != int(v):
                    if target == "sig":  # read only to know whether latency was measured
                        problems.append(Problem(file, ln, header[i], f"{cell!r} is not a whole number of frames: not a count, not read", RULE, "warning"))
                        continue
                    raise CellError(f"{cell!r} is not a whole number of frames")
                values[target] = (v, unit)
        except CellError as exc:
            problems.append(Problem(file, ln, header[i], f"{exc}: expected a number in {unit or 'the column'}", RULE))
            return None
    if all(v is None for v, _u in values.values()):
        problems.append(Problem(file, ln, "", "no value in this row: expected counts, rates or latencies", RULE))
        return None
    return Record("measurements", f"line {ln}", ln, keys, values)


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


TEST_IDS = {"Basic Counters": "basic-counters", "Detailed Stream Results": "stream-results", "Advanced Sequencing": "sequencing",
            "RxStreamBlockResults": "rx-stream-results", "TxStreamBlockResults": "tx-stream-results", "Dynamic result view": "dynamic-results",
            "RFC 2544 throughput": "rfc2544-throughput", "RFC 2544 latency": "rfc2544-latency"}


def describe(data: bytes, name: str):
    from wirespeed.importers.contract import ImportPlan, TestPlan
    from wirespeed.importers.records import methodology, unstated

    plan = ImportPlan("spirent")
    view, meta, recs, plan.problems = parse(data, name)
    if view is None or any(p.severity == "error" for p in plan.problems):
        return plan
    _label_ports(recs)
    head = " ".join(f"{k}: {v}" for k, v in meta.items())
    plan.instrument = {"vendor": "Spirent", "product": "Spirent TestCenter"}
    if m := re.search(r"spirent testcenter\s+v?(\d+(?:\.\d+)+)", head, re.I):
        plan.instrument["software"] = [{"name": "Spirent TestCenter", "version": m.group(1)}]
    else:
        plan.unstated.append("instrument.software")
    if m := re.search(r"(\d{4}-\d{2}-\d{2})", meta.get("exported", "") or meta.get("date", "")):
        plan.campaign = {"start": m.group(1), "end": m.group(1)}
    tid = TEST_IDS[view]
    fields = {"title": f"Spirent TestCenter {view}", "rfc": ["2544"] if view.startswith("RFC") else ["vendor"], "methodology": methodology(recs)}
    speeds = {m.group(1) for r in recs if (m := re.search(r"\((\d+G)\)", r.keys.get("port", "")))}
    if len(speeds) == 1:
        fields["port_speed"] = speeds.pop()
    plan.tests.append(TestPlan(tid, {k: v for k, v in fields.items() if v}))
    plan.unstated += unstated(tid, fields)
    return plan


def _importer():
    from wirespeed.importers.contract import Importer
    from wirespeed.importers.records import converter

    return Importer(summary="Spirent TestCenter result views (Basic Counters, Advanced Sequencing, detailed streams) as text or CSV, "
                            "Rx/TxStreamBlockResults and dynamic result views, RFC 2544 summaries: one row per stream",
                    sniff=sniff, describe=describe, convert=converter(_read),
                    examples=tuple(f"docs/importers/examples/spirent/{n}" for n in ("basic-counters.txt", "detailed-stream-results.txt",
                                                                                     "rx-stream-block-results.txt", "tx-stream-block-results.txt",
                                                                                     "dynamic-result-view.txt")),
                    kinds=("csv", "text"))


IMPORTER = _importer()
