"""Collector: a T-Rex-style rate-ramp loadtest through Linux network namespaces on this machine.

ws-gen 198.18.0.1 (veth ws-g0) <-> ws-dut 198.18.0.2 (ws-d0) | 198.19.0.2 (ws-d1) <-> ws-sink 198.19.0.1
(ws-s0). veth has no line rate of its own, so the generator's port is given one: a tbf shaper on ws-g0's
egress at the port speed in layer-1 bytes, so no second can carry more than the line rate. ws-dut routes
IPv4; a tbf shaper on its egress toward the sink (dut_limit_pct of the port speed in layer-1 bytes, 50 ms
of queue) makes it a router that cannot keep up: above the limit it drops.
The load is iperf3 UDP: one more constant-rate client starts every second of the ramp (none restarts),
so step k (from 1) offers (k - 0.5)/N of the target; a last client tops up to 100 % for the hold.
Frames are counted every second from /proc/<pid>/net/dev of a helper process in each namespace: sent on
ws-g0 (tx, plus veth tx_dropped: frames ws-dut's input queue refused), received on ws-s0, and lost as
the device counts them: ws-g0 tx_dropped, ws-d0 rx_dropped, ws-d1 tx_dropped, ws-s0 rx_dropped and the
DUT shaper's drops (tc -s). Counters are read while the stream runs, so a frame sent at the end of one
second may be received in the next: sent − received of one second is not a loss (it can be −1), the
device's drop count is. veth counts no FCS: a frame is bytes + 4, plus 20 bytes of preamble and gap at
layer 1. Round-trip latency: ICMP echoes (98-byte Ethernet frames) every 2 ms (raw socket, kernel
receive timestamps) in the warm-up and in an extra phase at the hold rate after the hold, outside the
samples so that echo frames do not enter the frame counts; a test of their own in the set.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime as dt
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any, Callable

import numpy as np

import wirespeed
from wirespeed.capture.percentiles import percentiles
from wirespeed.collectors import netns_ramp_set as ramp_set
from wirespeed.collectors.netns_ramp_set import ECHO_FRAME, PING_GAP_S, PING_MAX, SHAPER_LATENCY_MS, WARMUP_PCT
from wirespeed.engine.linerate import parse_speed, port_fps
from wirespeed.system import locking

NAMESPACES = ("ws-gen", "ws-dut", "ws-sink")
GEN_IP, SINK_IP = "198.18.0.1", "198.19.0.1"
NON_PAYLOAD_BYTES = 46  # Ethernet header 14 + FCS 4 + IPv4 20 + UDP 8
BASE_PORT = 5301
GENERATOR_TOLERANCE = 0.10  # a second whose sent frames miss the offered rate by more fails the run
READ_WINDOW_S, READ_TRIES = 0.001, 100  # the counters of one reading are read within 1 ms of one another (0.1 % of a second: the clock tolerance)
INTERVAL_S = (0.95, 1.05)  # a reading more than 50 ms off its second means the machine held the collector back: nothing is written
NICE = -10  # load processes keep their pace on a machine shared with other work
LOCK_FILE = locking.NETNS_LOCK
BUCKET_EDGES_US = [*range(0, 100, 10), *range(100, 200, 25), *range(200, 1000, 50), *range(1000, 5000, 250),
                   *range(5000, 20000, 1000), *range(20000, 100000, 2500), 100000, 200000, 500000, 1000000]

PING_HELPER = r"""
import json, os, select, socket, struct, sys, time
TS = getattr(socket, "SO_TIMESTAMPNS", 35)
dst, count, gap = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
s.setsockopt(socket.SOL_SOCKET, TS, 1)
ident, sent, rtt, seq = os.getpid() & 0xFFFF, {}, {}, 0
fold = lambda t: (t >> 16) + (t & 0xFFFF)
t0 = time.monotonic(); end = t0 + count * gap + 1.0
while time.monotonic() < end and (seq < count or len(rtt) < len(sent)):
    if seq < count and time.monotonic() >= t0 + seq * gap:
        body = struct.pack("!HH", ident, seq) + bytes(52)
        pkt = struct.pack("!BBH", 8, 0, ~fold(fold(sum(struct.unpack("!30H", b"\x08\0\0\0" + body)))) & 0xFFFF) + body
        sent[seq] = time.time_ns(); s.sendto(pkt, (dst, 0)); seq += 1
    elif select.select([s], [], [], max(0.0, min(end, t0 + seq * gap if seq < count else end) - time.monotonic()))[0]:
        data, anc, _, _ = s.recvmsg(2048, 64)
        ts = next((struct.unpack("qq", d[:16]) for l, t, d in anc if l == socket.SOL_SOCKET and t == TS), None)
        typ, _, _, rid, rseq = struct.unpack("!BBHHH", data[(data[0] & 15) * 4:(data[0] & 15) * 4 + 8])
        if typ == 0 and rid == ident and rseq in sent and rseq not in rtt:
            rtt[rseq] = (ts[0] * 10**9 + ts[1] if ts else time.time_ns()) - sent[rseq]
