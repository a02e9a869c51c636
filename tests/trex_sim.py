"""A T-Rex API simulator: a ZeroMQ REP server on 127.0.0.1 that answers the stateless JSON-RPC methods the
T-Rex collector uses, in front of a simulated device whose model each test declares.

Nothing it produces is a measurement. Its get_version reply carries `simulator` (the declared model in
words), and the collector marks every set made through it synthetic (source.kind = "synthetic"),
which validation never lets be published.

The device model (`Device`, declared by the test):

- `capacity_fps`: the device forwards at most this many frames/s; the excess is lost (tail drop), in
  the same share from every stream;
- `generator_fps`: the generator's own limit: it sends at most this many frames/s whatever it is asked
  (None: no limit), the streams slowed in proportion;
- `latency(u)`: the latency distribution of the latency streams' frames at utilisation u (frames/s
  the generator sends ÷ capacity_fps): [(latency in µs, share of the frames)], shares adding up to 1;
  `jitter_us` is what the server reports as jitter.

Time is the test's clock (a callable): a port transmits from start_traffic for its duration (or until
stop_traffic), update_traffic changes the rate from the moment it is called, and every counter is the
integral of the rates up to now in whole frames (each stream's, per stretch of constant rate, rounded down). Replies have the shapes T-Rex's server
writes (doc/trex_rpc_server_spec.asciidoc; get_port_stats: src/main_dpdk.cpp port_stats_to_json;
get_pgid_stats: src/stx/stl/trex_stl_fs.cpp dump_json, histogram keys as src/time_histogram.cpp).
"""

from __future__ import annotations

import base64
import json
import math
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import zmq

API_H, HANDLER = "SIMAPI01", "SIMHNDL1"


@dataclass(frozen=True)
class Device:
    capacity_fps: float
    latency: Callable[[float], list[tuple[float, float]]]
    jitter_us: float = 1.0
    generator_fps: float | None = None
    speed_mbps: int = 10000
    words: str = ""  # the model in words, for get_version's `simulator`


