"""pcap / pcapng / ERF captures → measurements, per-second samples and latency histograms (wirespeed.capture).

Two ways in:
- a capture pair, taken before and after the device: `wirespeed import pcap TX RX --into SLUG`
  declares one [files].native entry {path = TX, pair = RX}; frames are matched by a hash of the
  bytes a router leaves alone (wirespeed/capture/decode.py);
- one capture whose frames carry the wirespeed signature (UDP payload "WSPD", sequence number,
  transmit time in ns): latency is the capture time minus the transmit time in the payload.
A single capture without the signature gives frame counts and rates only.

Rows per transmit frame size: one measurements row (trial 1), one samples row a second (from the
first transmitted frame), and the non-empty latency histogram buckets. The clock offset between the
two capture points is `clock_offset_ns` of the entry (absent: one clock, offset 0) and is stated
in the test's methodology notes written at import.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from wirespeed.resultset import erf
from wirespeed.capture.analysis import Analysis, pair_of, signature_of
from wirespeed.capture.decode import IPV6, SIGNATURE
from wirespeed.capture.errors import CaptureError
from wirespeed.capture.metrics import NS, Group, one_capture
from wirespeed.capture.reader import Frames, frames_from_bytes
from wirespeed.engine.figures import Figure
from wirespeed.importers.common import row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.problems import Problem
from wirespeed.resultset import limits
from wirespeed.resultset.semantics import latest_today


RULE = "import.pcap"
UNITS = {"tx": "frames", "rx": "frames", "lost": "frames", "duplicate": "frames", "reordered": "frames", "loss": "pct",
         "duration": "ns", "tx_rate": "pps", "rx_rate": "pps", "tx_l1": "bps", "rx_l1": "bps",
         "latency_min": "ns", "latency_avg": "ns", "latency_max": "ns", "latency_p50": "ns", "latency_p90": "ns",
         "latency_p99": "ns", "latency_p99_9": "ns", "latency_p99_99": "ns", "ipdv_avg": "ns", "ipdv_max": "ns",
         "interarrival_jitter": "ns"}
SAMPLE_METRICS = ("tx", "rx", "duration", "tx_rate", "rx_rate", "tx_l1", "rx_l1", "latency_avg", "latency_max")


def _offset(spec: dict):
    v = spec.get("clock_offset_ns")
    return v if v == "min" or isinstance(v, int) else None


def _analyse(tx: Frames, rx: Frames | None, offset) -> Analysis | None:
    """The figures of a pair or of a signed capture, within the row limit of one native file (counted before the rows are made)."""
    rows = limits.value("table_rows")
    if rx is not None:
        return pair_of(tx, rx, offset, max_rows=rows)
    if ((tx.flags & SIGNATURE) != 0).any() and (tx.txts >= 0).any():
        return signature_of(tx, offset, max_rows=rows)
    return None


def _round(v):
    """Integers as they are; means and rates to 0.01 (of ns, frames/s or %): below any timestamp's resolution."""
    return round(v, 2) if isinstance(v, float) else v


def _rows(groups: list[Group], file: str, test_id: str) -> list:
    rows = []
    for g in groups:
        keys = {"test": test_id, **({"frame_size": g.frame_size} if g.frame_size else {})}
        values = {m: (_round(v), UNITS[m]) for m, v in g.values.items() if m in UNITS}
        rows.append(row("measurements", file, 0, {**keys, "trial": 1}, values))
        for s in g.samples:
            rows.append(row("samples", file, 0, {**keys, "t_s": Figure.parse(str(s["t_s"]))},
                            {m: (_round(s[m]), UNITS[m]) for m in SAMPLE_METRICS if m in s}))
        for lo, hi, count in g.histogram:
            rows.append(row("histograms", file, 0, {**keys, "bucket_low_us": Figure.parse(f"{lo:g}"), "bucket_high_us": Figure.parse(f"{hi:g}")},
                            {"count": (count, "frames")}))
    return rows


def _single_rows(s: dict, file: str, test_id: str) -> list:
    """The row of one capture without latency, from its figures (metrics.one_capture)."""
    values = {"rx": (s["frames"], "frames"), "duration": (s["duration_ns"], "ns"), "rx_rate": (s["rate_pps"], "pps"), "rx_l1": (s["l1_bps"], "bps")}
    return [row("measurements", file, 0, {"test": test_id, "trial": 1}, values)]