json.dump({"tool": "wirespeed ICMP echo helper (raw socket, SO_TIMESTAMPNS receive time)", "dst": dst, "gap_s": gap,
           "sent": seq, "received": len(rtt), "rtt_ns": [[k, rtt[k]] for k in sorted(rtt)]}, sys.stdout)
"""


class CollectorError(Exception):
    """The collector cannot run or failed; the message is one line saying why."""


def _run(argv: list[str], log: list[str] | None = None) -> str:
    """Run a command, bounded in time; raise CollectorError with its first error line on failure."""
    if log is not None:
        log.append(" ".join(argv))
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=15)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CollectorError(f"{' '.join(argv[:6])}: {exc}") from None
    if p.returncode:
        raise CollectorError(f"{' '.join(argv)}: {(p.stderr.strip() or p.stdout.strip() or f'exit {p.returncode}').splitlines()[0]}")
    return p.stdout


def _nsx(ns: str, *argv: str, nice: bool = False) -> list[str]:
    """The command line that runs argv inside namespace ns (with nice: at load-process priority)."""
    return ["ip", "netns", "exec", ns, *(["nice", "-n", str(NICE)] if nice else []), *argv]


def _cleanup() -> None:
    """Delete the namespaces (and with them the veths), ending processes left inside them."""
    present = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=10).stdout.split()
    for ns in (ns for ns in NAMESPACES if ns in present):
        for pid in subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True, timeout=10).stdout.split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), 9)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)


def _setup(line_bps: float, limit_bps: float, log: list[str]) -> None:
    """Create the three namespaces, the two veth links, routes, forwarding, the generator port's line rate and the DUT's shaper."""
    for ns in NAMESPACES:
        _run(["ip", "netns", "add", ns], log)
    _run(["ip", "link", "add", "ws-g0", "netns", "ws-gen", "type", "veth", "peer", "name", "ws-d0", "netns", "ws-dut"], log)
    _run(["ip", "link", "add", "ws-d1", "netns", "ws-dut", "type", "veth", "peer", "name", "ws-s0", "netns", "ws-sink"], log)
    for ns, dev, addr in (("ws-gen", "ws-g0", GEN_IP), ("ws-dut", "ws-d0", "198.18.0.2"), ("ws-dut", "ws-d1", "198.19.0.2"), ("ws-sink", "ws-s0", SINK_IP)):
        _run(["ip", "-n", ns, "addr", "add", f"{addr}/24", "dev", dev], log)
        _run(["ip", "-n", ns, "link", "set", dev, "up"], log)
    _run(["ip", "-n", "ws-gen", "route", "add", "198.19.0.0/24", "via", "198.18.0.2"], log)
    _run(["ip", "-n", "ws-sink", "route", "add", "198.18.0.0/24", "via", "198.19.0.2"], log)
    _run(_nsx("ws-dut", "sysctl", "-qw", "net.ipv4.ip_forward=1"), log)
    # the generator port's line rate: a policer more than a queue (1 ms), so that echoes wait in the DUT's queue, not the generator's
    _run(_nsx("ws-gen", "tc", "qdisc", "add", "dev", "ws-g0", "root", "tbf", "rate", f"{int(line_bps)}bit", "burst", "32k", "latency", "1ms", "overhead", "24"), log)
    _run(_nsx("ws-dut", "tc", "qdisc", "add", "dev", "ws-d1", "root", "tbf", "rate", f"{int(limit_bps)}bit", "burst", "32k", "latency", f"{SHAPER_LATENCY_MS}ms", "overhead", "24"), log)


class _QdiscDrops:
    """The drop counter of a device's root qdisc, read through one long-lived `tc -batch` in its namespace (a query
    takes tens of µs, where starting tc takes milliseconds: it is read with the interface counters, in one window)."""

    def __init__(self, ns: str, dev: str, procs: list[subprocess.Popen]):
        self.dev = dev
        # at the readings' real-time priority (it answers within their 1 ms window; it waits on its input otherwise)
        self.proc = subprocess.Popen(_nsx(ns, "chrt", "-f", "10", "stdbuf", "-oL", "tc", "-s", "-j", "-batch", "-"), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        procs.append(self.proc)
        self.read()

    def read(self) -> int:
        self.proc.stdin.write(f"qdisc show dev {self.dev}\n")
        self.proc.stdin.flush()
        if not select.select([self.proc.stdout], [], [], 5)[0]:
            raise CollectorError(f"tc did not report the qdisc of {self.dev} within 5 s")
        return sum(int(q.get("drops", 0)) for q in json.loads(self.proc.stdout.readline() or "[]") if q.get("root"))


@contextlib.contextmanager
def _punctual():
    """Run the block at a real-time priority (SCHED_FIFO 10), so that a busy machine does not hold back the readings
    taken once a second (a few hundred µs each); the processes it starts run as usual (SCHED_RESET_ON_FORK)."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(10))
        raised = True
    except (OSError, AttributeError):  # not allowed here: read at the usual priority, the interval check still holds
        raised = False
    try:
        yield
    finally:
        if raised:
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))


