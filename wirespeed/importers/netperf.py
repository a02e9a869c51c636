"""netperf's own output: the classic tests (TCP_STREAM, TCP_MAERTS, TCP_SENDFILE, UDP_STREAM, TCP_RR,
UDP_RR, TCP_CRR, TCP_CC) as printed with their banner and headers (the default -P 1), and the omni
output selectors (`-- -o` CSV with its header line, `-- -k` KEY=value lines), one test per banner.

What the figures are (netperf's doc/netperf.texi and src/netlib.c):
- a STREAM test's throughput is the socket payload rate (goodput), in the unit of its header:
  10^Nbits/sec (-f k/m/g) or K/M/GBytes/sec (-f K/M/G, 1024-based); never a layer-1/2 rate;
- UDP_STREAM prints the sender's line (messages sent okay) and the receiver's (messages received,
  receive throughput): goodput is the receiver's; datagrams count as frames only when a message fits
  one Ethernet frame (wirespeed.importers.datagrams), otherwise the counts are left out;
- a request/response test's rate is transactions per second (transaction_rate); omni's
  MIN/MEAN/MAX/P50/P90/P99_LATENCY of such a test are round-trip times in µs (rtt_*);
- `-D` interim results become samples (goodput per interval).
CPU utilisation and service demand (-c/-C) are the test hosts', not the device's: not imported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from wirespeed.engine.figures import Figure
from wirespeed.importers.common import base_keys, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.importers.datagrams import one_frame
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8

RULE = "import.netperf"
BANNER = re.compile(r"^(?P<migrated>MIGRATED )?(?P<what>[A-Za-z_/ ]+?) TEST from (?P<src>\S*) \((?P<srcip>[^)]*)\) port \d+ (?P<af>\S+) "
                    r"to (?P<dst>\S*) \((?P<dstip>[^)]*)\) port \d+ \S+(?: : (?P<opts>.*))?$")
NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
UNIT = re.compile(r"(10\^[0369]bits|[KMG]?Bytes|Trans)/s(?:ec)?\b")
INTERIM = re.compile(r"^Interim result:\s+(?P<v>\d+(?:\.\d+)?) (?P<u>\S+) over (?P<d>\d+(?:\.\d+)?) seconds ending at (?P<t>\d+(?:\.\d+)?)")

# what the banner says → (test name, kind)
KINDS = {"TCP STREAM": ("TCP_STREAM", "stream"), "TCP MAERTS": ("TCP_MAERTS", "stream"), "TCP SENDFILE": ("TCP_SENDFILE", "stream"),
         "UDP UNIDIRECTIONAL SEND": ("UDP_STREAM", "udp"), "UDP STREAM": ("UDP_STREAM", "udp"),
         "TCP REQUEST/RESPONSE": ("TCP_RR", "rr"), "UDP REQUEST/RESPONSE": ("UDP_RR", "rr"),
         "TCP Connect/Request/Response": ("TCP_CRR", "rr"), "TCP Connect/Close": ("TCP_CC", "rr"),
         "OMNI": ("omni", "omni"), "OMNI Send": ("omni", "omni"), "OMNI Receive": ("omni", "omni"), "OMNI Send|Recv": ("omni", "omni")}

# omni output selectors: keyval name, CSV header (the selector's four name parts joined) → metric, unit
SELECTORS = {
    "THROUGHPUT": "Throughput", "THROUGHPUT_UNITS": "Throughput Units", "ELAPSED_TIME": "Elapsed Time (sec)",
    "TRANSACTION_RATE": "Transaction Rate Tran/s", "RT_LATENCY": "Round Trip Latency usec/tran",
    "MIN_LATENCY": "Minimum Latency Microseconds", "MAX_LATENCY": "Maximum Latency Microseconds",
    "P50_LATENCY": "50th Percentile Latency Microseconds", "P90_LATENCY": "90th Percentile Latency Microseconds",
    "P99_LATENCY": "99th Percentile Latency Microseconds", "MEAN_LATENCY": "Mean Latency Microseconds",
    "PROTOCOL": "Protocol", "DIRECTION": "Direction", "REQUEST_SIZE": "Request Size Bytes", "RESPONSE_SIZE": "Response Size Bytes",
    "LOCAL_SEND_SIZE": "Local Send Size",
}
BY_HEADER = {v.lower(): k for k, v in SELECTORS.items()}
RTT = {"MIN_LATENCY": "rtt_min", "MAX_LATENCY": "rtt_max", "MEAN_LATENCY": "rtt_avg", "P50_LATENCY": "rtt_p50", "P90_LATENCY": "rtt_p90", "P99_LATENCY": "rtt_p99"}


@dataclass
class Block:
    """One test's output: its banner and the lines up to the next banner."""

    line: int
    name: str  # TCP_STREAM, …, omni
    kind: str  # stream, udp, rr, omni
    banner: re.Match
    lines: list[tuple[int, str]] = field(default_factory=list)