def convert(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """The rows of one [files].native entry: a pair (path + pair), one capture, or the figures of
    captures kept outside the set (`outside`: pcap_outside.py)."""
    if "outside" in spec:
        from wirespeed.importers.pcap_outside import convert_figures

        return convert_figures(data, file, spec, test)
    try:
        tx = frames_from_bytes(data, file)
        rx = None
        if "pair_data" in spec:  # at import time the set is not written yet
            rx = frames_from_bytes(spec["pair_data"], spec.get("pair_shown", spec["pair"]))
        elif "pair" in spec:
            rx = frames_from_bytes(*_read_pair(file, spec))
        a = _analyse(tx, rx, _offset(spec))
    except CaptureError as exc:
        return [], [exc.problem], 0
    rows = _rows(a.result.groups, file, test.id) if a else _single_rows(one_capture(tx.ts, tx.size), file, test.id)
    return rows, [], len(rows)


def _read_pair(file: str, spec: dict) -> tuple[bytes, str]:
    """The pair's bytes, read like every set file: no symbolic link followed, within the size limit."""
    from wirespeed.resultset.setfolder import SetFolder, UnsafeFile

    folder = Path(file)
    for _ in Path(spec["path"]).parts:
        folder = folder.parent
    shown = str(folder / spec["pair"])
    try:
        with SetFolder(folder) as setdir:
            data, _st = setdir.read(spec["pair"], "file_size.pcap", "a packet capture")
    except UnsafeFile as exc:
        raise CaptureError(shown, "", exc.message, exc.rule) from None
    return data, shown


def sniff(head: bytes, name: str) -> float:
    """pcap (µs or ns, either byte order) or pcapng magic, or ERF records (no magic: erf.looks_like)."""
    if head[:4] in (b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d", b"\x0a\x0d\x0d\x0a"):
        return 1.0
    return 0.9 if erf.looks_like(head) else 0.0


def _ms(ns: float) -> str:
    return f"{ns / 1e6:,.3f} ms"


def _plan(a: Analysis | None, frames: Frames, names: list[str]) -> ImportPlan:
    plan = ImportPlan("pcap")
    af = "ipv6" if ((frames.flags & IPV6) != 0).mean() > 0.5 else "ipv4"
    sizes = sorted(g.frame_size for g in a.result.groups if g.frame_size) if a else []
    names = [Path(n).name for n in names]
    method_name = a.method if a else ""
    if method_name == "pair":
        what = (f"a capture pair, {names[0]} before and {names[1]} after the device, frames matched by a hash of the bytes "
                "a router does not change (IP addresses, identification, protocol, UDP ports, the first 24 payload bytes)")
    elif method_name == "signature":
        what = (f"one capture, {names[0]}, whose frames carry the wirespeed signature (sequence number and transmit time "
                "in the UDP payload); latency = capture time − transmit time")
    else:
        what = f"one capture, {names[0]}: counts and rates only"
    notes = [f"Imported from {what}."]
    if a:
        r = a.result
        notes.append(f"Clock offset between the capture points: {r.clock_offset_ns} ns ({r.clock_method}).")
        extents = [g.values.get("reorder_extent_max", 0) for g in r.groups]
        notes.append(f"Largest reordering extent (RFC 4737): {max(extents)}; received frames matching no transmitted frame: {r.unmatched}.")
        for side, s in (("before", a.tx), ("after", a.rx)):
            if s.get("gap_mean_ns") is not None:
                notes.append(f"Inter-arrival {side} the device: min {s['gap_min_ns']:,} ns, median {s['gap_p50_ns']:,.0f} ns, "
                             f"mean {s['gap_mean_ns']:,.0f} ns, max {_ms(s['gap_max_ns'])}, standard deviation {s['gap_std_ns']:,.0f} ns.")
    method = {"trials": 1, "search": "fixed-rate", "frame_size_convention": "ethernet-frame", "notes": " ".join(notes)}
    if method_name == "pair":  # a frame's latency is the difference of its two capture timestamps
        method["latency_method"] = "one-way-capture"
    if sizes:
        method["frame_sizes"] = sizes
    fields = {"title": "Latency, loss and reordering from packet captures" if a else "Frame counts and rates from a packet capture",
              "rfc": ["4737", "3393"] if a else ["vendor"], "direction": "unidirectional", "address_family": af, "methodology": method}
    plan.tests = [TestPlan("capture", fields, [{}])]
    plan.instrument = {"product": f"packet capture ({'ERF' if frames.format == 'erf' else 'pcap/pcapng'})",
                       "software": [{"name": "wirespeed capture engine", "version": "0.1.0"}]}
    plan.unstated += ["tests.capture.port_speed", "tests.capture.ports", "tests.capture.topology", "tests.capture.scenario", "dut.vendor", "dut.model"]
    stamped = frames.ts[frames.ts >= 0]
    if stamped.size:
        first, last = _day(int(stamped.min())), _day(int(stamped.max()))
        if EARLIEST <= first and last <= latest_today():
            plan.campaign = {"start": first.isoformat(), "end": last.isoformat()}
            plan.source = {"published": last.isoformat(), "publication_kind": "test-run"}
        else:
            odd = first if first < EARLIEST else last
            plan.problems.append(Problem(frames.file, None, "", f"the capture's timestamps say {odd.isoformat()}: not the date of a run "
                                         "(a simulator's clock that starts at 0, a clock never set, or a damaged timestamp), so the "
                                         "campaign and publication dates are left to fill in", "capture.dates", "warning"))
            plan.source = {"publication_kind": "test-run"}
            plan.unstated += ["campaign.start", "campaign.end", "source.published"]
    if a is None and (stamped.size < 2 or stamped.min() == stamped.max()):
        plan.problems.append(Problem(frames.file, None, "", f"the capture's {len(frames):,} frames carry no two different timestamps: it "
                                     "measured no duration, so no duration or rate is published", "capture.duration", "warning"))
    return plan


EARLIEST = _dt.date(1990, 1, 1)  # before any capture a result could come from: libpcap is of 1994, ERF of 1999


def _day(ns: int) -> _dt.date:
    return _dt.datetime.fromtimestamp(ns // NS, _dt.timezone.utc).date()


def skipped(frames: list[Frames]) -> list[Problem]:
    """One warning a pcapng file with blocks of types the reader does not know, or an ERF file with
    PAD or META records (the formats let a reader skip them; they are counted, never dropped
    silently), and one an ERF file whose loss counters say the capture card dropped records."""
    out = []
    for f in frames:
        if f.skipped_blocks and f.format == "erf":
            out.append(Problem(f.file, None, "", f"{f.skipped_blocks:,} ERF records without a frame (PAD or META) were skipped",
                               "capture.skipped-blocks", "warning"))
        elif f.skipped_blocks:
            out.append(Problem(f.file, None, "", f"{f.skipped_blocks:,} pcapng blocks of types this reader does not use (neither "
                               "section, interface nor packet blocks) were skipped", "capture.skipped-blocks", "warning"))
        if f.lost_records:
            out.append(Problem(f.file, None, "", f"the capture card lost {f.lost_records:,} records (the sum of the ERF loss counters): "
                               "the capture misses frames that were on the wire, so its counts are not the traffic's",
                               "capture.lost-records", "warning"))
    return out


def describe(data: bytes, name: str) -> ImportPlan:
    try:
        f = frames_from_bytes(data, name)
        a = _analyse(f, None, None)
    except CaptureError as exc:
        return ImportPlan("pcap", problems=[exc.problem])
    plan = _plan(a, f, [name])
    plan.problems += skipped([f])
    return plan


def pair_clock(tx: Frames, rx: Frames, name2: str) -> tuple[Analysis, dict, list[Problem]]:
    """The pair's analysis; when frames arrive before they were sent, the clock offset estimated
    (clock_offset_ns = "min", the native entry's key) with a warning."""
    try:
        return pair_of(tx, rx, max_rows=limits.value("table_rows")), {}, []
    except CaptureError as exc:
        if exc.problem.rule != "capture.clock":
            raise
    warn = Problem(name2, None, "", "frames arrive before they were sent: the capture clocks differ, so the offset is "
                   "estimated as the smallest latency (clock_offset_ns = \"min\"); set the known offset in result.toml if there is one",
                   "capture.clock", "warning")
    return pair_of(tx, rx, "min", max_rows=limits.value("table_rows")), {"clock_offset_ns": "min"}, [warn]


def describe_pair(data: bytes, name: str, data2: bytes, name2: str) -> ImportPlan:
    try:
        tx, rx = frames_from_bytes(data, name), frames_from_bytes(data2, name2)
        a, entry, warn = pair_clock(tx, rx, name2)
    except CaptureError as exc:
        return ImportPlan("pcap", problems=[exc.problem])
    plan = _plan(a, tx, [name, name2])
    plan.tests[0].native = [entry]
    plan.problems += warn + skipped([tx, rx])
    return plan


IMPORTER = Importer(
    summary="pcap/pcapng/ERF captures: a pair before/after the device, or one capture with the wirespeed signature → latency (exact percentiles), loss, reordering, IPDV, jitter per frame size",
    sniff=sniff,
    describe=describe,
    convert=convert,
    describe_pair=describe_pair,
    examples=("docs/importers/examples/pcap/signature-rx.pcap",),
    kinds=("pcap", "pcapng", "erf", "json"),  # json: the figures of captures kept outside the set (pcap_outside.py)
)
