"""Latency trials through the namespace device: the trial captured on both sides, frames matched by the capture reader.

tcpdump captures the frames leaving wst-g0 (tx) and arriving at wst-s0 (rx) with nanosecond host
timestamps (one kernel clock: offset 0), 96 bytes of each; wirespeed.capture matches them by key
(the generator's frames differ in IPv4 identification and payload) and gives per-frame latency:
minimum, mean, maximum and percentiles. The counts stay the interface counters'. The captures are
read and deleted: a result set keeps the figures, not the files.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

from wirespeed.collectors.netns_trafgen import GeneratorError, NetnsTrafgen, nsx
from wirespeed.collectors.trial import TrialResult

SNAPLEN = 96
PERCENTILES = ("latency_p50", "latency_p90", "latency_p99")


class CapturingTrafgen:
    """A TrafficGenerator whose trials are captured on both sides for per-frame latency."""

    def __init__(self, generator: NetnsTrafgen, scratch: Path):
        self.generator, self.scratch, self.log = generator, Path(scratch), generator.log

    def _start(self, name: str, ns: str, dev: str) -> subprocess.Popen:
        argv = nsx(ns, "tcpdump", "-i", dev, "-s", str(SNAPLEN), "--time-stamp-precision=nano", "-B", "32768", "-n",
                   "-w", str(self.scratch / f"{name}.pcap"), "udp and dst port 9")
        return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def trial(self, frame_bytes: int, rate_fps: float, duration_s: float) -> TrialResult:
        from wirespeed.capture.analysis import analyse_pair
        from wirespeed.capture.errors import CaptureError

        caps = {"tx": self._start("tx", "wst-gen", "wst-g0"), "rx": self._start("rx", "wst-sink", "wst-s0")}
        try:
            deadline = time.monotonic() + 10
            while not all("listening on" in _peek(p) for p in caps.values()) and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.2)
            counted = self.generator.trial(frame_bytes, rate_fps, duration_s)
            drops = {}
            for name, p in caps.items():
                p.send_signal(signal.SIGINT)
                err = p.communicate(timeout=20)[1]
                m = re.search(r"(\d+) packets? dropped by kernel", err)
                drops[name] = int(m.group(1)) if m else None
            try:
                res = analyse_pair(self.scratch / "tx.pcap", self.scratch / "rx.pcap").result
            except CaptureError as exc:
                raise GeneratorError(f"latency trial at {rate_fps:.0f} frames/s: {exc}") from None
            v = res.groups[0].values if len(res.groups) == 1 else {}
            return dataclasses.replace(
                counted, latency_min_ns=v.get("latency_min"), latency_avg_ns=v.get("latency_avg"), latency_max_ns=v.get("latency_max"),
                latency_percentiles_ns={k: float(v[k]) for k in PERCENTILES if k in v},
                notes=f"{counted.notes}; captured {v.get('tx', 0)} frames on wst-g0 and matched {v.get('rx', 0)} on wst-s0 "
                      f"(tcpdump dropped {drops['tx']} and {drops['rx']})")
        finally:
            for p in caps.values():
                if p.poll() is None:
                    p.kill()
                    p.wait(timeout=5)
            for f in ("tx.pcap", "rx.pcap"):
                (self.scratch / f).unlink(missing_ok=True)


def _peek(p: subprocess.Popen) -> str:
    """tcpdump's first stderr line once it is ready ("listening on ...")."""
    if p.poll() is not None:
        raise GeneratorError(f"tcpdump exited: {p.stderr.read().strip()[:200] if p.stderr else p.returncode}")
    import select
    if p.stderr and select.select([p.stderr], [], [], 0.05)[0]:
        line = p.stderr.readline()
        p._ws_seen = getattr(p, "_ws_seen", "") + line  # type: ignore[attr-defined]
    return getattr(p, "_ws_seen", "")