def blocks(text: str, file: str) -> tuple[list[Block], list[Problem]]:
    """The tests of the file, each from its banner; a file without one is refused."""
    out: list[Block] = []
    for n, line in enumerate(text.splitlines(), 1):
        m = BANNER.match(line.strip())
        if m:
            what = " ".join(m.group("what").split())
            name, kind = KINDS.get(what, (None, None))
            if name is None:
                return [], [Problem(file, n, "", f"netperf test {what!r}: expected one of {', '.join(sorted({k[0] for k in KINDS.values()}))}", RULE)]
            out.append(Block(n, name, kind, m))
        elif out:
            out[-1].lines.append((n, line))
    if not out:
        return [], [Problem(file, None, "", "no netperf test banner ('… TEST from … to …'): expected netperf's output with its banner "
                                         "(the default -P 1; with -P 0 the test cannot be told)", RULE)]
    return out, []


def _figure(text: str) -> Figure:
    return Figure.parse(text)


def _bits(value: str, unit: str) -> tuple[str | float, str] | None:
    """A throughput as printed, in a wirespeed bit-rate unit: 10^6bits → mbps as printed; the
    1024-based bytes units of -f K/M/G are converted to bit/s."""
    scale = {"10^0bits": "bps", "10^3bits": "kbps", "10^6bits": "mbps", "10^9bits": "gbps"}
    if unit in scale:
        return value, scale[unit]
    factor = {"Bytes": 8, "KBytes": 8 * 1024, "MBytes": 8 * 1024 ** 2, "GBytes": 8 * 1024 ** 3}.get(unit)
    if factor is None:
        return None
    return str((Decimal(value) * factor).normalize()) if "." in value else str(int(value) * factor), "bps"


def _numbers(line: str) -> list[str] | None:
    cells = line.split()
    return cells if cells and all(NUMBER.match(c) for c in cells) else None


def _classic(block: Block, file: str) -> tuple[dict, list[tuple[str, dict]], list[Problem]]:
    """(summary values, samples, problems) of a test printed in the classic layout."""
    header = " ".join(text for _, text in block.lines if not _numbers(text) and not INTERIM.match(text.strip()))
    data = [(n, _numbers(text)) for n, text in block.lines if _numbers(text)]
    samples, problems = _interim(block, file)
    if not data:
        return {}, samples, [Problem(file, block.line, "", f"{block.name}: no result line under the banner (an interrupted run?)", RULE)]
    n, first = data[0]
    values: dict = {}
    if block.kind == "stream":
        unit = UNIT.search(header)
        if len(first) < 5 or not unit:
            return {}, samples, [Problem(file, n, "", f"{block.name}: expected socket sizes, message size, elapsed time and throughput with its unit", RULE)]
        goodput = _bits(first[4], unit.group(1))
        values = {"goodput": goodput, "duration": (first[3], "s")}
    elif block.kind == "udp":
        unit = UNIT.search(header)
        if len(first) < 6 or not unit or len(data) < 2 or len(data[1][1]) < 4:
            return {}, samples, [Problem(file, n, "", "UDP_STREAM: expected the sender's line (socket, message size, elapsed, messages okay, errors, "
                                                   "throughput) and the receiver's (socket, elapsed, messages, throughput)", RULE)]
        remote = data[1][1]
        single = one_frame(float(first[1]), "ipv6" if block.banner.group("af") == "AF_INET6" else "ipv4")
        values = {"goodput": _bits(remote[3], unit.group(1)), "duration": (first[2], "s"),
                  "tx": (first[3], "frames") if single else None, "rx": (remote[2], "frames") if single else None}
    elif block.kind == "rr":
        if len(first) < 6:
            return {}, samples, [Problem(file, n, "", f"{block.name}: expected socket sizes, request and response sizes, elapsed time and transaction rate", RULE)]
        values = {"duration": (first[4], "s")}
        unit = UNIT.search(header.split("Alignment")[0])
        if unit is None or unit.group(1) == "Trans":
            values["transaction_rate"] = (first[5], "tps")
        verbose = [d for d in data[1:] if len(d[1]) == 8]
        if "RoundTrip" in header and verbose:  # -v 2: round-trip latency (µs per transaction) and the transaction rate
            values.update({"rtt_avg": (verbose[0][1][4], "us"), "transaction_rate": (verbose[0][1][5], "tps")})
        elif "transaction_rate" not in values:
            return {}, samples, [Problem(file, n, "", f"{block.name} printed in {unit.group(0)} (-f): its transaction rate is printed only with -v 2", RULE)]
    return {k: v for k, v in values.items() if v is not None}, samples, problems


