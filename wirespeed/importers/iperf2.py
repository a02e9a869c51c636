"""iperf 2 CSV reports (`iperf -y C`, iperf2's src/ReportCSV.c and src/Locale.c):

    timestamp,address,port,address,port,id,start-end,bytes,bits/s                       (a TCP or sending report)
    timestamp,address,port,address,port,id,start-end,bytes,bits/s,jitter ms,lost,total,loss %,out of order   (UDP)

`timestamp` is when the line was printed (YYYYMMDDHHMMSS, `.mmm` with -e; iperf 2.1 prints
19700101000000 for its final lines, so it dates a run only when it is later), the interval is
printed with one decimal, bits/s is bytes × 8 / interval: the socket payload rate (goodput), never
an L1/L2 rate. A 14-field line is a receiver's report (the server's, or the server report the client
prints) when its `total` (datagrams, from the sequence numbers) is not −1; iperf 2.1 clients print
their sending lines in that layout too, with jitter and loss 0 and a final total of −1: those lines
are the sender's, and their jitter and loss were not measured.

Per transfer id (port key `id N` when a file holds several; iperf's sum over -P streams is id −1 or
0 in some versions, kept as its own id), the whole-run line (the longest interval from 0) becomes a
measurement row and the others per-interval samples; a receiver's lines are preferred over a
sender's of the same id. Datagram counts (received = total − lost, lost) are frames only when a
datagram (bytes ÷ received) fits one Ethernet frame (wirespeed.importers.datagrams).
"""

from __future__ import annotations

import datetime
import ipaddress
import re
from dataclasses import dataclass

from wirespeed.engine.figures import Figure
from wirespeed.importers.common import base_keys, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.importers.datagrams import one_frame
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8

RULE = "import.iperf2"
INTERVAL = re.compile(r"^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$")
STAMP = re.compile(r"^\d{14}(?:\.\d{3})?$")
INT = re.compile(r"^-?\d+$")
DECIMAL = re.compile(r"^-?\d+(?:\.\d+)?$")


@dataclass
class Line:
    n: int
    stamp: str
    local: str
    remote: str
    ident: str
    start: str
    end: str
    bytes: int
    bps: str
    udp: list[str] | None  # jitter, lost, total, loss %, out of order
    receiver: bool = False  # a receiver's report (set by `transfers`, from all the lines of its id)


def _line(n: int, text: str) -> Line | str:
    cells = [c.strip() for c in text.split(",")]
    if len(cells) not in (9, 14):
        return f"{len(cells)} fields: expected 9 (TCP or sending) or 14 (UDP with jitter and loss)"
    if not STAMP.match(cells[0]):
        return f"timestamp {cells[0]!r}: expected YYYYMMDDHHMMSS"
    interval = INTERVAL.match(cells[6])
    if not interval or not INT.match(cells[5]) or not INT.match(cells[7]) or not INT.match(cells[8]):
        return "expected an id, an interval start-end, bytes and bits/s"
    udp = cells[9:] if len(cells) == 14 else None
    if udp and not (DECIMAL.match(udp[0]) and INT.match(udp[1]) and INT.match(udp[2]) and DECIMAL.match(udp[3]) and INT.match(udp[4])):
        return "expected jitter (ms), lost, total, loss % and out-of-order after bits/s"
    return Line(n, cells[0], f"{cells[1]}:{cells[2]}", f"{cells[3]}:{cells[4]}", cells[5], interval.group(1), interval.group(2), int(cells[7]), cells[8], udp)


def read(data: bytes, file: str) -> tuple[list[Line], list[Problem]]:
    """The report lines; banner lines an `iperf -s … | tee` interleaves (----, "Server listening …") are skipped."""
    text, problems = decode_utf8(data, file)
    if text is None:
        return [], problems
    lines = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or not raw[:1].isdigit():
            continue
        got = _line(n, raw.strip())
        if isinstance(got, str):
            return [], [Problem(file, n, "", f"not an iperf 2 CSV report line: {got}", RULE)]
        lines.append(got)
    if not lines:
        problems.append(Problem(file, None, "", "no iperf 2 CSV report line (iperf -y C: timestamp,address,port,address,port,id,interval,bytes,bits/s)", RULE))
    return lines, problems


def transfers(lines: list[Line]) -> dict[str, list[Line]]:
    """id → the lines that describe it: the receiver's when there are any, else the sender's. The
    14-field lines of an id are the sender's when one of them has a total of −1 (iperf 2.1's client)."""
    by_id: dict[str, list[Line]] = {}
    for ln in lines:
        by_id.setdefault(ln.ident, []).append(ln)
    out = {}
    for ident, group in by_id.items():
        udp = [ln for ln in group if ln.udp is not None]
        sending = any(ln.udp[2].startswith("-") for ln in udp)
        for ln in udp:
            ln.receiver = not sending
        received = [ln for ln in udp if ln.receiver]
        out[ident] = received or [ln for ln in group if ln.udp is None] or group
    return out


