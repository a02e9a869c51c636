"""T-Rex as a traffic generator for the search drivers: `trial(frame_bytes, rate_fps, duration_s)`.

One trial on a port pair: a continuous stream of one UDP/IPv4 frame is added to the transmit port,
started for `duration_s` (T-Rex times it: start_traffic's `duration`), waited on until the port is no
longer transmitting (get_port_status), then the transmit port's `opackets` and the receive port's
`ipackets` are read (get_port_stats) and compared with what they were before the trial. T-Rex's
counters are cumulative and never cleared by the server, so each trial is the difference of two
readings. The stream is removed after each trial; the ports are released at the end.

Frame sizes are Ethernet frames with FCS (64 … 9000): T-Rex sends the packet without its 4-byte FCS,
so the stream's packet is frame_bytes - 4 bytes long. Source and destination MAC come from the
server's port configuration (stream flags 0), as with T-Rex's own STL profiles.

A latency trial (`LatencyStreams`) adds a second stream beside the load, as CSIT does: the same
frame at its own low rate with flow statistics of type "latency" under a packet group id of its own
(T-Rex's STLFlowLatencyStats: T-Rex writes a sequence number and a timestamp into its last 16 payload
bytes), and reads that group's statistics with `get_pgid_stats` after the trial: minimum, average and
maximum latency, jitter and the latency histogram, in µs as the server keeps them
(src/stx/stl/trex_stl_fs.cpp CFlowStatRuleMgr::dump_json, src/time_histogram.cpp). Each latency
trial uses a new packet group id, so its statistics are its own. The port counters (frames sent and
received) count both streams.

For the loadtest, `start_continuous`, `set_rate` (update_traffic) and `counters` run one stream
without a duration and change its rate while it runs.
"""

from __future__ import annotations

import base64
import secrets
import struct
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from wirespeed.collectors.trial import TrialResult
from wirespeed.collectors.trex_rpc import RpcClient, RpcError, TrexError, one_line

FCS_BYTES = 4
MIN_FRAME, MAX_FRAME = 64, 9216
SRC_IP, DST_IP, SRC_PORT, DST_PORT = bytes([16, 0, 0, 1]), bytes([48, 0, 0, 1]), 1025, 12  # T-Rex's STL examples' addresses
TRANSMITTING = {"TX", "PCAP_TX"}


def pause(seconds: float) -> None:
    """How the generator waits for a trial to run when no tape paces it (a module function tests replace)."""
    time.sleep(seconds)


@dataclass
class PortCounters:
    """The cumulative counters get_port_stats returns for one port (field names as the server sends them)."""

    opackets: int
    ipackets: int
    obytes: int
    ibytes: int
    oerrors: int
    ierrors: int
    tx_pps: float
    rx_pps: float
    tx_bps: float
    rx_bps: float

    @classmethod
    def parse(cls, result: Any, port: int) -> "PortCounters":
        if not isinstance(result, dict):
            raise TrexError(f"get_port_stats port {port}: expected an object of counters")
        def get(name: str, kind: type) -> Any:
            v = result.get(name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 or (kind is int and v != int(v)):
                raise TrexError(f"get_port_stats port {port}: {name}: expected a {'count' if kind is int else 'rate'} of 0 or more, got {v!r}")
            return kind(v)
        return cls(get("opackets", int), get("ipackets", int), get("obytes", int), get("ibytes", int), get("oerrors", int), get("ierrors", int),
                   get("m_total_tx_pps", float), get("m_total_rx_pps", float), get("m_total_tx_bps", float), get("m_total_rx_bps", float))


def udp_packet(frame_bytes: int) -> bytes:
    """An Ethernet II / IPv4 / UDP packet of frame_bytes - 4 bytes (no FCS), checksum filled, zero payload."""
    if not MIN_FRAME <= frame_bytes <= MAX_FRAME:
        raise TrexError(f"frame size {frame_bytes}: expected {MIN_FRAME} to {MAX_FRAME} bytes")
    pkt_len = frame_bytes - FCS_BYTES
    ip_len = pkt_len - 14
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, ip_len, 1, 0, 64, 17, 0, SRC_IP, DST_IP))
    s = sum(struct.unpack("!10H", ip))
    s = (s & 0xFFFF) + (s >> 16)
    struct.pack_into("!H", ip, 10, ~((s & 0xFFFF) + (s >> 16)) & 0xFFFF)
    udp = struct.pack("!HHHH", SRC_PORT, DST_PORT, ip_len - 20, 0)
    eth = bytes(12) + b"\x08\x00"
    return eth + bytes(ip) + udp + bytes(ip_len - 28)


