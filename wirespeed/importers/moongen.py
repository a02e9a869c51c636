"""MoonGen output, as its stats and histogram modules write it (emmericp/MoonGen lua/include/stats.lua
before libmoon; libmoon/libmoon lua/stats.lua and lua/histogram.lua since):

- throughput, plain (libmoon): `[Device: id=0] TX: 14.88 Mpps, 7619 Mbit/s (10000 Mbit/s with framing)`
  each second, and at the end `[…] TX: 14.88 (StdDev 0.00) Mpps, 7619 (StdDev 0) Mbit/s (10000 Mbit/s
  with framing), total 74402307 packets with 4761747648 bytes (incl. CRC)` (colour codes allowed);
- throughput, plain (MoonGen before libmoon): `[…] Sent 1460655 packets, current rate 1.46 Mpps, …
  MBit/s wire rate.` each second, and `[…] Sent 15327522 packets with 1961922816 bytes payload (including
  CRC).` + `[…] Sent 1.465371 (StdDev 0.000010) Mpps, 1500.540084 (StdDev …) MBit/s, 1734.999472 (StdDev …)
  MBit/s wire rate on average.` at the end (Received for a receiving counter);
- throughput, CSV (libmoon): `Time,Device,Direction,PacketRate,Mbit,MbitWithFraming,TotalPackets,TotalBytes`,
  a line per second and the final line (the averages) last for each counter;
- a latency histogram saved with `histogram:save`: `latency,count` lines, latency in ns.

What they become: per counter (port = its name, e.g. "Device: id=0"), one measurement row of the final
figures — packets (tx/rx), the average packet rate MoonGen computed (it leaves out the first and last
second), Mbit/s counted on the frames with their CRC (tx_l2/rx_l2) and "with framing", 20 bytes more per
frame (tx_l1/rx_l1); the per-second lines of the CSV become samples (t_s from its Time column; the plain
lines carry no time, so they are not). A histogram becomes histogram rows: MoonGen counts exact latencies,
so each value is a bucket as wide as the file's resolution (the smallest gap between its values; 1 ns
when it holds one value), with latency_min, latency_avg (MoonGen's average: Σ latency × count ÷ count) and
latency_max.
"""

from __future__ import annotations

import re
from decimal import Decimal

from wirespeed.engine.figures import Figure
from wirespeed.importers.common import base_keys, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8

RULE = "import.moongen"
COLOUR = re.compile(r"\x1b\[[0-9;]*m")
NUM = r"(-?\d+(?:\.\d+)?)"
LIBMOON_FINAL = re.compile(rf"^\[(?P<name>[^\]]+)\] (?P<dir>TX|RX): {NUM} \(StdDev {NUM}\) Mpps, {NUM} \(StdDev {NUM}\) Mbit/s \({NUM} Mbit/s with framing\), "
                           rf"total (?P<total>\d+) packets with (?P<bytes>\d+) bytes \(incl\. CRC\)$")
LIBMOON_UPDATE = re.compile(rf"^\[(?P<name>[^\]]+)\] (?P<dir>TX|RX): {NUM} Mpps, {NUM} Mbit/s \({NUM} Mbit/s with framing\)$")
OLD_TOTAL = re.compile(r"^\[(?P<name>[^\]]+)\] (?P<dir>Sent|Received) (?P<total>\d+) packets with (?P<bytes>\d+) bytes payload \(including CRC\)\.$")
OLD_AVERAGE = re.compile(rf"^\[(?P<name>[^\]]+)\] (?P<dir>Sent|Received) {NUM} \(StdDev {NUM}\) Mpps, {NUM} \(StdDev {NUM}\) MBit/s, {NUM} \(StdDev {NUM}\) MBit/s wire rate on average\.$")
OLD_UPDATE = re.compile(rf"^\[(?P<name>[^\]]+)\] (?P<dir>Sent|Received) (?P<total>\d+) packets, current rate {NUM} Mpps, {NUM} MBit/s, {NUM} MBit/s wire rate\.$")
CSV_HEADER = "Time,Device,Direction,PacketRate,Mbit,MbitWithFraming,TotalPackets,TotalBytes"
HISTOGRAM_LINE = re.compile(rf"^{NUM},(\d+)$")
SIDE = {"TX": "tx", "RX": "rx", "Sent": "tx", "Received": "rx"}


