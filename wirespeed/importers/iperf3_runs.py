"""iperf3 --json files as runs: one object, a JSON array of objects, or several objects one after the
other (what loops of `iperf3 -J >> log` and wrappers write), from iperf 3.0.7 to 3.1x.

A run is read from the point of view of the host that wrote it. The client's file holds both sides'
figures (iperf3 exchanges results at the end of a test); the server's file only the ones it measured
itself: iperf3 writes 0 for everything else, which this module turns into "not measured", never 0.
Which side sends is fixed by the role and `-R` (`test_start.reverse`): the `sender` flags of the end
sums differ between versions and protocols, so only the per-stream and per-interval flags are used.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass

from wirespeed.importers.common import NAN, json_decoder, number, parse_json
from wirespeed.importers.datagrams import one_frame
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8
from wirespeed.resultset.nesting import json_depth_problem

RULE = "import.iperf3"
SHAPE = "not iperf3 --json output: expected an object with 'start', 'intervals' and 'end' (or a JSON array or a sequence of them)"


def obj(value) -> dict:
    return value if isinstance(value, dict) else {}


def seq(value) -> list:
    return value if isinstance(value, list) else []


@dataclass
class Run:
    """One iperf3 test as its JSON states it."""

    doc: dict
    where: str  # "" for a file of one run, "[2]" for the third of several (JSON paths start with it)
    client: bool  # written by the client (start.connecting_to), not the server (start.accepted_connection)
    reverse: bool  # -R: the server sends
    bidir: bool  # --bidir: both send at once
    udp: bool

    @property
    def start(self) -> dict:
        return self.doc["start"]

    @property
    def test_start(self) -> dict:
        return obj(self.start.get("test_start"))

    def family(self) -> str | None:
        """ipv4 or ipv6, from the addresses the run connected (None when they are names)."""
        hosts = [obj(self.start.get("connecting_to")).get("host")] + [obj(c).get("local_host") for c in seq(self.start.get("connected"))]
        for host in hosts:
            try:
                return f"ipv{ipaddress.ip_address(str(host).split('%')[0]).version}"
            except ValueError:
                continue
        return None

    def datagrams_are_frames(self) -> bool:
        """Whether each UDP datagram (test_start.blksize bytes) is one frame (wirespeed.importers.datagrams)."""
        return one_frame(number(self.test_start, "blksize"), self.family())

    def forward(self) -> str:
        """The direction of the run's main flow (end.sum_sent/sum_received, interval.sum)."""
        return "server->client" if self.reverse else "client->server"

    def sends(self, direction: str) -> bool:
        """Whether the host that wrote the file sends in `direction`."""
        return self.client == (direction == "client->server")

    def knows(self, direction: str, sender_side: bool) -> bool:
        """Whether the file holds a measured figure of the sender (or receiver) side of `direction`:
        its own side always; the other side only in a client's file (results are exchanged)."""
        return self.client or self.sends(direction) == sender_side


def _decode(data: bytes, file: str) -> tuple[list | None, list[Problem]]:
    """The JSON values of the file: one, or several written one after the other."""
    doc, problems = parse_json(data, file)
    if doc is not None:
        return (doc if isinstance(doc, list) else [doc]), []
    if problems and problems[0].rule != "import.json":  # a limit, not a sequence of values: said as it is
        return None, problems
    text, _ = decode_utf8(data, file)
    if text is None or json_depth_problem(text, file):
        return None, problems
    text = NAN.sub(r"\1null", text) if NAN.search(text) else text
    decoder, values, pos = json_decoder(), [], 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos >= len(text):
            return values, []
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            return None, [Problem(file, exc.lineno, "", f"not valid JSON: {exc.msg} (column {exc.colno})", "import.json")]
        except ValueError as exc:  # a number past the digit limit
            return None, [Problem(file, None, "", str(exc), "limit.number")]
        values.append(value)


