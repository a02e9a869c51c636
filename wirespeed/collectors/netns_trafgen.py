"""A generator that reaches 64-byte frames: trafgen (netsniff-ng) through a device built in network namespaces.

    wst-gen  wst-g0 ──veth── wst-d0 [wst-dut] wst-d1 ──veth── wst-s0  wst-sink

The device in wst-dut is one of three variants: `bridge` (a Linux bridge br0 with both veths, static
forwarding entry for the sink), `ipv4-forward` (IPv4 routing, 198.18.0.2/24 and 198.19.0.2/24, static
neighbour for the sink) or `ipv4-nftables` (the same routing through an nftables forward chain of
`nft_rules` rules that the test traffic never matches, so each frame is compared against all).
trafgen sends UDP frames 198.18.0.1 → 198.19.0.10:9 of an exact Ethernet size (FCS included; veth
carries no FCS, so trafgen writes size − 4 bytes) as fast as it can (one process pinned to the last
CPU, through the qdisc path so that captures see every frame) into a tbf shaper on wst-g0 set to the
trial's rate (1 ms or 64 frames of burst and queue): the shaper paces and holds trafgen back. On veth
the device's receive processing runs on the CPU that sent the frame (in its softirq), so an overloaded
device slows the sender down rather than dropping: overload shows as a generator that cannot reach
the rate. A trial's duration is its frames over the rate measured on wst-g0's transmit counter (read
every 2 ms while trafgen runs, so trafgen's start-up does not count); the search counts a load the generator could not offer as an upper bound (TrialResult.tx_rate_fps).
`device_cpu` steers the device's receive processing to another CPU instead (RPS on wst-d0). IPv4 identification and the first
payload byte count up with coprime periods (255, 256, 253), so 16.5 million frames in a row differ
and captures can be matched frame by frame. 198.19.0.10 is not an address of the sink, which counts
and silently drops the frames (no ICMP, forwarding off). Static neighbours and no IPv6: the counters
see the test frames only. A trial counts frames offered (wst-g0 tx + tx_dropped: what the device's
input refused counts as sent and lost) and received (wst-s0 rx) from the kernel's interface counters.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from wirespeed.collectors.trial import TrialResult

NAMESPACES = ("wst-gen", "wst-dut", "wst-sink")
VARIANTS = ("bridge", "ipv4-forward", "ipv4-nftables")
MAC = {"g0": "02:00:c6:12:00:01", "d0": "02:00:c6:12:00:02", "d1": "02:00:c6:13:00:02", "s0": "02:00:c6:13:00:01"}
SRC_IP, DST_IP = (198, 18, 0, 1), (198, 19, 0, 10)
DRAIN_S = 0.2  # after the last frame is sent, frames still queued in the device may arrive


class GeneratorError(Exception):
    """The generator or its namespaces failed; one line saying why."""


def run_cmd(argv: list[str], log: list[str] | None = None, timeout: float = 30) -> str:
    """Run a command bounded in time; GeneratorError with its first error line on failure."""
    if log is not None:
        log.append(" ".join(argv))
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GeneratorError(f"{' '.join(argv[:8])}: {exc}") from None
    if p.returncode:
        raise GeneratorError(f"{' '.join(argv[:10])}: {(p.stderr.strip() or p.stdout.strip() or f'exit {p.returncode}').splitlines()[0]}")
    return p.stdout


def nsx(ns: str, *argv: str) -> list[str]:
    return ["ip", "netns", "exec", ns, *argv]


def cleanup() -> list[str]:
    """End every process inside the namespaces and delete them; returns the namespaces that were there."""
    present = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=10).stdout.split()
    gone = [ns for ns in NAMESPACES if ns in present]
    for ns in gone:
        for pid in subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True, timeout=10).stdout.split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), 9)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
    return gone


def nft_ruleset(rules: int) -> str:
    """An nftables forward chain of `rules` rules that never match the test traffic (sources in 10/8), then accept."""
    body = "".join(f"    ip saddr 10.{i // 250 % 250}.{i % 250}.1 udp dport {1000 + i % 60000} drop\n" for i in range(rules))
    return f"table ip wirespeed {{\n  chain forward {{\n    type filter hook forward priority 0; policy accept;\n{body}  }}\n}}\n"


def setup(variant: str, log: list[str], mtu: int = 1500, nft_rules: int = 1000, device_cpu: int | None = None) -> None:
    """Create the namespaces, links and the device variant."""
    if variant not in VARIANTS:
        raise GeneratorError(f"unknown device variant {variant!r} (known: {', '.join(VARIANTS)})")
    for ns in NAMESPACES:
        run_cmd(["ip", "netns", "add", ns], log)
        for key in ("all", "default"):
            run_cmd(nsx(ns, "sysctl", "-qw", f"net.ipv6.conf.{key}.disable_ipv6=1"), log)
    run_cmd(["ip", "link", "add", "wst-g0", "netns", "wst-gen", "address", MAC["g0"], "mtu", str(mtu), "type", "veth",
             "peer", "name", "wst-d0", "netns", "wst-dut", "address", MAC["d0"], "mtu", str(mtu)], log)
    run_cmd(["ip", "link", "add", "wst-d1", "netns", "wst-dut", "address", MAC["d1"], "mtu", str(mtu), "type", "veth",
             "peer", "name", "wst-s0", "netns", "wst-sink", "address", MAC["s0"], "mtu", str(mtu)], log)
    run_cmd(["ip", "-n", "wst-gen", "addr", "add", "198.18.0.1/24", "dev", "wst-g0"], log)
    run_cmd(["ip", "-n", "wst-sink", "addr", "add", "198.19.0.1/24", "dev", "wst-s0"], log)
    if variant == "bridge":
        run_cmd(["ip", "-n", "wst-dut", "link", "add", "br0", "mtu", str(mtu), "type", "bridge"], log)
        for dev in ("wst-d0", "wst-d1"):
            run_cmd(["ip", "-n", "wst-dut", "link", "set", dev, "master", "br0"], log)
        run_cmd(["ip", "-n", "wst-dut", "link", "set", "br0", "up"], log)
        run_cmd(["bridge", "-n", "wst-dut", "fdb", "replace", MAC["s0"], "dev", "wst-d1", "master", "static"], log)
    else:
        run_cmd(["ip", "-n", "wst-dut", "addr", "add", "198.18.0.2/24", "dev", "wst-d0"], log)
        run_cmd(["ip", "-n", "wst-dut", "addr", "add", "198.19.0.2/24", "dev", "wst-d1"], log)
        run_cmd(nsx("wst-dut", "sysctl", "-qw", "net.ipv4.ip_forward=1"), log)
    for ns, dev in (("wst-gen", "wst-g0"), ("wst-dut", "wst-d0"), ("wst-dut", "wst-d1"), ("wst-sink", "wst-s0")):
        run_cmd(["ip", "-n", ns, "link", "set", dev, "up"], log)
    if variant != "bridge":
        run_cmd(["ip", "-n", "wst-dut", "neigh", "replace", ".".join(map(str, DST_IP)), "lladdr", MAC["s0"], "dev", "wst-d1", "nud", "permanent"], log)
    if device_cpu is not None:  # steer the device's receive processing away from the generator's CPU
        run_cmd(nsx("wst-dut", "sh", "-c", f"echo {1 << device_cpu:x} > /sys/class/net/wst-d0/queues/rx-0/rps_cpus"), log)
    if variant == "bridge":  # until both ports forward (no STP, but the ports come up asynchronously)
        for _ in range(100):
            states = json.loads(run_cmd(["bridge", "-n", "wst-dut", "-j", "link", "show"]) or "[]")
            if len(states) == 2 and all(p.get("state") == "forwarding" for p in states):
                break
            time.sleep(0.05)
        else:
            raise GeneratorError("the bridge ports did not reach the forwarding state within 5 s")
    if variant == "ipv4-nftables":
        with tempfile.NamedTemporaryFile("w", suffix=".nft", delete=False) as f:
            f.write(nft_ruleset(nft_rules))
        try:
            run_cmd(nsx("wst-dut", "nft", "-f", f.name), log)
        finally:
            os.unlink(f.name)
        count = run_cmd(nsx("wst-dut", "nft", "-a", "list", "chain", "ip", "wirespeed", "forward")).count(" drop ")
        if count != nft_rules:
            raise GeneratorError(f"nftables holds {count} rules, expected {nft_rules}")


def _hexmac(mac: str) -> str:
    return ", ".join(f"0x{b}" for b in mac.split(":"))


def trafgen_config(frame_bytes: int, dst_mac: str) -> str:
    """trafgen's packet for one Ethernet frame size (FCS excluded: veth carries none) to the next hop's MAC."""
    ip_len, payload = frame_bytes - 4 - 14, frame_bytes - 4 - 14 - 20 - 8
    return ("{\n  " + _hexmac(dst_mac) + ", " + _hexmac(MAC["g0"]) + ", c16(0x0800),\n"
            f"  0x45, 0x00, c16({ip_len}), dinc(0, 254), dinc(0, 255), 0x40, 0x00, 64, 17, csumip(14, 33),\n"
            f"  {', '.join(map(str, SRC_IP))}, {', '.join(map(str, DST_IP))},\n"
            f"  c16(1024), c16(9), c16({payload + 8}), c16(0),\n"
            f"  dinc(0, 252), fill(0x00, {payload - 1})\n}}\n")


class NetnsTrafgen:
    """TrafficGenerator over the namespace topology: trial() sends with trafgen and reads the counters."""

    def __init__(self, variant: str, work: Path, cpu: int | None = None, log: list[str] | None = None):
        self.variant, self.work, self.log = variant, Path(work), log if log is not None else []
        self.cpu = sorted(os.sched_getaffinity(0))[-1] if cpu is None else cpu
        self.next_hop = MAC["s0"] if variant == "bridge" else MAC["d0"]
        self.trials, self._helper = 0, None

    def config_file(self, frame_bytes: int) -> Path:
        path = self.work / f"trafgen-{self.variant}-{frame_bytes}.cfg"
        if not path.exists():
            path.write_text(trafgen_config(frame_bytes, self.next_hop))
        return path

    def counters(self) -> tuple[int, int]:
        """(frames offered on wst-g0: tx packets + tx dropped, frames received on wst-s0)."""
        g = json.loads(run_cmd(["ip", "-j", "-s", "-n", "wst-gen", "link", "show", "dev", "wst-g0"]))[0]["stats64"]
        s = json.loads(run_cmd(["ip", "-j", "-s", "-n", "wst-sink", "link", "show", "dev", "wst-s0"]))[0]["stats64"]
        return g["tx"]["packets"] + g["tx"]["dropped"], s["rx"]["packets"]

    def _tx_reader(self):
        """A helper process in wst-gen whose /proc/<pid>/net/dev shows wst-g0's counters without a fork per read."""
        if self._helper is None or self._helper.poll() is not None:
            self._helper = subprocess.Popen(nsx("wst-gen", "sleep", "3600"))
            for _ in range(150):
                with contextlib.suppress(OSError, GeneratorError):
                    self._read_tx()
                    break
                time.sleep(0.02)
        return self._helper

    def _read_tx(self) -> int:
        with open(f"/proc/{self._helper.pid}/net/dev") as f:
            for line in f:
                name, _, rest = line.partition(":")
                if name.strip() == "wst-g0":
                    v = rest.split()
                    return int(v[9]) + int(v[11])  # tx packets + tx dropped
        raise GeneratorError("wst-g0 is not in the helper's /proc/net/dev")

    def close(self) -> None:
        if self._helper is not None and self._helper.poll() is None:
            self._helper.kill()
            self._helper.wait(timeout=5)

    def send(self, frame_bytes: int, rate_fps: float, frames: int) -> float:
        """Send `frames` frames at `rate_fps`; returns the time from the first frame to the last, measured
        on wst-g0's transmit counter (read every 2 ms), or trafgen's wall time when too few readings."""
        rate, wire = max(1, round(rate_fps)), frame_bytes - 4
        shaper = nsx("wst-gen", "tc", "qdisc", "replace", "dev", "wst-g0", "root", "tbf", "rate", f"{rate * wire * 8}bit",
                     "burst", str(wire * max(64, rate // 1000)), "limit", str(wire * max(64, rate // 1000)))
        run_cmd(shaper, self.log if self.trials == 0 else None)
        argv = nsx("wst-gen", "taskset", "-c", str(self.cpu), "trafgen", "-o", "wst-g0", "-i", str(self.config_file(frame_bytes)),
                   "-n", str(frames), "-P", "1", "--qdisc-path", "--no-sock-mem", "--notouch-irq", "--no-cpu-stats",
                   *(["-J"] if frame_bytes > 2048 else []))
        if self.trials == 0:
            self.log.append(" ".join(argv))
        self._tx_reader()
        start = self._read_tx()
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        first = last = None  # (time, count) of the first reading after the first frame, and of the first at the final count
        deadline = t0 + frames / rate * 3 + 30
        try:
            while True:
                done = proc.poll() is not None
                now, count = time.monotonic(), self._read_tx()
                if count > start and first is None:
                    first = (now, count)
                if last is None or count != last[1]:
                    last = (now, count)
                if done or now > deadline:
                    break
                time.sleep(0.002)
        finally:
            if proc.poll() is None:
                proc.kill()
            err = proc.communicate(timeout=10)[1]
        took = time.monotonic() - t0
        if proc.returncode:
            raise GeneratorError(f"trafgen: {(err.strip() or f'exit {proc.returncode}').splitlines()[-1]}")
        self.trials += 1
        if first and last and last[0] - first[0] > 0.05 and last[1] > first[1]:
            return (last[1] - start) / ((last[1] - first[1]) / (last[0] - first[0]))  # frames / measured rate
        return took

    def trial(self, frame_bytes: int, rate_fps: float, duration_s: float) -> TrialResult:
        """Offer round(rate × duration) frames at rate; count them on both sides of the device."""
        frames = max(1, round(rate_fps * duration_s))
        tx0, rx0 = self.counters()
        took = self.send(frame_bytes, rate_fps, frames)
        time.sleep(DRAIN_S)
        tx1, rx1 = self.counters()
        sending = max(took, 0.001)
        return TrialResult(tx1 - tx0, rx1 - rx0, round(sending, 4), frame_bytes, float(round(rate_fps)),
                           notes=f"trafgen asked for {frames} frames")


def missing_tools(variant: str | None = None) -> list[str]:
    tools = ["ip", "trafgen", "taskset", "tcpdump", *(["bridge"] if variant in (None, "bridge") else []), *(["nft"] if variant in (None, "ipv4-nftables") else [])]
    return [t for t in tools if shutil.which(t) is None]