def _qdisc_drops(ns: str, dev: str) -> int:
    """Frames the root qdisc of a device has dropped so far (tc -s -j)."""
    out = json.loads(_run(_nsx(ns, "tc", "-s", "-j", "qdisc", "show", "dev", dev)) or "[]")
    return sum(int(q.get("drops", 0)) for q in out if q.get("root"))


class _Counters:
    """Interface counters of one device inside a namespace, via a helper process living there."""

    def __init__(self, ns: str, dev: str, life_s: float, procs: list[subprocess.Popen]):
        self.dev, self.proc = dev, subprocess.Popen(_nsx(ns, "sleep", str(int(life_s))))
        procs.append(self.proc)
        for _ in range(150):  # until the helper has entered the namespace, at most 3 s
            with contextlib.suppress(CollectorError, OSError):
                self.read()
                return
            time.sleep(0.02)
        raise CollectorError(f"cannot read the counters of {dev} in {ns}")

    def read(self) -> list[int]:
        """The 16 cumulative /proc/net/dev counters: rx bytes, packets, errs, drop, ... then tx at 8-15."""
        with open(f"/proc/{self.proc.pid}/net/dev") as f:
            for line in f:
                name, _, rest = line.partition(":")
                if name.strip() == self.dev:
                    return [int(x) for x in rest.split()]
        raise CollectorError(f"{self.dev} is not in /proc/{self.proc.pid}/net/dev")

    def wait_listening(self, ports: list[int], timeout: float = 5) -> None:
        """Wait (bounded) until TCP listeners exist on all ports in this namespace."""
        want, deadline = {f"{p:04X}" for p in ports}, time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(f"/proc/{self.proc.pid}/net/tcp") as f:
                if want <= {ln.split()[1].split(":")[1] for ln in list(f)[1:] if ln.split()[3] == "0A"}:
                    return
            time.sleep(0.05)
        raise CollectorError(f"iperf3 servers did not listen within {timeout:g} s")


def _write_csv(path: Path, header: str, rows: list[list[Any]]) -> None:
    """A plain CSV table (no cell needs quoting: ids are slugs, the rest numbers)."""
    path.write_text("".join(",".join(map(str, r)) + "\n" for r in [header.split(","), *rows]), encoding="utf-8")



def _histogram(rtts_ns: list[int]) -> list[tuple[int, int, int]]:
    """(low_us, high_us, count) for every bucket from the first to the last non-empty one."""
    counts = [0] * (len(BUCKET_EDGES_US) - 1)
    for r in rtts_ns:
        counts[next((i for i in range(len(counts)) if r / 1000 < BUCKET_EDGES_US[i + 1]), len(counts) - 1)] += 1
    used = [i for i, c in enumerate(counts) if c]
    return [(BUCKET_EDGES_US[i], BUCKET_EDGES_US[i + 1], counts[i]) for i in range(used[0], used[-1] + 1)] if used else []