def runs(data: bytes, file: str) -> tuple[list[Run], list[Problem]]:
    """Every run of the file, or one problem naming the first that is not a finished iperf3 run."""
    values, problems = _decode(data, file)
    if values is None:
        return [], _truncated(data, file, problems)
    out = []
    for i, doc in enumerate(values):
        where = f"[{i}]" if len(values) > 1 else ""
        if not isinstance(doc, dict) or not {"start", "intervals", "end"} & set(doc):
            return [], [Problem(file, None, where, SHAPE, RULE)]
        if doc.get("error"):
            return [], [Problem(file, None, f"{where}.error".lstrip("."), f"iperf3 reported an error: {str(doc['error'])[:200]} (the run did not finish)", RULE)]
        if not isinstance(doc.get("start"), dict) or not isinstance(doc.get("intervals"), list) or not isinstance(doc.get("end"), dict):
            return [], [Problem(file, None, where, SHAPE, RULE)]
        start, end = doc["start"], doc["end"]
        if not any(isinstance(end.get(k), dict) for k in ("sum_sent", "sum_received", "sum")):
            return [], [Problem(file, None, f"{where}.end".lstrip("."), "no summary (sum_sent, sum_received or sum): the run did not finish", RULE)]
        ts = obj(start.get("test_start"))
        proto = str(ts.get("protocol", "TCP")).strip().upper()
        bidir = bool(ts.get("bidir")) or "sum_sent_bidir_reverse" in end or "sum_received_bidir_reverse" in end
        out.append(Run(doc, where, "accepted_connection" not in start, bool(ts.get("reverse")), bidir, proto == "UDP"))
    if not out:
        return [], [Problem(file, None, "", f"no run in the file ({SHAPE})", RULE)]
    return out, []


def _truncated(data: bytes, file: str, problems: list[Problem]) -> list[Problem]:
    """A JSON error at the very end of the text is a run cut short (an interrupted iperf3, a full
    disk): say so. Any other error is left as the JSON reader said it."""
    if not problems or problems[0].rule != "import.json":
        return problems
    text = data.decode("utf-8", "replace")
    text = NAN.sub(r"\1null", text).rstrip()
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text) or exc.msg.startswith("Unterminated string"):
            line = text.count("\n") + 1
            return [Problem(file, line, "", f"the JSON stops at line {line} before it closes: a truncated or interrupted iperf3 run", RULE)]
    except ValueError:
        pass
    return problems


def end_sums(run: Run) -> dict[str, tuple[dict, dict]]:
    """direction → (sender's sum, receiver's sum), each {} where the file holds no measured figure."""
    end = run.doc["end"]
    forward = run.forward()
    other = "client->server" if forward == "server->client" else "server->client"
    pairs = {forward: (obj(end.get("sum_sent")) or obj(end.get("sum")), obj(end.get("sum_received")) or obj(end.get("sum")))}
    if run.bidir:
        pairs[other] = (obj(end.get("sum_sent_bidir_reverse")), obj(end.get("sum_received_bidir_reverse")))
    out = {}
    for direction, (sent, received) in pairs.items():
        sent = sent if run.knows(direction, True) and _measured(sent) else {}
        received = received if run.knows(direction, False) and _measured(received) else {}
        out[direction] = (sent, received)
    return out


def _measured(s: dict) -> bool:
    """A sum with something in it: iperf3 writes a side it did not measure as all zeros."""
    return bool(number(s, "bytes") or number(s, "packets") or number(s, "bits_per_second"))


def sender_streams(run: Run, direction: str) -> list[dict]:
    """The end.streams[].sender blocks of `direction` that the file's host sent itself (the only ones
    whose RTT and congestion window were measured: the others' are 0, or the receiving socket's)."""
    out = []
    for s in seq(run.doc["end"].get("streams")):
        block = obj(obj(s).get("sender"))
        flag = block.get("sender")
        local = flag if isinstance(flag, bool) else run.sends(run.forward())
        if block and local and run.sends(direction):
            out.append(block)
    return out


def udp_streams(run: Run, direction: str) -> list[dict]:
    """The end.streams[].udp blocks that the file's host received in `direction` (out of order is
    counted by the receiver only)."""
    out = []
    for s in seq(run.doc["end"].get("streams")):
        block = obj(obj(s).get("udp"))
        flag = block.get("sender")
        local_sends = flag if isinstance(flag, bool) else run.sends(run.forward())
        if block and not local_sends and not run.sends(direction):
            out.append(block)
    return out


def interval_sums(run: Run, interval: dict) -> list[tuple[str, dict, list[dict]]]:
    """(direction, sum, the streams of that direction) of one interval: `sum` is the forward flow,
    `sum_bidir_reverse` the other one of a --bidir run."""
    forward = run.forward()
    other = "client->server" if forward == "server->client" else "server->client"
    streams = [obj(x) for x in seq(interval.get("streams")) if isinstance(x, dict)]
    out = []
    for key, direction in (("sum", forward), ("sum_bidir_reverse", other)):
        s = obj(interval.get(key))
        if not s:
            continue
        mine = run.sends(direction)
        own = [x for x in streams if x.get("sender", mine) == mine] if run.bidir else streams
        out.append((direction, s, own))
    return out
