"""Collector: a T-Rex-style rate-ramp loadtest through Linux network namespaces on this machine.

ws-gen 198.18.0.1 (veth ws-g0) <-> ws-dut 198.18.0.2 (ws-d0) | 198.19.0.2 (ws-d1) <-> ws-sink 198.19.0.1
(ws-s0). ws-dut routes IPv4; a tbf shaper on its egress toward the sink (dut_limit_pct of the nominal
speed in layer-1 bytes, 50 ms of queue) makes it a router that cannot keep up: above the limit it drops.
The load is iperf3 UDP: one more constant-rate client starts every second of the ramp (none restarts),
so step k (from 1) offers (k - 0.5)/N of the target; a last client tops up to 100 % for the hold.
Frames are counted every second on ws-g0 (tx, plus veth tx_dropped: frames ws-dut's input queue
refused) and ws-s0 (rx) from /proc/<pid>/net/dev of a helper process in each namespace. veth counts
no FCS: a frame is bytes + 4, plus 20 bytes of preamble and gap at layer 1. Round-trip latency: ICMP
echoes every 2 ms (raw socket, kernel receive timestamps) in the warm-up and in an extra phase at the
hold rate after the hold, outside the samples so that echo frames do not enter the frame counts.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any, Callable

import wirespeed
from wirespeed.engine.linerate import parse_speed, port_fps
from wirespeed.system import locking

NAMESPACES = ("ws-gen", "ws-dut", "ws-sink")
GEN_IP, SINK_IP = "198.18.0.1", "198.19.0.1"
NON_PAYLOAD_BYTES = 46  # Ethernet header 14 + FCS 4 + IPv4 20 + UDP 8
VETH_EXTRA_L1 = 24  # veth counts no FCS: + 4 FCS + 20 preamble/SFD/inter-frame gap per frame
WARMUP_PCT, SHAPER_LATENCY_MS, BASE_PORT = 5.0, 50, 5301
PING_GAP_S, PING_MAX = 0.002, 2000
GENERATOR_TOLERANCE = 0.10  # a second whose sent frames miss the offered rate by more fails the run
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


def _setup(limit_bps: float, log: list[str]) -> None:
    """Create the three namespaces, the two veth links, routes, forwarding and the shaper."""
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
    _run(_nsx("ws-dut", "tc", "qdisc", "add", "dev", "ws-d1", "root", "tbf", "rate", f"{int(limit_bps)}bit", "burst", "32k", "latency", f"{SHAPER_LATENCY_MS}ms", "overhead", "24"), log)


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


def _toml_value(v: Any) -> str:
    """One TOML value: number, boolean, string, array or inline table."""
    if isinstance(v, (bool, int, float)):
        return str(v).lower() if isinstance(v, bool) else repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    return "[" + ", ".join(_toml_value(x) for x in v) + "]"


def _toml(doc: dict[str, Any], path: str = "") -> str:
    """Serialise the result.toml document: scalars first, then tables and top-level arrays of tables."""
    out, later = [], []
    for k, v in doc.items():
        if isinstance(v, dict):
            later.append(f"\n[{path}{k}]\n" + _toml(v, f"{path}{k}."))
        elif not path and isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            later += [f"\n[[{k}]]\n" + _toml(x, f"{k}.") for x in v]
        else:
            out.append(f"{k} = {_toml_value(v)}\n")
    return "".join(out) + "".join(later)


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
    _setup(limit_bps, log)
    gen, sink = _Counters("ws-gen", "ws-g0", total_s + 60, procs), _Counters("ws-sink", "ws-s0", total_s + 60, procs)
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
    for s in range(-warmup_s, n + hold_s + lat_s + 1):
        time.sleep(max(0.0, t0 + s - time.monotonic()))
        g, k = gen.read(), sink.read()
        readings.append((s, time.monotonic() - t0, [g[9], g[11], g[8], k[1], k[3], k[0]]))
        if s in (0, n + hold_s):  # (busy, total) jiffies of the machine
            v = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
            cpu.append((sum(v) - v[3] - v[4], sum(v)))
        if progress and s > -warmup_s:
            progress(s + warmup_s, total_s)
        for i in (i for i, p in enumerate(plan) if p[1] == s):
            launch(i)
        if s == -warmup_s and warmup_s:
            ping("warm-up", warmup_s, WARMUP_PCT)
        if s == n + hold_s:
            ping("latency-phase", lat_s, 100.0)
    for p in [c[2] for c in clients.values()] + [q[0] for q in pings.values()]:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=15)
    if failed := [i for i, c in clients.items() if c[2].returncode != 0]:
        raise CollectorError(f"iperf3 client {plan[failed[0]][0]} failed or hung: {(scratch / f'c{failed[0]}.err').read_text().strip()[-200:]}")
    dut_state = _run(_nsx("ws-dut", "tc", "-s", "qdisc", "show", "dev", "ws-d1")) + _run(_nsx("ws-dut", "ip", "-s", "link", "show"))
    end, busy_pct = dt.datetime.now(), 100 * (cpu[1][0] - cpu[0][0]) / max(1, cpu[1][1] - cpu[0][1])

    # ---- tables: samples per second of ramp + hold; a measurement row per ramp step and one for the hold
    test_id = f"ipv4-ramp-{frame_size}"
    offered = [sum(b / (payload * 8) for b, (_, at, _, d) in zip(bits, plan) if at <= s < at + d) for s in range(n + hold_s)]
    samples, deltas = [], []
    for (s, ta, a), (_, tb, b) in zip(readings[warmup_s:], readings[warmup_s + 1:warmup_s + n + hold_s + 1]):
        d, (txp, txd, txb, rx, _, rxb) = tb - ta, (b[j] - a[j] for j in range(6))
        tx = txp + txd  # frames the DUT's input queue refused are sent frames the DUT lost
        if abs(tx - offered[s] * d) > GENERATOR_TOLERANCE * offered[s] * d + 200:
            raise CollectorError(f"the generator sent {tx} frames in second {s} against {offered[s] * d:.0f} offered: machine too busy, nothing written")
        deltas.append((tx, rx, d))
        samples.append([test_id, frame_size, s, round(offered[s], 1), tx, rx, round(tx / d, 1), round(rx / d, 1),
                        round((txb + txd * (frame_size - 4) + tx * VETH_EXTRA_L1) * 8 / d), round((rxb + rx * VETH_EXTRA_L1) * 8 / d)])
    meas = [[test_id, frame_size, round(offered[k] / line_fps * 100, 3), 1, round(offered[k], 1), *deltas[k][:2], round(deltas[k][2], 4)] for k in range(n)]
    hold = [sum(col) for col in zip(*deltas[n:])]
    meas.append([test_id, frame_size, round(offered[n] / line_fps * 100, 3), 1, round(offered[n], 1), hold[0], hold[1], round(hold[2], 4)])
    hist, attachments, rtt_notes = [], [], []
    for name, (_, load) in pings.items():
        if not (text := (scratch / f"rtt-{name}.json").read_text()).startswith("{"):
            raise CollectorError(f"the echo helper of the {name} failed: {text[:120]!r}")
        doc = json.loads(text)
        hist += [[test_id, frame_size, load, lo, hi, c] for lo, hi, c in _histogram([r for _, r in doc.get("rtt_ns", [])])]
        shutil.copy(scratch / f"rtt-{name}.json", work / "raw")
        attachments.append({"path": f"raw/rtt-{name}.json", "title": f"Round-trip times (ns, by sequence number) of the ICMP echoes of the {name}"})
        rtt_notes.append(f"{name}: {doc.get('received', 0)} of {doc.get('sent', 0)} echoes answered")
    _write_csv(work / "samples.csv", "test,frame_size,t_s,offered_rate_pps,tx_frames,rx_frames,tx_rate_pps,rx_rate_pps,tx_l1_bps,rx_l1_bps", samples)
    _write_csv(work / "measurements.csv", "test,frame_size,load_pct,trial,offered_rate_pps,tx_frames,rx_frames,duration_s", meas)
    _write_csv(work / "histograms.csv", "test,frame_size,load_pct,bucket_low_us,bucket_high_us,count_frames", hist)
    _write_csv(work / "raw" / "counters.csv", "second,t_s,ws_g0_tx_packets,ws_g0_tx_dropped,ws_g0_tx_bytes,ws_s0_rx_packets,ws_s0_rx_dropped,ws_s0_rx_bytes",
               [[s, round(t, 6), *v] for s, t, v in readings])
    raw_clients = [{"name": plan[i][0], "start_s": plan[i][1], "launched_s": at, "rate_pps": round(bits[i] / (payload * 8), 3), "argv": argv,
                    "exit": p.returncode, "stderr": (scratch / f"c{i}.err").read_text()[:500], "output": json.loads((scratch / f"c{i}.json").read_text())}
                   for i, (argv, at, p) in sorted(clients.items())]
    for name, text in (("iperf3-clients.json", json.dumps(raw_clients, indent=1)), ("setup-commands.txt", "\n".join(log)), ("dut-state-after.txt", dut_state)):
        (work / "raw" / name).write_text(text.rstrip("\n") + "\n")
    shutil.rmtree(scratch)
    attachments += [{"path": f"raw/{p}", "title": t} for p, t in (
        ("iperf3-clients.json", "iperf3 --json output of every client (warm-up, ramp steps, hold top-up) with its command line and launch time"),
        ("counters.csv", "Cumulative interface counters of ws-g0 (tx) and ws-s0 (rx) read every second, all phases; t_s from the ramp start"),
        ("setup-commands.txt", "Commands that built the namespaces, links, routes and the DUT shaper"),
        ("dut-state-after.txt", "tc -s qdisc and ip -s link of the DUT after the run (shaper drops)"))]

    # ---- result.toml
    kernel, iperf_ver, d0 = platform.release(), _run(["iperf3", "--version"]).split()[1], start.date().isoformat()
    onset = next((m[2] for m in meas[:n] if m[6] < m[5] * 0.99), None)
    osr = dict(ln.split("=", 1) for ln in Path("/etc/os-release").read_text().splitlines() if "=" in ln) if Path("/etc/os-release").exists() else {}
    os_name = f"{osr.get('NAME', platform.system()).strip(chr(34)).split()[0]} {osr.get('VERSION_ID', '').strip(chr(34))}".strip()
    doc = {
        "format_version": 1, "slug": slug, "title": f"Linux kernel IPv4 forwarding in a network namespace, shaped to {limit_pct:g} % of {link.label}: ramp loadtest",
        "summary": (f"Offered load ramped in {n} one-second steps to 100 % of {link.label} ({line_fps:,.0f} frames/s of {frame_size} bytes) and held {hold_s} s; "
                    f"the generator sent at most {max(r[6] for r in samples):,.0f} frames/s, the shaped DUT forwarded at most {max(r[7] for r in samples):,.0f} "
                    f"frames/s (shaper: {limit_fps:,.0f} frames/s) and " + (f"lost more than 1 % of the frames from the {onset:g} % step on." if onset is not None
                                                                            else "lost no more than 1 % at any step.")),
        "status": "published", "licence": "CC-BY-4.0", "tags": ["software-generator", "network-namespaces"],
        "source": {"kind": "measured", "publisher": "wirespeed", "publication_kind": "test-run", "published": d0, "notes":
                   "Measured by wirespeed.collectors.netns_ramp; every number comes from this run's interface counters and echo timestamps, nothing is smoothed."},
        "campaign": {"start": d0, "end": end.date().isoformat(), "location": f"network namespaces on a {len(cpus)}-core {os_name} VM"},
        "dut": {"vendor": "Linux", "model": f"kernel {kernel} IPv4 forwarding in a network namespace", "kind": "router", "software": [{"name": "Linux kernel", "version": kernel}],
                "notes": f"Namespace ws-dut routes between veth ws-d0 (198.18.0.2/24) and ws-d1 (198.19.0.2/24) with net.ipv4.ip_forward=1. Its egress toward the sink is "
                         f"shaped by tbf rate {int(limit_bps)}bit burst 32k latency {SHAPER_LATENCY_MS}ms overhead 24: {limit_pct:g} % of the {link.label} nominal speed "
                         f"counted in layer-1 bytes ({limit_fps:,.0f} frames/s of {frame_size} bytes); excess frames are tail-dropped."},
        "instrument": {"vendor": "ESnet", "product": "iperf3", "software": [{"name": "iperf3", "version": iperf_ver}, {"name": "wirespeed netns_ramp collector", "version": wirespeed.__version__}],
                       "modules": ["namespace ws-gen, veth ws-g0 198.18.0.1/24 (transmit)", "namespace ws-sink, veth ws-s0 198.19.0.1/24 (receive)"],
                       "notes": f"Rates come from the interface counters of ws-g0 (tx, dropped-on-transmit included) and ws-s0 (rx), read every second; they include the few "
                                f"iperf3 control frames. veth counts frames without the 4-byte FCS, so 4 bytes per frame are added, plus 20 bytes of preamble and inter-frame "
                                f"gap for L1 rates. iperf3 clients ran on CPU {cpus[0]}, servers on CPU {cpus[-1]}; the machine's CPUs were {busy_pct:.0f} % busy during ramp "
                                f"and hold (all processes). Round-trip latency: ICMP echoes (98-byte IP packets) every 2 ms from ws-gen to ws-sink on a raw socket, user-space "
                                f"send time against kernel receive timestamp; " + "; ".join(rtt_notes) + "."},
        "tests": [{
            "id": test_id, "title": f"IPv4 routing, {frame_size}-byte frames, ramp to {link.label}",
            "description": f"{n + 1} iperf3 UDP clients ({payload}-byte payload = {frame_size}-byte Ethernet frame) send from ws-gen to ws-sink through ws-dut: one more "
                           f"starts every second of the ramp, so step k offers (k - 0.5)/{n} of the target, and a last one tops up to 100 % for the hold. The warm-up "
                           f"offers {WARMUP_PCT:g} % for {warmup_s} s and is not in the samples. samples.csv t_s is the start of each one-second interval.",
            "rfc": ["loadtest-ramp"], "scenario": "ipv4-routing", "topology": "port-pairs", "ports": 2, "port_speed": link.label, "media": "ethernet",
            "direction": "unidirectional", "address_family": "ipv4", "flows": n + 1,
            "methodology": {"frame_sizes": [frame_size], "trials": 1, "warmup_s": warmup_s, "rampup_s": n, "hold_s": hold_s, "ramp_target_pct": 100, "search": "ramp",
                            "frame_size_convention": "ethernet-frame", "latency_method": "round-trip",
                            "notes": f"measurements.csv has one row per one-second ramp step and one for the whole hold. histograms.csv has the round-trip times during the "
                                     f"warm-up (load {WARMUP_PCT:g} %) and during {lat_s} s at the hold rate right after the hold (load 100 %), which are not in the "
                                     f"samples so that the 500 echoes/s do not enter the frame counts."}}],
        "files": {"measurements": ["measurements.csv"], "samples": ["samples.csv"], "histograms": ["histograms.csv"], "attachments": attachments},
    }
    (work / "result.toml").write_text(_toml(doc), encoding="utf-8")