def _validate(folder: Path) -> None:
    """Validate result.toml against the format-1 JSON Schema (raises CollectorError)."""
    import jsonschema

    schema = json.loads((Path(wirespeed.__file__).parent / "schema" / "result.v1.schema.json").read_text("utf-8"))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(tomllib.loads((folder / "result.toml").read_text("utf-8"))))
    if errors:
        raise CollectorError(f"result.toml does not validate: {errors[0].message}")


def run(out_dir: Path, slug: str, *, port_speed: str = "500M", frame_size: int = 1518, rampup_s: int = 30, hold_s: int = 10,
        warmup_s: int = 5, dut_limit_pct: float = 60.0, progress: Callable[[int, int], None] | None = None,
        provenance: dict[str, str | None] | None = None) -> Path:
    """A T-Rex-style ramp loadtest (warm-up, ramp, hold) through a shaped Linux router in network namespaces (root).

    Runs the ramp and writes the result set folder ``out_dir/slug`` atomically; returns its path. The
    set's provenance comes from `provenance` (the --publisher, --licence, --location, --status flags)
    and the machine (wirespeed.collectors.provenance).

    port_speed must be a rate the machine can generate while the DUT drops the excess (500M with 1518-byte
    frames on a 2-core VM). progress(done, total) is called every second. Raises CollectorError when the
    run cannot be done or the generator missed its offered rate (a busy machine); nothing is written then.
    """
    try:
        link = parse_speed(port_speed)
    except ValueError as exc:
        raise CollectorError(str(exc)) from None
    if link.media != "ethernet" or not 64 <= frame_size <= 1518:
        raise CollectorError(f"need an Ethernet port speed and a 64-1518-byte frame, got {port_speed} / {frame_size}")
    if not (2 <= rampup_s <= 60 and 1 <= hold_s <= 120 and 0 <= warmup_s <= 60 and 0 < dut_limit_pct <= 100):
        raise CollectorError("rampup_s must be 2-60, hold_s 1-120, warmup_s 0-60 and dut_limit_pct in (0, 100]")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug) or len(slug) > 80:
        raise CollectorError(f"slug {slug!r} is not lower-case words joined by hyphens")
    from wirespeed.collectors import provenance as prov

    try:
        lab = prov.resolve(provenance, None, "netns-ramp")
    except prov.ProvenanceError as exc:
        raise CollectorError(str(exc)) from None
    if os.geteuid() != 0:
        raise CollectorError("network namespaces need root")
    if missing := [t for t in ("ip", "iperf3", "tc") if shutil.which(t) is None]:
        raise CollectorError(f"not installed: {', '.join(missing)}")
    out_dir, final = Path(out_dir), Path(out_dir) / slug
    if final.exists():
        raise CollectorError(f"{final} already exists")
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        with locking.exclusive(LOCK_FILE):
            return _run_locked(out_dir, slug, final, link, frame_size, rampup_s, hold_s, warmup_s, dut_limit_pct, progress, lab)
    except locking.Busy as exc:
        raise CollectorError(str(exc)) from None


def _run_locked(out_dir: Path, slug: str, final: Path, link: Any, frame_size: int, rampup_s: int, hold_s: int, warmup_s: int,
                dut_limit_pct: float, progress: Callable[[int, int], None] | None, lab: Any) -> Path:
    work = out_dir / f".{slug}.tmp-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    (work / "raw").mkdir(parents=True)
    procs: list[subprocess.Popen] = []
    try:
        _measure(work, slug, link, frame_size, rampup_s, hold_s, warmup_s, dut_limit_pct, progress, procs)
        from wirespeed.collectors.provenance import stamp_folder

        stamp_folder(work, lab)
        _validate(work)
        try:
            os.rename(work, final)
        except OSError as exc:
            raise CollectorError(f"cannot move the result set into place: {exc}") from None
        return final
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        _cleanup()
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=5)
        shutil.rmtree(work, ignore_errors=True)