def _final(side: str, total: str | None, mpps: str, mbit: str, wire: str) -> dict:
    values = {side: (total, "frames"), f"{side}_rate": (mpps, "mpps"), f"{side}_l2": (mbit, "mbps"), f"{side}_l1": (wire, "mbps")}
    return {k: v for k, v in values.items() if v[0] is not None}


def _plain(lines: list[tuple[int, str]], file: str) -> tuple[dict[str, dict], list[Problem]]:
    """counter name → its final figures; a counter with per-second lines but no final one is refused
    (the run was cut short), and so is a final line twice (two runs in one file)."""
    finals: dict[str, dict] = {}
    updates: dict[tuple, int] = {}
    problems: list[Problem] = []
    for n, text in lines:
        m = LIBMOON_FINAL.match(text)
        if m:
            values = _final(SIDE[m["dir"]], m["total"], m.group(3), m.group(5), m.group(7))
        elif (m := OLD_AVERAGE.match(text)):
            values = _final(SIDE[m["dir"]], None, m.group(3), m.group(5), m.group(7))
        elif (m := OLD_TOTAL.match(text)):
            values = {SIDE[m["dir"]]: (m["total"], "frames")}
        else:
            u = LIBMOON_UPDATE.match(text) or OLD_UPDATE.match(text)
            if u:
                updates.setdefault((u["name"], SIDE[u["dir"]]), n)
            continue
        side = SIDE[m["dir"]]
        row_values = finals.setdefault(m["name"], {})
        if any(k in row_values for k in values):
            problems.append(Problem(file, n, "", f"a second final report of [{m['name']}] {m['dir']}: expected one run per file", RULE))
            continue
        row_values.update(values)
        updates.pop((m["name"], side), None)
    for (name, side), n in updates.items():
        if side not in finals.get(name, {}) and f"{side}_rate" not in finals.get(name, {}):
            problems.append(Problem(file, n, "", f"[{name}] {side.upper()}: per-second lines but no final report: the run was cut short", RULE))
    return finals, problems


def _csv(lines: list[tuple[int, str]], file: str) -> tuple[dict[str, dict], dict[tuple, dict], list[Problem]]:
    """(finals by counter, samples by (counter, t_s), problems) of libmoon's CSV: a counter's last line is its final one."""
    by_counter: dict[tuple, list] = {}
    for n, text in lines[1:]:
        cells = text.split(",")
        if len(cells) != 8 or not cells[0].isdigit() or cells[2] not in ("TX", "RX"):
            return {}, {}, [Problem(file, n, "", f"not a MoonGen CSV line: expected {CSV_HEADER}", RULE)]
        by_counter.setdefault((cells[1], cells[2]), []).append((n, cells))
    finals: dict[str, dict] = {}
    samples: dict[tuple, dict] = {}
    t0 = min(int(c[0]) for group in by_counter.values() for _, c in group) if by_counter else 0
    for (name, direction), group in by_counter.items():
        side = SIDE[direction]
        *seconds, (_n, last) = group
        finals.setdefault(name, {}).update(_final(side, last[6], last[3], last[4], last[5]))
        for _n, c in seconds:
            values = {f"{side}_rate": (c[3], "mpps"), f"{side}_l2": (c[4], "mbps"), f"{side}_l1": (c[5], "mbps")}
            samples.setdefault((name, int(c[0]) - t0), {}).update(values)
    return finals, samples, []


def _histogram(lines: list[tuple[int, str]], file: str) -> tuple[list[tuple[Decimal, int]], list[Problem]]:
    out = []
    for n, text in lines:
        m = HISTOGRAM_LINE.match(text)
        if not m:
            return [], [Problem(file, n, "", f"not a MoonGen histogram line: expected latency (ns),count, found {text[:60]!r}", RULE)]
        out.append((Decimal(m.group(1)), int(m.group(2))))
    values = [v for v, _ in out]
    if len(set(values)) != len(values):
        return [], [Problem(file, None, "", "a latency appears twice: expected each value once, as histogram:save writes them", RULE)]
    if any(v < 0 for v in values) or sum(c for _, c in out) == 0:
        return [], [Problem(file, None, "", "expected latencies of 0 ns or more and at least one count", RULE)]
    return sorted(out), []