def _whole(group: list[Line]) -> Line:
    """The whole-run line: the longest interval starting at 0 (the last such line wins a tie)."""
    first = [ln for ln in group if float(ln.start) == 0]
    return max(first or group, key=lambda ln: (float(ln.end) - float(ln.start), ln.n))


def _family(ln: Line) -> str | None:
    try:
        return f"ipv{ipaddress.ip_address(ln.local.rsplit(':', 1)[0]).version}"
    except ValueError:
        return None


def _values(ln: Line, frames: bool) -> dict:
    values: dict = {"goodput": (ln.bps, "bps")}
    if ln.receiver:
        jitter, lost, total, _pct, ooo = ln.udp
        values["interarrival_jitter"] = (jitter, "ms")
        if frames:
            values.update({"lost": (lost, "frames"), "rx": (str(int(total) - int(lost)), "frames"), "out_of_sequence": (ooo, "frames")})
    return values


def _frames(group: list[Line]) -> bool:
    """Whether the transfer's datagrams are one frame each: bytes ÷ datagrams received, whole run."""
    whole = _whole(group)
    if not whole.receiver:
        return False
    got = int(whole.udp[2]) - int(whole.udp[1])
    return got > 0 and one_frame(whole.bytes / got, _family(whole))


def convert(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    lines, problems = read(data, file)
    if not lines:
        return [], problems, 0
    keys = base_keys(spec, test.id)
    groups = transfers(lines)
    rows = []
    for ident, group in groups.items():
        port = {"port": f"id {ident}"} if len(groups) > 1 else {}
        whole, frames = _whole(group), _frames(group)
        for ln in group:
            if ln is whole:
                duration = Figure.parse(ln.end).value - Figure.parse(ln.start).value
                values = {**_values(ln, frames), "duration": (str(duration), "s") if duration > 0 else (None, "s")}
                rows.append(row("measurements", file, ln.n, {**keys, **port, "trial": 1}, values))
            else:
                rows.append(row("samples", file, ln.n, {**keys, **port, "t_s": Figure.parse(ln.start)}, _values(ln, frames)))
    return rows, problems, len(rows)  # a sender's lines of an id whose receiver reported are not read


def sniff(head: bytes, name: str) -> float:
    text = head.decode("utf-8", "replace")
    lines = [ln.strip() for ln in text.splitlines()[:50] if ln.strip() and ln.strip()[:1].isdigit()]
    return 0.9 if lines and all(isinstance(_line(0, ln), Line) for ln in lines[:-1] or lines) else 0.0


def describe(data: bytes, name: str) -> ImportPlan:
    plan = ImportPlan("iperf2")
    lines, plan.problems = read(data, name)
    if not lines:
        return plan
    udp = any(ln.udp is not None for ln in lines)
    groups = transfers(lines)
    side = ("the receiver's reports" if any(ln.receiver for g in groups.values() for ln in g) else
            "the sender's reports" if udp else "the reports of the host that wrote the file (a TCP line does not say whether it sent or received)")
    fields = {"title": f"iperf 2 {'UDP' if udp else 'TCP'}", "rfc": ["vendor"], "direction": "unidirectional",
              "description": f"iperf 2 {'UDP' if udp else 'TCP'} run{'s' if len(groups) > 1 else ''} ({len(groups)} transfer id{'s' if len(groups) > 1 else ''}); "
                             f"the figures are {side} (`iperf -y C`).", "methodology": {"search": "fixed-rate", "trials": 1}}
    family = _family(lines[0])
    if family:
        fields["address_family"] = family
    plan.tests.append(TestPlan("udp" if udp else "tcp", fields))
    plan.instrument = {"vendor": "iperf2 (open source)", "product": "iperf 2"}
    days = sorted({f"{ln.stamp[:4]}-{ln.stamp[4:6]}-{ln.stamp[6:8]}" for ln in lines if ln.stamp[:4] > "1970"})
    try:
        for d in days:
            datetime.date.fromisoformat(d)
    except ValueError:
        days = []
    if days:
        plan.campaign = {"start": days[0], "end": days[-1]}
        plan.source = {"published": days[-1], "publication_kind": "test-run"}
    plan.unstated = ["instrument.software"]
    return plan


IMPORTER = Importer(
    summary="iperf 2 CSV reports (iperf -y C, TCP or UDP, client or server, -P, -e): goodput per interval and per run, UDP jitter, loss and out of order from the receiver's reports",
    sniff=sniff, describe=describe, convert=convert, kinds=("csv", "text"),
    examples=("docs/importers/examples/iperf2/udp-server.csv", "docs/importers/examples/iperf2/tcp-client.csv"),
)