def _measure(work: Path, slug: str, link: Any, frame_size: int, n: int, hold_s: int, warmup_s: int, limit_pct: float,
             progress: Callable[[int, int], None] | None, procs: list[subprocess.Popen]) -> None:
    """Build the topology, run warm-up, ramp, hold and latency phase, and write every file into `work`."""
    payload, line_fps = frame_size - NON_PAYLOAD_BYTES, port_fps(frame_size, link)  # target: 100 % of line rate
    limit_bps, limit_fps = link.bps * limit_pct / 100, line_fps * limit_pct / 100
    lat_s, cpus = min(5, max(2, hold_s)), sorted(os.sched_getaffinity(0))  # lat_s: latency phase at the hold rate, after the hold
    total_s, start, log = warmup_s + n + hold_s + lat_s, dt.datetime.now(), []
    _cleanup()
    _setup(link.bps, limit_bps, log)
    gen, sink = _Counters("ws-gen", "ws-g0", total_s + 60, procs), _Counters("ws-sink", "ws-s0", total_s + 60, procs)
    dut_in, dut_out = _Counters("ws-dut", "ws-d0", total_s + 60, procs), _Counters("ws-dut", "ws-d1", total_s + 60, procs)

    shaper = _QdiscDrops("ws-dut", "ws-d1", procs)

    def read() -> tuple[float, list[int]]:
        """(time since the ramp start, counters): sent, sent-but-refused, sent bytes, received, received bytes, lost at the DUT.

        The four interface counters and the shaper's drops are read within READ_WINDOW_S of one another and the time is
        the middle of that window (a read the scheduler interrupted is done again), so a one-second figure is off by at
        most the window over the second."""
        for _ in range(READ_TRIES):
            before = time.monotonic()
            g, k, d0, d1, shaped = gen.read(), sink.read(), dut_in.read(), dut_out.read(), shaper.read()
            after = time.monotonic()
            if after - before <= READ_WINDOW_S:
                break
        else:
            raise CollectorError(f"the counters could not be read within {READ_WINDOW_S * 1000:g} ms of one another in {READ_TRIES} tries: "
                                 "machine too busy, nothing written")
        return (before + after) / 2 - t0, [g[9], g[11], g[8], k[1], k[0], g[11] + k[3] + d0[3] + d1[11] + shaped]
    # clients: (name, start second relative to the ramp start, rate in frames/s, duration in s)
    plan = [("warm-up", -warmup_s, line_fps * WARMUP_PCT / 100, warmup_s)] if warmup_s else []
    plan += [(f"ramp-step-{k + 1}", k, line_fps * (0.5 if k == 0 else 1) / n, n - k + hold_s + lat_s) for k in range(n)]
    plan.append(("hold-top-up", n, line_fps * 0.5 / n, hold_s + lat_s))
    bits, ports = [round(rate * payload * 8) for _, _, rate, _ in plan], [BASE_PORT + i for i in range(len(plan))]
    (scratch := work / "scratch").mkdir()
    procs += [subprocess.Popen(_nsx("ws-sink", "iperf3", "-s", "-1", "-B", SINK_IP, "-p", str(port), "-A", str(cpus[-1]), nice=True),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for port in ports]
    sink.wait_listening(ports)
    clients: dict[int, tuple[list[str], float, subprocess.Popen]] = {}
    pings: dict[str, tuple[subprocess.Popen, float]] = {}

    def launch(i: int) -> None:
        argv = ["iperf3", "-c", SINK_IP, "-B", GEN_IP, "-p", str(ports[i]), "-u", "-b", str(bits[i]), "-l", str(payload),
                "-t", str(plan[i][3]), "-i", "0", "-A", str(cpus[0]), "--json"]
        with (scratch / f"c{i}.json").open("w") as f, (scratch / f"c{i}.err").open("w") as e:
            clients[i] = (argv, round(time.monotonic() - t0, 4), subprocess.Popen(_nsx("ws-gen", *argv, nice=True), stdout=f, stderr=e))
        procs.append(clients[i][2])

    def ping(name: str, seconds: int, load: float) -> None:
        count = min(PING_MAX, int((seconds - 0.5) / PING_GAP_S))  # seconds >= 1
        with (scratch / f"rtt-{name}.json").open("w") as f:
            pings[name] = (subprocess.Popen(_nsx("ws-gen", sys.executable, "-c", PING_HELPER, SINK_IP, str(count), str(PING_GAP_S), nice=True), stdout=f), load)
        procs.append(pings[name][0])

    readings: list[tuple[int, float, list[int]]] = []  # (second, t since ramp start, counters)
    cpu: list[tuple[int, int]] = []
    t0 = time.monotonic() + 0.2 + warmup_s  # ramp start
    # the readings keep their second: this thread only reads (at a real-time priority), another starts the processes
    started: list[concurrent.futures.Future] = []
    with _punctual(), concurrent.futures.ThreadPoolExecutor(1) as starter:
        for s in range(-warmup_s, n + hold_s + lat_s + 1):
            time.sleep(max(0.0, t0 + s - time.monotonic()))
            readings.append((s, *read()))
            if s in (0, n + hold_s):  # (busy, total) jiffies of the machine
                v = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
                cpu.append((sum(v) - v[3] - v[4], sum(v)))
            if progress and s > -warmup_s:
                progress(s + warmup_s, total_s)
            for i in (i for i, p in enumerate(plan) if p[1] == s):
                started.append(starter.submit(launch, i))
            if s == -warmup_s and warmup_s:
                started.append(starter.submit(ping, "warm-up", warmup_s, WARMUP_PCT))
            if s == n + hold_s:
                started.append(starter.submit(ping, "latency-phase", lat_s, 100.0))
    for f in started:
        f.result()  # a process that could not be started fails the run here
    for p in [c[2] for c in clients.values()] + [q[0] for q in pings.values()]:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=15)
    if failed := [i for i, c in clients.items() if c[2].returncode != 0]:
        raise CollectorError(f"iperf3 client {plan[failed[0]][0]} failed or hung: {(scratch / f'c{failed[0]}.err').read_text().strip()[-200:]}")
    time.sleep(SHAPER_LATENCY_MS / 1000 * 4)  # every queue drained: what was sent is received or dropped
    _, end_counts = read()
    unaccounted = (end_counts[0] + end_counts[1] - readings[0][2][0] - readings[0][2][1]) - (end_counts[3] - readings[0][2][3]) - (end_counts[5] - readings[0][2][5])
    gen_drops = _qdisc_drops("ws-gen", "ws-g0")
    dut_state = (_run(_nsx("ws-dut", "tc", "-s", "qdisc", "show", "dev", "ws-d1")) + _run(_nsx("ws-dut", "ip", "-s", "link", "show"))
                 + _run(_nsx("ws-gen", "tc", "-s", "qdisc", "show", "dev", "ws-g0")))
    end, busy_pct = dt.datetime.now(), 100 * (cpu[1][0] - cpu[0][0]) / max(1, cpu[1][1] - cpu[0][1])

    # ---- tables: samples per second of ramp + hold; a measurement row per ramp step and one for the hold
    test_id, rtt_id = f"ipv4-ramp-{frame_size}", "icmp-rtt-under-load"
    offered = [sum(b / (payload * 8) for b, (_, at, _, d) in zip(bits, plan) if at <= s < at + d) for s in range(n + hold_s)]
    samples, deltas = [], []
    for (s, ta, a), (_, tb, b) in zip(readings[warmup_s:], readings[warmup_s + 1:warmup_s + n + hold_s + 1]):
        d, (txp, txd, _, rx, _, lost) = tb - ta, (b[j] - a[j] for j in range(6))
        if not INTERVAL_S[0] <= d <= INTERVAL_S[1]:
            raise CollectorError(f"second {s} was read {d:.3f} s after the one before: machine too busy, nothing written")
        tx = txp + txd  # frames the DUT's input queue refused are sent frames the DUT lost
        if abs(tx - offered[s] * d) > GENERATOR_TOLERANCE * offered[s] * d + 200:
            raise CollectorError(f"the generator sent {tx} frames in second {s} against {offered[s] * d:.0f} offered: machine too busy, nothing written")
        deltas.append((tx, rx, lost, d))
        samples.append([test_id, frame_size, s, round(d, 6), round(offered[s], 1), tx, rx, lost, round(tx / d, 1), round(rx / d, 1)])
    meas = [[test_id, frame_size, round(offered[k] / line_fps * 100, 3), 1, round(offered[k], 1), *deltas[k][:3], round(deltas[k][3], 6)] for k in range(n)]
    hold = [sum(col) for col in zip(*deltas[n:])]
    meas.append([test_id, frame_size, round(offered[n] / line_fps * 100, 3), 1, round(offered[n], 1), *hold[:3], round(hold[3], 6)])
    hist, rtt_rows, attachments, rtt_notes = [], [], [], []
    for name, (_, load) in pings.items():
        if not (text := (scratch / f"rtt-{name}.json").read_text()).startswith("{"):
            raise CollectorError(f"the echo helper of the {name} failed: {text[:120]!r}")
        doc = json.loads(text)
        rtts = [r for _, r in doc.get("rtt_ns", [])]
        variant = "warm-up" if name == "warm-up" else "hold"
        hist += [[rtt_id, ECHO_FRAME, variant, lo, hi, c] for lo, hi, c in _histogram(rtts)]
        if rtts:  # every round trip is kept (raw/rtt-*.json): exact statistics, percentiles by nearest rank
            stats = percentiles(np.array(rtts, np.int64))
            rtt_rows.append([rtt_id, ECHO_FRAME, variant, 1, doc.get("sent", 0), doc.get("received", 0), ramp_set.us(min(rtts)), ramp_set.us(sum(rtts) / len(rtts)),
                             ramp_set.us(max(rtts)), *(ramp_set.us(stats[m]) for m in ("latency_p50", "latency_p90", "latency_p99", "latency_p99_9"))])
        shutil.copy(scratch / f"rtt-{name}.json", work / "raw")
        attachments.append({"path": f"raw/rtt-{name}.json", "title": f"Round-trip times (ns, by sequence number) of the ICMP echoes of the {name}"})
        rtt_notes.append(f"{name}: {doc.get('received', 0)} of {doc.get('sent', 0)} echoes answered")
    _write_csv(work / "samples.csv", "test,frame_size,t_s,duration_s,offered_rate_pps,tx_frames,rx_frames,lost_frames,tx_rate_pps,rx_rate_pps", samples)
    _write_csv(work / "measurements.csv", "test,frame_size,load_pct,trial,offered_rate_pps,tx_frames,rx_frames,lost_frames,duration_s", meas)
    _write_csv(work / "round-trips.csv", "test,frame_size,variant,trial,tx_frames,rx_frames,latency_min_us,latency_avg_us,latency_max_us,"
               "latency_p50_us,latency_p90_us,latency_p99_us,latency_p99_9_us", rtt_rows)
    _write_csv(work / "histograms.csv", "test,frame_size,variant,bucket_low_us,bucket_high_us,count_frames", hist)
    _write_csv(work / "raw" / "counters.csv", "second,t_s,ws_g0_tx_packets,ws_g0_tx_dropped,ws_g0_tx_bytes,ws_s0_rx_packets,ws_s0_rx_bytes,dut_lost_frames",
               [[s, round(t, 6), *v] for s, t, v in readings])
    raw_clients = [{"name": plan[i][0], "start_s": plan[i][1], "launched_s": at, "rate_pps": round(bits[i] / (payload * 8), 3), "argv": argv,
                    "exit": p.returncode, "stderr": (scratch / f"c{i}.err").read_text()[:500], "output": json.loads((scratch / f"c{i}.json").read_text())}
                   for i, (argv, at, p) in sorted(clients.items())]
    for name, text in (("iperf3-clients.json", json.dumps(raw_clients, indent=1)), ("setup-commands.txt", "\n".join(log)), ("dut-state-after.txt", dut_state)):
        (work / "raw" / name).write_text(text.rstrip("\n") + "\n")
    shutil.rmtree(scratch)
    attachments += [{"path": f"raw/{p}", "title": t} for p, t in (
        ("iperf3-clients.json", "iperf3 --json output of every client (warm-up, ramp steps, hold top-up) with its command line and launch time"),
        ("counters.csv", "Cumulative counters read every second, all phases (t_s from the ramp start): frames and bytes sent on ws-g0 (and refused by "
                         "ws-dut's input queue), received on ws-s0, and lost as the DUT counts them (veth drops and its shaper's drops)"),
        ("setup-commands.txt", "Commands that built the namespaces, links, routes, the generator port's shaper and the DUT's shaper"),
        ("dut-state-after.txt", "tc -s qdisc and ip -s link of the DUT, and tc -s qdisc of the generator's port, after the run"))]
    doc = ramp_set.document(_run(["iperf3", "--version"]).split()[1], slug, link, frame_size, n, hold_s, warmup_s, lat_s, limit_pct, payload, line_fps, limit_bps, limit_fps, samples, meas, cpus,
                    busy_pct, start, end, rtt_notes, unaccounted, gen_drops, attachments)
    (work / "result.toml").write_text(ramp_set.toml(doc), encoding="utf-8")
