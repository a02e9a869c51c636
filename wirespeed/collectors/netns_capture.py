"""Capture pair collector: UDP frames of several sizes through a Linux router namespace, captured on both sides.

    sudo .venv/bin/python -m wirespeed.collectors.netns_capture OUT_DIR [--frames 5000] [--rate 10000]

Namespaces (addresses in 198.18.0.0/15 only):

    wsc-tx  wsc-t0 198.18.0.1/24  ──veth──  wsc-d0 198.18.0.2/24  wsc-dut (ip_forward=1)
    wsc-rx  wsc-r0 198.19.0.1/24  ──veth──  wsc-d1 198.19.0.2/24

A sender in wsc-tx sends, for each frame size, `frames` UDP datagrams to 198.19.0.1:7 paced at `rate`
per second, each carrying the wirespeed signature (decode.py: "WSPD", sequence number, transmit
time). tcpdump captures them leaving wsc-t0 (tx.pcap) and arriving at wsc-r0 (rx.pcap) with
nanosecond timestamps (veth offers only host timestamps: both sides stamp with the same kernel clock,
so the clock offset is 0) and a snapshot length of 96 bytes (headers and signature; the frame
length on the wire is kept). OUT_DIR receives tx.pcap, rx.pcap, setup-commands.txt and run.json
(sizes, rate, tcpdump's own capture and drop counts, kernel). Namespaces are removed on exit.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

NS = ("wsc-tx", "wsc-dut", "wsc-rx")
SIZES = (64, 128, 256, 512, 1024, 1280, 1518)
SNAPLEN = 96
SENDER = r"""
import socket, struct, sys, time
sizes = [int(x) for x in sys.argv[1].split(",")]; n = int(sys.argv[2]); rate = float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
seq = 0
for size in sizes:
    room = size - 4 - 14 - 20 - 8
    gap = int(1e9 / rate); t = time.perf_counter_ns()
    for i in range(n):
        while time.perf_counter_ns() < t:
            pass
        sig = b"WSPD" + struct.pack(">Q", seq) + (struct.pack(">Q", time.time_ns()) if room >= 20 else b"")
        s.sendto(sig[:room].ljust(room, b"\0"), ("198.19.0.1", 7))
        seq += 1; t += gap
    time.sleep(0.2)
"""
SINK = "import socket\ns=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.bind(('198.19.0.1', 7))\nwhile True: s.recv(65536)\n"


def _run(argv: list[str], log: list[str]) -> None:
    log.append(" ".join(argv))
    subprocess.run(argv, check=True, capture_output=True, timeout=20)


def _ns(ns: str, *argv: str) -> list[str]:
    return ["ip", "netns", "exec", ns, *argv]


def cleanup() -> None:
    present = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=10).stdout.split()
    for ns in NS:
        if ns in present:
            for pid in subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True, timeout=10).stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)


def setup(log: list[str]) -> None:
    for ns in NS:
        _run(["ip", "netns", "add", ns], log)
    _run(["ip", "link", "add", "wsc-t0", "netns", "wsc-tx", "type", "veth", "peer", "name", "wsc-d0", "netns", "wsc-dut"], log)
    _run(["ip", "link", "add", "wsc-d1", "netns", "wsc-dut", "type", "veth", "peer", "name", "wsc-r0", "netns", "wsc-rx"], log)
    for ns, dev, addr in (("wsc-tx", "wsc-t0", "198.18.0.1/24"), ("wsc-dut", "wsc-d0", "198.18.0.2/24"),
                          ("wsc-dut", "wsc-d1", "198.19.0.2/24"), ("wsc-rx", "wsc-r0", "198.19.0.1/24")):
        _run(_ns(ns, "sysctl", "-qw", f"net.ipv6.conf.{dev}.disable_ipv6=1"), log)
        _run(_ns(ns, "ip", "addr", "add", addr, "dev", dev), log)
        _run(_ns(ns, "ip", "link", "set", dev, "up"), log)
    _run(_ns("wsc-dut", "sysctl", "-qw", "net.ipv4.ip_forward=1"), log)
    _run(_ns("wsc-tx", "ip", "route", "add", "198.19.0.0/24", "via", "198.18.0.2"), log)
    _run(_ns("wsc-rx", "ip", "route", "add", "198.18.0.0/24", "via", "198.19.0.2"), log)
    # resolve neighbours before capturing, so the captures hold the test frames only
    warm = "import socket,time\nfor _ in range(3): socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'warm-up', ('198.19.0.1', 9)); time.sleep(0.2)"
    _run(_ns("wsc-tx", sys.executable, "-c", warm), log)


def _counts(stderr: str) -> dict[str, int]:
    out = {}
    for key in ("captured", "received by filter", "dropped by kernel"):
        m = re.search(rf"(\d+) packets? {key}", stderr)
        if m:
            out[key.replace(" ", "_")] = int(m.group(1))
    return out


def collect(out: Path, frames: int, rate: float, sizes=SIZES) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    log: list[str] = []
    cleanup()
    try:
        setup(log)
        sink = subprocess.Popen(_ns("wsc-rx", sys.executable, "-c", SINK))
        caps = {}
        for name, ns, dev in (("tx", "wsc-tx", "wsc-t0"), ("rx", "wsc-rx", "wsc-r0")):
            argv = _ns(ns, "tcpdump", "-i", dev, "-s", str(SNAPLEN), "--time-stamp-precision=nano", "-B", "16384",
                       "-Z", "root", "-w", str(out / f"{name}.pcap"), "udp and dst port 7")
            log.append(" ".join(argv))
            caps[name] = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        argv = _ns("wsc-tx", "taskset", "-c", "0", sys.executable, "-c", SENDER, ",".join(map(str, sizes)), str(frames), str(rate))
        log.append(" ".join(argv[:-3]) + " <sender> " + " ".join(argv[-3:]))
        started = time.time()
        subprocess.run(argv, check=True, timeout=600)
        time.sleep(1.0)
        counts = {}
        for name, p in caps.items():
            p.send_signal(signal.SIGINT)
            counts[name] = _counts(p.communicate(timeout=20)[1])
        sink.kill()
        facts = {"sizes": list(sizes), "frames_per_size": frames, "rate_pps": rate, "snaplen": SNAPLEN, "tcpdump": counts,
                 "kernel": platform.release(), "started_unix": int(started),
                 "tcpdump_version": subprocess.run(["tcpdump", "--version"], capture_output=True, text=True).stdout.splitlines()[0]}
        (out / "run.json").write_text(json.dumps(facts, indent=1) + "\n")
        text = "\n".join(log).replace(sys.executable, "python3").replace(f"{out}/", "OUT/")
        (out / "setup-commands.txt").write_text(text + "\n")
        return facts
    finally:
        cleanup()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--frames", type=int, default=5000)
    ap.add_argument("--rate", type=float, default=10000)
    a = ap.parse_args()
    print(json.dumps(collect(a.out, a.frames, a.rate), indent=1))


if __name__ == "__main__":
    main()