def stream(frame_bytes: int, rate_fps: float, latency_pg_id: int | None = None) -> dict:
    """add_stream's `stream` object: a continuous stream at rate_fps packets per second; with a packet group
    id, a latency stream (flow_stats rule_type "latency", as T-Rex's STLFlowLatencyStats writes it; never
    pinned to a core: the server refuses core pinning for sequenced streams)."""
    flow = {"enabled": True, "stream_id": latency_pg_id, "rule_type": "latency", "vxlan": False, "ieee_1588": False} if latency_pg_id is not None else {"enabled": False}
    return {"action_count": 0, "core_id": -1, "enabled": True, "flags": 0, "flow_stats": flow, "isg": 0.0,
            "mode": {"rate": {"type": "pps", "value": float(rate_fps)}, "type": "continuous"}, "next_stream_id": -1,
            "packet": {"binary": base64.b64encode(udp_packet(frame_bytes)).decode("ascii"), "meta": ""},
            "rx_stats": {"enabled": False}, "self_start": True, "start_paused": False, "vm": {"instructions": [], "split_by_var": ""}}


def bucket_high(low: int) -> int:
    """Upper edge (µs, exclusive) of a T-Rex latency histogram bucket: 0→10, 20→30, 100→200, 1000→2000
    (src/time_histogram.cpp: buckets of 10 µs below 100 µs, of 100 µs below 1 ms, and so on)."""
    from wirespeed.importers.trex import bucket_high as high

    return high(low)