def parse(data: bytes, file: str) -> tuple[str | None, object, list[Problem]]:
    """(kind, parsed, problems): kind "plain", "csv" or "histogram"."""
    text, problems = decode_utf8(data, file)
    if text is None:
        return None, None, problems
    lines = [(n, COLOUR.sub("", ln).strip().removeprefix("^C")) for n, ln in enumerate(text.splitlines(), 1)]
    lines = [(n, t) for n, t in lines if t]
    if lines and lines[0][1] == CSV_HEADER:
        finals, samples, problems = _csv(lines, file)
        return "csv", (finals, samples), problems
    if lines and all(HISTOGRAM_LINE.match(t) for _, t in lines[:50]):
        values, problems = _histogram(lines, file)
        return "histogram", values, problems
    finals, problems = _plain(lines, file)
    if not finals and not problems:
        problems = [Problem(file, None, "", "no MoonGen statistics: expected its final '[counter] TX/RX: … Mpps …' or '[counter] Sent/Received … packets with … bytes' "
                                            f"lines, the CSV ({CSV_HEADER}) or a histogram (latency,count)", RULE)]
    return "plain", finals, problems


def convert(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    kind, parsed, problems = parse(data, file)
    if any(p.severity == "error" for p in problems):
        return [], problems, 0
    keys = base_keys(spec, test.id)
    rows = []
    if kind == "histogram":
        values = [v for v, _ in parsed]
        gaps = [b - a for a, b in zip(values, values[1:])]
        width = min(gaps) if gaps else Decimal(1)
        us = Decimal("0.001")
        for v, count in parsed:
            low, high = (v * us).normalize(), ((v + width) * us).normalize()
            rows.append(row("histograms", file, 0, {**keys, "bucket_low_us": Figure.parse(f"{low:f}"), "bucket_high_us": Figure.parse(f"{high:f}")}, {"count": (count, "frames")}))
        total = sum(c for _, c in parsed)
        mean = sum(v * c for v, c in parsed) / total
        rows.append(row("measurements", file, 0, keys, {"latency_min": (f"{values[0]:f}", "ns"), "latency_avg": (repr(float(mean)), "ns"),
                                                         "latency_max": (f"{values[-1]:f}", "ns")}))
        return rows, problems, len(rows)
    finals, samples = parsed if kind == "csv" else (parsed, {})
    for name, values in finals.items():
        rows.append(row("measurements", file, 0, {**keys, "port": name}, values))
    for (name, t), values in sorted(samples.items()):
        rows.append(row("samples", file, 0, {**keys, "port": name, "t_s": Figure.parse(str(t))}, values))
    return rows, problems, len(rows)


def sniff(head: bytes, name: str) -> float:
    text = COLOUR.sub("", head.decode("utf-8", "replace"))
    if text.lstrip().startswith(CSV_HEADER):
        return 0.95
    if re.search(r"^\^?C?\[[^\]]+\] (?:TX|RX): \d", text, re.M) and "Mbit/s with framing" in text:
        return 0.9
    if re.search(r"^\^?C?\[[^\]]+\] (?:Sent|Received) \d+ packets", text, re.M) and "MBit/s" in text:
        return 0.9
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()][:50]
    return 0.5 if lines and all(HISTOGRAM_LINE.match(ln) for ln in lines) else 0.0


def describe(data: bytes, name: str) -> ImportPlan:
    plan = ImportPlan("moongen")
    kind, parsed, plan.problems = parse(data, name)
    if any(p.severity == "error" for p in plan.problems):
        return plan
    if kind == "histogram":
        fields = {"title": "MoonGen latency histogram", "rfc": ["vendor"],
                  "description": "The latencies MoonGen timestamped (histogram:save: latency in ns, count); each value is a bucket as wide as the file's resolution."}
        test_id = "latency"
    else:
        counters = list(parsed[0] if kind == "csv" else parsed)
        fields = {"title": "MoonGen throughput", "rfc": ["vendor"],
                  "description": f"MoonGen's statistics counters ({', '.join(counters)}): packets, the average packet rate and Mbit/s of the frames "
                                 "(with their CRC, and with framing: 20 bytes more per frame) as MoonGen reports them at the end of the run."}
        test_id = "throughput"
    plan.tests.append(TestPlan(test_id, fields))
    plan.instrument = {"vendor": "MoonGen (open source)", "product": "MoonGen"}
    plan.unstated = ["instrument.software", f"tests.{test_id}.methodology.frame_sizes"]
    return plan


IMPORTER = Importer(
    summary="MoonGen statistics (plain and CSV, libmoon and earlier) and latency histograms (histogram:save): packets, Mpps, L2 and L1 Mbit/s per counter, latency buckets",
    sniff=sniff, describe=describe, convert=convert, kinds=("text", "csv"),
    examples=("docs/importers/examples/moongen/quality-of-service-test.log",),
)