def _interim(block: Block, file: str) -> tuple[list[tuple[str, dict]], list[Problem]]:
    """-D interim results: (t_s, {goodput}) from each interval's start, counted from the first's."""
    out, problems, t0 = [], [], None
    for n, text in block.lines:
        m = INTERIM.match(text.strip())
        if not m:
            continue
        end, length = Decimal(m.group("t")), Decimal(m.group("d"))
        t0 = end - length if t0 is None else t0
        unit = m.group("u").removesuffix("/s")
        goodput = _bits(m.group("v"), unit)
        if goodput is None:
            problems.append(Problem(file, n, "", f"interim result in {m.group('u')!r}: expected a netperf throughput unit", RULE))
            continue
        out.append((str(end - length - t0), {"goodput": goodput}))
    return out, problems


def _omni(block: Block, file: str) -> tuple[dict, list[Problem]]:
    """Omni output selected with -k (KEY=value lines) or -o (a header line and a CSV line)."""
    lines = [(n, t.strip()) for n, t in block.lines if t.strip()]
    found: dict[str, str] = {}
    if lines and all("=" in t for _, t in lines):
        found = {k.strip().upper(): v.strip() for _, t in lines for k, v in [t.split("=", 1)]}
    elif len(lines) >= 2 and "," in lines[0][1] + lines[1][1] or len(lines) == 2:
        names, cells = [c.strip() for c in lines[0][1].split(",")], [c.strip() for c in lines[1][1].split(",")]
        if len(names) != len(cells):
            return {}, [Problem(file, lines[1][0], "", f"omni CSV line of {len(cells)} values under a header of {len(names)} names", RULE)]
        found = {BY_HEADER.get(name.lower(), name.upper().replace(" ", "_")): cell for name, cell in zip(names, cells)}
    else:
        return {}, [Problem(file, block.line, "", "omni output: expected -k KEY=value lines or -o CSV (a header line and a values line); "
                                                  "-O's human-readable columns are not read", RULE)]
    units = found.get("THROUGHPUT_UNITS", "")
    rr = units.startswith("Trans") or "|" in found.get("DIRECTION", "") or "TRANSACTION_RATE" in found
    values: dict = {}
    if "THROUGHPUT" in found and NUMBER.match(found["THROUGHPUT"]):
        unit = units.removesuffix("/s")
        if unit == "Trans":
            values["transaction_rate"] = (found["THROUGHPUT"], "tps")
        elif _bits(found["THROUGHPUT"], unit):
            values["goodput"] = _bits(found["THROUGHPUT"], unit)
        else:
            return {}, [Problem(file, block.line, "THROUGHPUT_UNITS", f"throughput unit {units or 'not selected'!r}: expected 10^Nbits/s, "
                                                                       "[KMG]Bytes/s or Trans/s (select THROUGHPUT_UNITS with THROUGHPUT)", RULE)]
    if "TRANSACTION_RATE" in found and NUMBER.match(found["TRANSACTION_RATE"]):
        values["transaction_rate"] = (found["TRANSACTION_RATE"], "tps")
    if "ELAPSED_TIME" in found and NUMBER.match(found["ELAPSED_TIME"]):
        values["duration"] = (found["ELAPSED_TIME"], "s")
    if rr:
        for sel, metric in RTT.items():
            if NUMBER.match(found.get(sel, "")) and float(found[sel]) > 0:
                values[metric] = (found[sel], "us")
        if "rtt_avg" not in values and NUMBER.match(found.get("RT_LATENCY", "")):
            values["rtt_avg"] = (found["RT_LATENCY"], "us")
    if not values:
        return {}, [Problem(file, block.line, "", "omni output without a figure wirespeed reads (THROUGHPUT with THROUGHPUT_UNITS, "
                                                  "TRANSACTION_RATE, ELAPSED_TIME, *_LATENCY)", RULE)]
    return values, []