@dataclass(frozen=True)
class LatencyStats:
    """One packet group's statistics from get_pgid_stats: the latency stream's frames and its latency (µs)."""

    pg_id: int
    tx_frames: int
    rx_frames: int
    min_us: float | None  # servers before total_min was added send none
    avg_us: float
    max_us: float
    jitter_us: float | None
    histogram: tuple[tuple[int, int, int], ...]  # (low µs, high µs, frames)
    errors: dict[str, int]  # dropped, dup, out_of_order, seq_too_high, seq_too_low (zero ones absent, as the server sends them)

    @classmethod
    def parse(cls, result: Any, pg_id: int, tx_port: int, rx_port: int) -> "LatencyStats":
        where = f"get_pgid_stats pg_id {pg_id}"
        if not isinstance(result, dict):
            raise TrexError(f"{where}: expected an object")
        fs, lat = (result.get(k) if isinstance(result.get(k), dict) else {} for k in ("flow_stats", "latency"))
        f, l = fs.get(str(pg_id)), lat.get(str(pg_id))
        if not isinstance(f, dict) or not isinstance(l, dict) or not isinstance(l.get("lat"), dict):
            raise TrexError(f"{where}: the server has no flow and latency statistics for this packet group (is the port's receive side able to count latency?)")
        def count(obj: Any, port: int, name: str) -> int:
            v = obj.get(str(port), 0) if isinstance(obj, dict) else None
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise TrexError(f"{where}: {name}.{port}: expected a count of 0 or more, got {v!r}")
            return v
        def us(name: str, required: bool = True) -> float | None:
            v = l["lat"].get(name)
            if v is None and not required:
                return None
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise TrexError(f"{where}: lat.{name}: expected a latency of 0 µs or more, got {v!r}")
            return float(v)
        hist = l["lat"].get("histogram", {})
        if not isinstance(hist, dict) or not all(k.isdigit() and isinstance(v, int) and not isinstance(v, bool) and v >= 0 for k, v in hist.items()):
            raise TrexError(f"{where}: lat.histogram: expected {{bucket in µs: frames}}")
        er = l.get("er") if isinstance(l.get("er"), dict) else {}
        names = {"drp": "dropped", "dup": "dup", "ooo": "out_of_order", "sth": "seq_too_high", "stl": "seq_too_low"}
        return cls(pg_id, count(f.get("tp"), tx_port, "tp"), count(f.get("rp"), rx_port, "rp"), us("total_min", False), us("average"), us("total_max"),
                   us("jit", False), tuple((int(k), bucket_high(int(k)), v) for k, v in sorted(hist.items(), key=lambda kv: int(kv[0])) if v),
                   {names[k]: int(v) for k, v in er.items() if k in names and isinstance(v, int)})

    def api_form(self, tx_port: int, rx_port: int) -> tuple[dict, dict]:
        """(flow_stats, latency) entries in the shape of T-Rex's Python get_stats(), which the trex importer reads."""
        ports = sorted({tx_port, rx_port})
        flow = {"tx_pkts": {**{str(p): self.tx_frames if p == tx_port else 0 for p in ports}, "total": self.tx_frames},
                "rx_pkts": {**{str(p): self.rx_frames if p == rx_port else 0 for p in ports}, "total": self.rx_frames}}
        lat = {"average": self.avg_us, "total_max": self.max_us, **({"total_min": self.min_us} if self.min_us is not None else {}),
               **({"jitter": self.jitter_us} if self.jitter_us is not None else {}), "histogram": {str(lo): n for lo, _hi, n in self.histogram}}
        errs = {k: self.errors.get(k, 0) for k in ("dropped", "dup", "out_of_order", "seq_too_high", "seq_too_low")}
        return flow, {"latency": lat, "err_cntrs": errs}


