"""The result set a netns ramp run writes (wirespeed.collectors.netns_ramp): result.toml, worded from the run's
own figures, and its TOML serialisation."""

from __future__ import annotations

import json
import platform
from pathlib import Path
from typing import Any

import wirespeed

WARMUP_PCT, SHAPER_LATENCY_MS = 5.0, 50
PING_GAP_S, PING_MAX = 0.002, 2000
ECHO_FRAME = 98  # the echo helper's frame: 60-byte ICMP message + 20-byte IPv4 header + 14-byte Ethernet header + 4-byte FCS


def _value(v: Any) -> str:
    """One TOML value: number, boolean, string, array or inline table."""
    if isinstance(v, (bool, int, float)):
        return str(v).lower() if isinstance(v, bool) else repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + "}"
    return "[" + ", ".join(_value(x) for x in v) + "]"


def toml(doc: dict[str, Any], path: str = "") -> str:
    """Serialise the result.toml document: scalars first, then tables and top-level arrays of tables."""
    out, later = [], []
    for k, v in doc.items():
        if isinstance(v, dict):
            later.append(f"\n[{path}{k}]\n" + toml(v, f"{path}{k}."))
        elif not path and isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            later += [f"\n[[{k}]]\n" + toml(x, f"{k}.") for x in v]
        else:
            out.append(f"{k} = {_value(v)}\n")
    return "".join(out) + "".join(later)


def us(ns: float) -> str:
    """A round-trip time in µs, to the ns (the helper's resolution)."""
    return f"{ns / 1000:.3f}"