def bucket(us: float) -> int:
    """T-Rex's histogram key (the bucket's lower edge) for a latency: 0 below 10 µs, then 10 µs buckets to 100, 100 µs to 1000…"""
    if us < 10:
        return 0
    step = 10 ** int(math.floor(math.log10(us)))
    return int(us // step) * step


def apportion(n: int, shares: list[float]) -> list[int]:
    """n frames split by shares, whole frames (largest remainder; ties to the earlier share)."""
    raw = [n * s for s in shares]
    counts = [math.floor(x) for x in raw]
    for i in sorted(range(len(raw)), key=lambda i: (-(raw[i] - counts[i]), i))[: n - sum(counts)]:
        counts[i] += 1
    return counts


@dataclass
class Segment:
    """Streams running from t0 to t1 (None: until stopped) at these asked rates (frames/s per stream id), with
    each stream's packet size (bytes, no FCS) and latency packet group id."""

    t0: float
    t1: float | None
    rates: dict[int, float]
    sizes: dict[int, int]
    pgs: dict[int, int]


@dataclass
class Port:
    owner: str = ""
    streams: dict[int, dict] = field(default_factory=dict)
    segments: list[Segment] = field(default_factory=list)


class TrexSim:
    """`with TrexSim(device, clock) as sim:` serves on sim.address until the block ends; `sim.requests` keeps every request."""

    def __init__(self, device: Device, clock: Callable[[], float], ports: int = 2):
        self.device, self.clock = device, clock
        self.ports = {i: Port() for i in range(ports)}
        self.requests: list[dict] = []
        self.errors: list[str] = []
        self._ctx = zmq.Context()
        self._sock = self._ctx.socket(zmq.REP)
        self._sock.setsockopt(zmq.LINGER, 0)
        self.port = self._sock.bind_to_random_port("tcp://127.0.0.1")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> "TrexSim":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sock.close(linger=0)
        self._ctx.term()

    # ---- the device and the generator

    def _sent(self, seg: Segment) -> tuple[dict[int, float], float]:
        """Per stream, the rate the generator sends in a segment; and the share of those frames the device delivers."""
        asked = sum(seg.rates.values())
        g = self.device.generator_fps
        scale = min(1.0, g / asked) if g and asked else 1.0
        sent = {sid: r * scale for sid, r in seg.rates.items()}
        total = sum(sent.values())
        return sent, (min(total, self.device.capacity_fps) / total if total else 1.0)

    def _integrals(self, tx: int, now: float) -> dict[str, float]:
        """Whole frames and bytes sent and delivered up to now, in all and per latency packet group ("pg N sent", "pg N got")."""
        out: dict[str, int] = {"sent": 0, "got": 0, "sent_bytes": 0, "got_bytes": 0}
        for seg in self.ports[tx].segments:
            end = now if seg.t1 is None else min(seg.t1, now)
            if end <= seg.t0:
                continue
            sent, deliver = self._sent(seg)
            for sid, r in sent.items():
                n = math.floor(r * (end - seg.t0) + 1e-6)  # whole frames sent so far, and delivered of them
                got = math.floor(n * deliver + 1e-6)
                out["sent"] += n
                out["got"] += got
                out["sent_bytes"] += n * seg.sizes[sid]
                out["got_bytes"] += got * seg.sizes[sid]
                if sid in seg.pgs:
                    out[f"pg {seg.pgs[sid]} sent"] = out.get(f"pg {seg.pgs[sid]} sent", 0) + n
                    out[f"pg {seg.pgs[sid]} got"] = out.get(f"pg {seg.pgs[sid]} got", 0) + got
        return out

    def _running(self, port: int, now: float) -> Segment | None:
        seg = self.ports[port].segments[-1] if self.ports[port].segments else None
        return seg if seg is not None and (seg.t1 is None or now < seg.t1) else None


    # ---- the methods

    def m_api_sync_v2(self, p: dict) -> Any:
        return {"api_h": API_H}

    def m_get_version(self, p: dict) -> Any:
        return {"build_date": "", "build_time": "", "built_by": "wirespeed tests", "version": "simulator",
                "simulator": f"wirespeed's T-Rex API simulator (tests/trex_sim.py), device model: {self.device.words}"}

    def m_get_system_info(self, p: dict) -> Any:
        return {"core_type": "simulated", "dp_core_count": 1, "dp_core_count_per_port": 1, "hostname": "trex-simulator", "port_count": len(self.ports),
                "ports": [{"description": "simulated port", "driver": "none", "index": i, "pci_addr": "none", "speed": self.device.speed_mbps // 1000,
                           "rx": {"caps": ["flow_stats", "latency", "rx_bytes"], "counters": 127}} for i in self.ports]}

    def m_get_port_status(self, p: dict) -> Any:
        port = self.ports[p["port_id"]]
        return {"attr": {"link": {"up": True}}, "max_stream_id": max(port.streams, default=0), "owner": port.owner, "speed": self.device.speed_mbps,
                "state": "TX" if self._running(p["port_id"], self.clock()) else "STREAMS" if port.streams else "IDLE"}

    def m_acquire(self, p: dict) -> Any:
        port = self.ports[p["port_id"]]
        if port.owner and port.owner != p["user"] and not p.get("force"):
            raise RpcFail(-32000, f"port is already taken by '{port.owner}'")
        port.owner = p["user"]
        return HANDLER

    def _owned(self, p: dict) -> Port:
        if p.get("handler") != HANDLER:
            raise RpcFail(-32000, "invalid handler")
        return self.ports[p["port_id"]]

    def m_release(self, p: dict) -> Any:
        self._owned(p).owner = ""
        return {}

    def m_remove_all_streams(self, p: dict) -> Any:
        port = self._owned(p)
        if self._running(p["port_id"], self.clock()):
            raise RpcFail(-32000, "cannot remove streams while the port transmits")
        port.streams.clear()
        return {}

    def m_add_stream(self, p: dict) -> Any:
        port = self._owned(p)
        s = p["stream"]
        fs = s.get("flow_stats", {})
        if fs.get("enabled") and (fs.get("rule_type") != "latency" or s.get("core_id", -1) != -1 or not isinstance(fs.get("stream_id"), int)):
            raise RpcFail(-32000, "a latency stream needs rule_type latency, a pg_id and no core pinning")
        port.streams[p["stream_id"]] = s
        return {}

    def m_start_traffic(self, p: dict) -> Any:
        port, now = self._owned(p), self.clock()
        if self._running(p["port_id"], now):
            raise RpcFail(-32000, "port is already transmitting")
        d = float(p.get("duration", -1))
        port.segments.append(Segment(now, now + d if d > 0 else None, {sid: float(s["mode"]["rate"]["value"]) for sid, s in port.streams.items()},
                                     {sid: len(base64.b64decode(s["packet"]["binary"])) for sid, s in port.streams.items()},
                                     {sid: s["flow_stats"]["stream_id"] for sid, s in port.streams.items() if s.get("flow_stats", {}).get("enabled")}))
        return {"multiplier": 1.0, "ts": now}

    def m_update_traffic(self, p: dict) -> Any:
        port, now = self._owned(p), self.clock()
        seg = self._running(p["port_id"], now)
        mul = p["mul"]
        if seg is None or mul.get("op") != "abs" or mul.get("type") != "pps":
            raise RpcFail(-32000, "update_traffic: the simulator changes a running port's rate in pps only")
        load = sum(r for sid, r in seg.rates.items() if sid not in seg.pgs)  # latency streams keep their rate
        factor = mul["value"] / load if load else 0.0
        seg.t1 = now
        port.segments.append(Segment(now, None, {sid: r if sid in seg.pgs else r * factor for sid, r in seg.rates.items()}, seg.sizes, seg.pgs))
        return {"multiplier": factor}

    def m_stop_traffic(self, p: dict) -> Any:
        self._owned(p)
        now = self.clock()
        if (seg := self._running(p["port_id"], now)) is not None:
            seg.t1 = now
        return {}

    def m_get_port_stats(self, p: dict) -> Any:
        pid, now = p["port_id"], self.clock()
        out = {"opackets": 0, "ipackets": 0, "obytes": 0, "ibytes": 0, "oerrors": 0, "ierrors": 0,
               "m_total_tx_pps": 0.0, "m_total_rx_pps": 0.0, "m_total_tx_bps": 0.0, "m_total_rx_bps": 0.0, "m_cpu_util": 0.0}
        for tx in self.ports:
            rx = self._peer(tx)
            if pid not in (tx, rx) or not self.ports[tx].segments:
                continue
            done = self._integrals(tx, now)
            seg = self._running(tx, now)
            rate, deliver = self._sent(seg) if seg else ({}, 1.0)
            bps = sum(r * seg.sizes[s] * 8 for s, r in rate.items()) if seg else 0.0
            if pid == tx:
                out["opackets"] += round(done["sent"])
                out["obytes"] += round(done["sent_bytes"])
                out["m_total_tx_pps"] += sum(rate.values())
                out["m_total_tx_bps"] += bps
            if pid == rx:
                out["ipackets"] += round(done["got"])
                out["ibytes"] += round(done["got_bytes"])
                out["m_total_rx_pps"] += sum(rate.values()) * deliver
                out["m_total_rx_bps"] += bps * deliver
        return out

    def m_get_pgid_stats(self, p: dict) -> Any:
        now = self.clock()
        fs, lat = {}, {}
        for pg in p["pgids"]:
            for tx, port in self.ports.items():
                segs = [s for s in port.segments if pg in s.pgs.values()]
                if not segs:
                    continue
                done = self._integrals(tx, now)
                tp, rp = round(done[f"pg {pg} sent"]), round(done[f"pg {pg} got"])
                sid = next(sid for sid, g in segs[-1].pgs.items() if g == pg)
                fs[str(pg)] = {"rp": {str(self._peer(tx)): rp}, "tp": {str(tx): tp}, "tb": {str(tx): tp * segs[-1].sizes[sid]}}
                u = sum(self._sent(segs[-1])[0].values()) / self.device.capacity_fps
                values = self.device.latency(u)
                counts = apportion(rp, [share for _v, share in values])
                hist: dict[str, int] = {}
                for (v, _s), n in zip(values, counts):
                    if n:
                        hist[str(bucket(v))] = hist.get(str(bucket(v)), 0) + n
                seen = [v for (v, _s), n in zip(values, counts) if n]
                if rp:
                    lat[str(pg)] = {"lat": {"total_min": min(seen), "total_max": max(seen), "last_max": max(seen),
                                            "average": sum(v * n for (v, _s), n in zip(values, counts)) / rp, "histogram": hist,
                                            "jit": self.device.jitter_us}}
        return {"flow_stats": fs, "latency": lat, "ver_id": {pg: 1 for pg in fs}}

    def _peer(self, port: int) -> int:
        return port ^ 1

    # ---- the server

    def _serve(self) -> None:
        poller = zmq.Poller()
        poller.register(self._sock, zmq.POLLIN)
        while not self._stop.is_set():
            if not poller.poll(50):
                continue
            raw = self._sock.recv()
            try:
                req = json.loads(raw)
                self.requests.append(req)
                fn = getattr(self, f"m_{req['method']}", None)
                if fn is None:
                    raise RpcFail(-32601, f"Method {req['method']} not registered")
                reply = {"id": req["id"], "jsonrpc": "2.0", "result": fn(req.get("params") or {})}
            except RpcFail as exc:
                reply = {"id": req.get("id"), "jsonrpc": "2.0", "error": {"code": exc.code, "message": "Failed To Execute Method", "specific_err": exc.text}}
            except Exception as exc:  # noqa: BLE001 - a bug in the simulator: answered, and kept for the test to fail on
                self.errors.append(f"{type(exc).__name__}: {exc}")
                reply = {"id": None, "jsonrpc": "2.0", "error": {"code": -32603, "message": "Internal Server Error", "specific_err": str(exc)}}
            self._sock.send(json.dumps(reply).encode())


class RpcFail(Exception):
    def __init__(self, code: int, text: str):
        super().__init__(text)
        self.code, self.text = code, text