@dataclass
class TrexGenerator:
    """Unidirectional trials from tx_port to rx_port on a connected RpcClient."""

    client: RpcClient
    tx_port: int = 0
    rx_port: int = 1
    user: str = "wirespeed"
    force: bool = False
    poll_s: float = 0.5
    settle_s: float = 0.5  # after the transmit port went idle, for frames still in flight to be counted
    grace_s: float = 10.0  # beyond the duration, before a port still transmitting is stopped and the trial fails
    sleep: Callable[[float], None] | None = None  # default: pause() (tests replace it)
    clock: Callable[[], float] | None = None  # default: time.monotonic
    handlers: dict[int, str] = field(default_factory=dict)
    speeds_bps: dict[int, float] = field(default_factory=dict)
    readings: list[dict] = field(default_factory=list)  # per trial: the get_port_stats results before and after (and get_pgid_stats)
    active: bool = False  # traffic started and not yet seen stopped

    @property
    def ports(self) -> list[int]:
        return sorted({self.tx_port, self.rx_port})

    def acquire(self) -> None:
        """Check that the ports are free (or ours to force), take them and clear their streams."""
        session = secrets.randbelow(2**32)
        for port in self.ports:
            status = self.client.call("get_port_status", {"port_id": port})
            if not isinstance(status, dict):
                raise TrexError(f"get_port_status port {port}: expected an object")
            owner = status.get("owner") or ""
            if owner and not self.force:
                raise TrexError(f"port {port} is busy: owned by {one_line(owner)!r} (state {status.get('state', '?')}); "
                                f"release it or collect with --force")
            attr = status.get("attr") if isinstance(status.get("attr"), dict) else {}
            for holder, name, scale in ((status, "speed", 1e6), (attr, "speed", 1e9)):  # Mb/s in the spec's example; Gb/s in attr (trex_port_attr.cpp)
                v = holder.get(name)
                if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
                    self.speeds_bps[port] = float(v) * scale
            try:
                handler = self.client.call("acquire", {"port_id": port, "user": self.user, "session_id": session, "force": self.force})
            except RpcError as exc:
                if "taken" in exc.specific or "owned" in exc.specific:
                    raise TrexError(f"port {port} is busy: {one_line(exc.specific)}; release it or collect with --force") from None
                raise
            if not isinstance(handler, str) or not handler:
                raise TrexError(f"acquire port {port}: expected a handler string, got {one_line(handler)}")
            self.handlers[port] = handler
        for port in self.ports:
            self.client.call("remove_all_streams", {"handler": self.handlers[port], "port_id": port})

    def _stats(self) -> tuple[dict[int, Any], dict[int, PortCounters]]:
        raw = {port: self.client.call("get_port_stats", {"port_id": port}) for port in self.ports}
        return raw, {port: PortCounters.parse(r, port) for port, r in raw.items()}

    def _state(self) -> str:
        status = self.client.call("get_port_status", {"port_id": self.tx_port})
        state = status.get("state") if isinstance(status, dict) else None
        if not isinstance(state, str):
            raise TrexError(f"get_port_status port {self.tx_port}: no state in the reply")
        return state

    def trial(self, frame_bytes: int, rate_fps: float, duration_s: float, latency: tuple[int, float] | None = None) -> TrialResult:
        """Send frame_bytes frames at rate_fps for duration_s; frames sent and received. `latency` = (packet group
        id, rate): a latency stream beside the load (rate_fps may then be 0: the latency stream alone)."""
        if not self.handlers:
            raise TrexError("trial: the ports are not acquired")
        if not ((rate_fps > 0 or latency and rate_fps == 0) and 0 < duration_s <= 86400):
            raise TrexError(f"trial: expected a positive rate and a duration of up to a day, got {rate_fps!r} fps for {duration_s!r} s")
        h = self.handlers[self.tx_port]
        if rate_fps > 0:
            self.client.call("add_stream", {"handler": h, "port_id": self.tx_port, "stream_id": 1, "stream": stream(frame_bytes, rate_fps)})
        if latency:
            self.client.call("add_stream", {"handler": h, "port_id": self.tx_port, "stream_id": 2, "stream": stream(frame_bytes, latency[1], latency[0])})
        before_raw, before = self._stats()
        started = False
        try:
            self.client.call("start_traffic", {"handler": h, "port_id": self.tx_port, "core_mask": 2**64 - 1, "duration": float(duration_s),
                                               "force": False, "mul": {"op": "abs", "type": "raw", "value": 1.0}, "start_at_ts": 0})
            started = self.active = True
            clock, sleep = self.clock or time.monotonic, self.sleep or pause
            deadline = clock() + duration_s + self.grace_s
            sleep(min(duration_s, max(0.0, duration_s - self.poll_s)))
            while self._state() in TRANSMITTING:
                if clock() > deadline:
                    raise TrexError(f"port {self.tx_port} still transmitting {self.grace_s:g} s after the {duration_s:g} s trial ended; stopped it")
                sleep(self.poll_s)
            started = self.active = False
            sleep(self.settle_s)
            after_raw, after = self._stats()
            pgid = self.client.call("get_pgid_stats", {"pgids": [latency[0]]}) if latency else None
        finally:
            if started:
                try:
                    self.client.call("stop_traffic", {"handler": h, "port_id": self.tx_port})
                    self.active = False
                except TrexError:
                    pass  # the original failure is the one to report
            try:
                self.client.call("remove_all_streams", {"handler": h, "port_id": self.tx_port})
            except TrexError:
                if not started:
                    raise
        tx = after[self.tx_port].opackets - before[self.tx_port].opackets
        rx = after[self.rx_port].ipackets - before[self.rx_port].ipackets
        if tx < 0 or rx < 0:
            raise TrexError(f"the port counters went backwards during the trial (tx {tx}, rx {rx}): was the server restarted?")
        reading = {"frame_bytes": frame_bytes, "rate_fps": rate_fps, "duration_s": duration_s,
                   "before": {str(p): r for p, r in before_raw.items()}, "after": {str(p): r for p, r in after_raw.items()}}
        self.readings.append(reading)
        offered = float(rate_fps + (latency[1] if latency else 0))
        if not latency:
            return TrialResult(tx_frames=tx, rx_frames=rx, duration_s=float(duration_s), frame_bytes=frame_bytes, rate_fps=offered)
        ls = LatencyStats.parse(pgid, latency[0], self.tx_port, self.rx_port)
        reading["latency"] = ls
        return TrialResult(tx_frames=tx, rx_frames=rx, duration_s=float(duration_s), frame_bytes=frame_bytes, rate_fps=offered,
                           latency_min_ns=None if ls.min_us is None else ls.min_us * 1000, latency_avg_ns=ls.avg_us * 1000,
                           latency_max_ns=ls.max_us * 1000, jitter_ns=None if ls.jitter_us is None else ls.jitter_us * 1000,
                           histogram_us=tuple((float(lo), float(hi), n) for lo, hi, n in ls.histogram),
                           notes=f"latency stream pg_id {ls.pg_id} at {latency[1]:g} frames/s beside the load: {ls.tx_frames} sent, {ls.rx_frames} received")

    def start_continuous(self, frame_bytes: int, rate_fps: float) -> None:
        """One stream on the transmit port, started without a duration (stopped by stop())."""
        h = self.handlers[self.tx_port]
        self.client.call("add_stream", {"handler": h, "port_id": self.tx_port, "stream_id": 1, "stream": stream(frame_bytes, rate_fps)})
        self.client.call("start_traffic", {"handler": h, "port_id": self.tx_port, "core_mask": 2**64 - 1, "duration": -1.0,
                                           "force": False, "mul": {"op": "abs", "type": "raw", "value": 1.0}, "start_at_ts": 0})
        self.active = True

    def set_rate(self, rate_fps: float) -> None:
        """Change the running stream's rate (update_traffic, the port's total in packets/s)."""
        self.client.call("update_traffic", {"handler": self.handlers[self.tx_port], "port_id": self.tx_port, "force": False,
                                            "mul": {"op": "abs", "type": "pps", "value": float(rate_fps)}})

    def counters(self) -> tuple[dict[int, Any], dict[int, PortCounters]]:
        """Both ports' cumulative counters now: (the replies as sent, parsed)."""
        return self._stats()

    def stop(self) -> None:
        """Stop the running stream and remove it."""
        h = self.handlers[self.tx_port]
        self.client.call("stop_traffic", {"handler": h, "port_id": self.tx_port})
        self.active = False
        self.client.call("remove_all_streams", {"handler": h, "port_id": self.tx_port})

    def release(self) -> None:
        """Give the ports back (stopping traffic first if a trial was cut short); errors are not raised."""
        for port, h in list(self.handlers.items()):
            calls = [("stop_traffic", {"handler": h, "port_id": port})] if self.active and port == self.tx_port else []
            for method, params in [*calls, ("release", {"handler": h, "port_id": port})]:
                try:
                    self.client.call(method, params)
                except RpcError:
                    continue  # the server refused this one; still try to release
                except TrexError:
                    break  # the connection is gone: nothing more can be done on it
            del self.handlers[port]
        self.active = False


@dataclass
class LatencyStreams:
    """A TrafficGenerator whose trials carry a latency stream beside the load: each trial its own packet group id."""

    generator: TrexGenerator
    rate_fps: float
    next_pg_id: int = 1

    def trial(self, frame_bytes: int, rate_fps: float, duration_s: float) -> TrialResult:
        pg_id, self.next_pg_id = self.next_pg_id, self.next_pg_id + 1
        return self.generator.trial(frame_bytes, rate_fps, duration_s, latency=(pg_id, self.rate_fps))