def parse(data: bytes, file: str) -> tuple[list[Block], list[tuple[dict, list]], list[Problem]]:
    text, problems = decode_utf8(data, file)
    if text is None:
        return [], [], problems
    found, problems = blocks(text, file)
    results = []
    for b in found:
        if b.kind == "omni" or any(re.match(r"^[A-Z_]+=", t.strip()) for _, t in b.lines):
            values, probs = _omni(b, file)
            samples: list = []
        else:
            values, samples, probs = _classic(b, file)
        problems += probs
        results.append((values, samples))
    return found, results, problems


def convert(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    found, results, problems = parse(data, file)
    if any(p.severity == "error" for p in problems):
        return [], problems, len(found)
    part = spec.get("part")
    names = [f"test-{i + 1}" for i in range(len(found))]
    if part is None and len(found) > 1:
        return [], [Problem(file, None, "part", f"the file holds {len(found)} netperf tests: expected part = \"test-1\" … \"test-{len(found)}\"", RULE)], 0
    if part is not None and part not in names:
        return [], [Problem(file, None, "part", f"no test {part!r}: the file holds {', '.join(names)}", RULE)], 0
    values, samples = results[names.index(part) if part else 0]
    keys = base_keys(spec, test.id)
    rows = [row("samples", file, 0, {**keys, "t_s": _figure(t)}, v) for t, v in samples]
    rows.append(row("measurements", file, 0, {**keys, "trial": 1}, values))
    return rows, problems, len(rows)


def sniff(head: bytes, name: str) -> float:
    text = head.decode("utf-8", "replace")
    return 0.9 if any(BANNER.match(line.strip()) for line in text.splitlines()[:200]) else 0.0


def describe(data: bytes, name: str) -> ImportPlan:
    plan = ImportPlan("netperf")
    found, results, plan.problems = parse(data, name)
    if any(p.severity == "error" for p in plan.problems):
        return plan
    ids: dict[str, int] = {}
    for i, (b, (values, _s)) in enumerate(zip(found, results)):
        base = b.name.lower().replace("_", "-")
        if b.kind == "omni":
            base += "-rr" if "transaction_rate" in values else "-stream"
        ids[base] = ids.get(base, 0) + 1
        test_id = base if ids[base] == 1 else f"{base}-{ids[base]}"
        dst = b.banner.group("dst") or b.banner.group("dstip")
        what = {"stream": "a stream of data", "udp": "a stream of UDP datagrams", "rr": "request/response transactions", "omni": "the omni test"}[b.kind]
        direction = " from netserver to netperf" if b.name == "TCP_MAERTS" else ""
        fields = {"title": f"netperf {b.name}", "rfc": ["vendor"], "direction": "bidirectional" if b.kind == "rr" or "transaction_rate" in values else "unidirectional",
                  "description": f"netperf {b.name}: {what}{direction} to {dst} ({b.banner.group('af')}); the banner's options: {b.banner.group('opts') or 'none'}.",
                  "methodology": {"search": "fixed-rate", "trials": 1}}
        if b.banner.group("af") in ("AF_INET", "AF_INET6"):
            fields["address_family"] = "ipv6" if b.banner.group("af") == "AF_INET6" else "ipv4"
        plan.tests.append(TestPlan(test_id, fields, [{"part": f"test-{i + 1}"}] if len(found) > 1 else [{}]))
    plan.instrument = {"vendor": "Hewlett Packard Enterprise (open source)", "product": "netperf"}
    plan.unstated = ["instrument.software"]
    return plan


IMPORTER = Importer(
    summary="netperf output (TCP_STREAM, TCP_MAERTS, UDP_STREAM, TCP_RR, UDP_RR, TCP_CRR, TCP_CC with banner and headers; omni -o CSV and -k keyval): goodput, transactions/s, round-trip times",
    sniff=sniff, describe=describe, convert=convert, kinds=("text",),
    examples=("docs/importers/examples/netperf/tcp-stream.txt", "docs/importers/examples/netperf/udp-rr.txt", "docs/importers/examples/netperf/omni-keyval.txt"),
)