def document(iperf_ver: str, slug, link, frame_size, n, hold_s, warmup_s, lat_s, limit_pct, payload, line_fps, limit_bps, limit_fps, samples, meas, cpus, busy_pct,
              start, end, rtt_notes, unaccounted, gen_drops, attachments) -> dict[str, Any]:
    """result.toml of the run, from its figures (samples and measurement rows as written to the CSV tables)."""
    test_id, rtt_id = f"ipv4-ramp-{frame_size}", "icmp-rtt-under-load"
    kernel, d0 = platform.release(), start.date().isoformat()
    onset = next((m[2] for m in meas[:n] if m[7] > m[5] * 0.01), None)
    osr = dict(ln.split("=", 1) for ln in Path("/etc/os-release").read_text().splitlines() if "=" in ln) if Path("/etc/os-release").exists() else {}
    os_name = f"{osr.get('NAME', platform.system()).strip(chr(34)).split()[0]} {osr.get('VERSION_ID', '').strip(chr(34))}".strip()
    port = {"topology": "port-pairs", "ports": 2, "port_speed": link.label, "media": "ethernet", "address_family": "ipv4"}
    return {
        "format_version": 1, "slug": slug, "title": f"Linux kernel IPv4 forwarding in a network namespace, shaped to {limit_pct:g} % of {link.label}: ramp loadtest",
        "summary": (f"Offered load ramped in {n} one-second steps to 100 % of a {link.label} port ({line_fps:,.0f} frames/s of {frame_size} bytes) and held {hold_s} s; "
                    f"the generator sent at most {max(r[8] for r in samples):,.0f} frames/s, the shaped DUT forwarded at most {max(r[9] for r in samples):,.0f} "
                    f"frames/s (its shaper: {limit_fps:,.0f} frames/s) and " + (f"dropped more than 1 % of the frames from the {onset:g} % step on." if onset is not None
                                                                                else "dropped no more than 1 % at any step.")),
        "status": "published", "licence": "CC-BY-4.0", "tags": ["software-generator", "network-namespaces"],
        "source": {"kind": "measured", "publisher": "wirespeed", "publication_kind": "test-run", "published": d0, "notes":
                   "Measured by wirespeed.collectors.netns_ramp; every number comes from this run's interface and qdisc counters and echo timestamps, nothing is smoothed."},
        "campaign": {"start": d0, "end": end.date().isoformat(), "location": f"network namespaces on a {len(cpus)}-core {os_name} VM"},
        "dut": {"vendor": "Linux", "model": f"kernel {kernel} IPv4 forwarding in a network namespace", "kind": "router", "software": [{"name": "Linux kernel", "version": kernel}],
                "notes": f"Namespace ws-dut routes between veth ws-d0 (198.18.0.2/24) and ws-d1 (198.19.0.2/24) with net.ipv4.ip_forward=1. Its egress toward the sink is "
                         f"shaped by tbf rate {int(limit_bps)}bit burst 32k latency {SHAPER_LATENCY_MS}ms overhead 24: {limit_pct:g} % of the {link.label} port speed "
                         f"counted in layer-1 bytes ({limit_fps:,.0f} frames/s of {frame_size} bytes); frames beyond its 50 ms queue are tail-dropped."},
        "instrument": {"vendor": "ESnet", "product": "iperf3", "software": [{"name": "iperf3", "version": iperf_ver}, {"name": "wirespeed netns_ramp collector", "version": wirespeed.__version__}],
                       "modules": [f"namespace ws-gen, veth ws-g0 198.18.0.1/24 (transmit), its egress shaped to {link.label} at layer 1",
                                   "namespace ws-sink, veth ws-s0 198.19.0.1/24 (receive)"],
                       "notes": f"veth has no line rate, so the generator's port was given one: ws-g0's egress is shaped by tbf rate {int(link.bps)}bit burst 32k "
                                f"latency 1ms overhead 24, so the {link.label} port speed is a rate no second can exceed (the generator's own shaper dropped {gen_drops:,} frames "
                                f"iperf3 offered beyond it, which never left the port and are not counted as sent). Frames sent are ws-g0's transmit counter plus "
                                f"its tx_dropped (frames ws-dut's input queue refused); received, ws-s0's receive counter; lost, what the DUT counted dropping "
                                f"(ws-g0 tx_dropped, ws-d0 rx_dropped, ws-d1 tx_dropped, ws-s0 rx_dropped and its shaper's drops), all read every second within "
                                f"1 ms of one another (the time taken in the middle) and including the few iperf3 control frames. The counters are read while traffic flows, so one second's received frames can "
                                f"include frames sent in the second before: sent − received of one second is not its loss and can be slightly negative; over "
                                f"the whole run, once the queues had drained, sent − received − lost was {unaccounted:,} frames. Bit rates are not given: the "
                                f"byte counters include the control frames, so frames × {frame_size + 20} bytes would overstate them. iperf3 clients ran on "
                                f"CPU {cpus[0]}, servers on CPU {cpus[-1]}; the machine's CPUs were {busy_pct:.0f} % busy during ramp and hold (all processes)."},
        "tests": [{
            "id": test_id, "title": f"IPv4 routing, {frame_size}-byte frames, ramp to {link.label}",
            "description": f"{n + 1} iperf3 UDP clients ({payload}-byte payload = {frame_size}-byte Ethernet frame) send from ws-gen to ws-sink through ws-dut: one more "
                           f"starts every second of the ramp, so step k offers (k - 0.5)/{n} of the target, and a last one tops up to 100 % for the hold. The warm-up "
                           f"offers {WARMUP_PCT:g} % for {warmup_s} s and is not in the samples. samples.csv t_s is the start of each one-second interval and "
                           "duration_s its measured length.",
            "rfc": ["loadtest-ramp"], "scenario": "ipv4-routing", **port, "direction": "unidirectional", "flows": n + 1,
            "methodology": {"frame_sizes": [frame_size], "trials": 1, "warmup_s": warmup_s, "rampup_s": n, "hold_s": hold_s, "ramp_target_pct": 100, "search": "ramp",
                            "frame_size_convention": "ethernet-frame",
                            "notes": "measurements.csv has one row per one-second ramp step and one for the whole hold; lost_frames is the DUT's own drop "
                                     "count in that interval, the loss is lost ÷ sent."}},
            {"id": rtt_id, "title": f"Round-trip time of {ECHO_FRAME}-byte ICMP echoes through the router, under the {frame_size}-byte load",
             "description": f"ICMP echo requests ({ECHO_FRAME}-byte Ethernet frames: 80-byte IPv4 packets) every {PING_GAP_S * 1000:g} ms from ws-gen to ws-sink "
                            "on a raw socket; ws-sink's kernel answers. Round-trip time = the kernel's receive timestamp of the reply minus the user-space send "
                            f"time, so it includes the sender's own scheduling. They cross the same router and shaper as the {frame_size}-byte load, in its queue.",
             "rfc": ["vendor"], "scenario": "ipv4-routing", **port, "direction": "bidirectional", "flows": 1,
             "variants": {"warm-up": f"during the {warmup_s} s warm-up, while the generator offered {WARMUP_PCT:g} % of {link.label} in {frame_size}-byte frames",
                          "hold": f"for {lat_s} s right after the hold, while the generator still offered 100 % of {link.label} (the router's shaper "
                                  "overloaded, its 50 ms queue full)"},
             "methodology": {"frame_sizes": [ECHO_FRAME], "trials": 1, "search": "fixed-rate", "frame_size_convention": "ethernet-frame",
                             "latency_method": "round-trip",
                             "notes": "round-trips.csv has the echoes sent and answered and their round-trip statistics, exact (every round trip is in "
                                      "raw/rtt-*.json; percentiles by nearest rank); histograms.csv has them in buckets. The echoes are outside the "
                                      f"samples so that their 500 frames/s do not enter the {frame_size}-byte frame counts; " + "; ".join(rtt_notes) + "."}}],
        "files": {"measurements": ["measurements.csv", "round-trips.csv"], "samples": ["samples.csv"], "histograms": ["histograms.csv"], "attachments": attachments},
    }
