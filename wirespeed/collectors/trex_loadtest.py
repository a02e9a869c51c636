"""The ramp loadtest of seed 004 (IPng's trex-loadtest) on a T-Rex server: warm-up, ramp, hold, a sample a second.

One continuous stream on the transmit port: `warmup_s` seconds at `warmup_fps` (not in the samples),
then `rampup_s` one-second steps from target/rampup_s to the target (update_traffic at the start of
each second), then `hold_s` seconds at the target. Both ports' counters are read at every second's
boundary; a sample is the difference of two readings over the time between them (the collector's
clock), so its rates are frames (and bytes) ÷ that time. The set keeps the samples in the JSON
shape the **trex-ramp** importer reads (`{"vars": {…}, "stats": {"SECONDS": {"PORT": {tx_pps,
rx_pps, tx_bps, rx_bps, opackets, ipackets}}}}`, byte rates of the packet without its FCS, as T-Rex
counts bytes) and one measurement row per ramp step and one for the hold.
"""

from __future__ import annotations

import csv
import io
from typing import Any, Callable

from wirespeed.collectors.trex_config import Config
from wirespeed.collectors.trex_generator import TrexGenerator
from wirespeed.collectors.trex_rpc import TrexError
from wirespeed.collectors.trex_set import FRAME_NOTE, test_fields
from wirespeed.engine.linerate import Link, port_fps

NATIVE = "native/loadtest.json"
SHORTFALL = 0.01  # a second T-Rex sent more than 1 % below the rate asked: the generator's limit (counters are read over RPC, ±ms)


def run(cfg: Config, gen: TrexGenerator, link: Link | None, clock: Callable[[], float], sleep: Callable[[float], None],
        progress: Callable[..., None] | None = None) -> dict[str, Any]:
    """Run the loadtest; returns {"vars", "stats", "offered", "durations"} (stats keyed by seconds from the ramp's start)."""
    plan = cfg.loadtest
    line = port_fps(plan.frame_size, link) if link else None
    target = plan.target.fps(line)
    if target is None:
        raise TrexError(f"{cfg.path}: loadtest.target_pct: a share of the line rate needs the port speed: the server did not report it; set test.port_speed")
    if line is not None and target > line * 1.000001:
        raise TrexError(f"{cfg.path}: loadtest: {target:,.0f} frames/s of {plan.frame_size} bytes is above the {link.label} line rate ({line:,.0f})")
    total = plan.warmup_s + plan.rampup_s + plan.hold_s
    gen.start_continuous(plan.frame_size, plan.warmup_fps if plan.warmup_s else target / plan.rampup_s)
    t0 = clock()
    try:
        readings: list[tuple[float, dict[int, Any]]] = []
        offered: list[float] = []
        for s in range(total + 1):
            wait = t0 + s - clock()
            if wait > 0:
                sleep(wait)
            if s >= plan.warmup_s:
                readings.append((clock(), gen.counters()[1]))
            if s < total and s >= plan.warmup_s:
                k = s - plan.warmup_s
                rate = target * min(k + 1, plan.rampup_s) / plan.rampup_s
                if s > 0:
                    gen.set_rate(rate)
                offered.append(rate)
            if progress:
                progress(s, total, f"loadtest {plan.frame_size} B: second {s} of {total}")
    finally:
        gen.stop()
    stats, durations = {}, []
    start = readings[0][0]
    for (ta, a), (tb, b), _rate in zip(readings, readings[1:], offered):
        d = tb - ta
        durations.append(d)
        stats[repr(round(ta - start, 6))] = {str(p): {"tx_pps": (b[p].opackets - a[p].opackets) / d, "rx_pps": (b[p].ipackets - a[p].ipackets) / d,
                                                      "tx_bps": (b[p].obytes - a[p].obytes) * 8 / d, "rx_bps": (b[p].ibytes - a[p].ibytes) * 8 / d,
                                                      "opackets": b[p].opackets - a[p].opackets, "ipackets": b[p].ipackets - a[p].ipackets}
                                             for p in sorted(b)}
    doc_vars = {"profile_file": f"wirespeed udp {plan.frame_size}B", "warmup_duration": plan.warmup_s, "warmup_mult": f"{plan.warmup_fps:g}pps",
                "rampup_duration": plan.rampup_s, "rampup_target": round(target / line * 100, 6) if line else None, "rampup_target_fps": target,
                "hold_duration": plan.hold_s, "unidirectional": "true", "tx_port": cfg.tx_port, "rx_port": cfg.rx_port}
    return {"vars": {k: v for k, v in doc_vars.items() if v is not None}, "stats": stats, "offered": offered, "durations": durations, "line_fps": line}


def build(cfg: Config, result: dict[str, Any], link: Link | None) -> tuple[dict, dict, dict[str, bytes], str]:
    """(test, files section, files, summary) of a loadtest."""
    import json

    plan = cfg.loadtest
    tx, rx = str(cfg.tx_port), str(cfg.rx_port)
    samples = list(result["stats"].values())
    line = result["line_fps"]
    steps = []
    for k, (sample, rate, d) in enumerate(zip(samples, result["offered"], result["durations"])):
        steps.append((k, rate, sample[tx]["opackets"], sample[rx]["ipackets"], d))
    ramp, hold = steps[:plan.rampup_s], steps[plan.rampup_s:]
    test_id = cfg.raw["test"]["id"]
    pct = (lambda r: round(r / line * 100, 6)) if line else (lambda r: None)  # noqa: E731
    rows = [[test_id, plan.frame_size, pct(rate), "ramp", 1, round(rate, 3), t, r, round(d, 6)] for _k, rate, t, r, d in ramp]
    rows.append([test_id, plan.frame_size, pct(hold[0][1]), "hold", 1, round(hold[0][1], 3), sum(h[2] for h in hold), sum(h[3] for h in hold),
                 round(sum(h[4] for h in hold), 6)])
    short = [k for k, rate, t, _r, d in steps if t / d < (1 - SHORTFALL) * rate]
    header = ["test", "frame_size", "load_pct", "variant", "trial", "offered_rate_fps", "tx_frames", "rx_frames", "duration_s"]
    if not line:
        header.remove("load_pct")
        rows = [r[:2] + r[3:] for r in rows]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([header, *rows])
    native = {"vars": result["vars"], "stats": result["stats"]}
    files = {NATIVE: (json.dumps(native, indent=1) + "\n").encode(), "measurements.csv": buf.getvalue().encode()}
    meth: dict[str, Any] = {"frame_sizes": [plan.frame_size], "trials": 1, "warmup_s": plan.warmup_s, "rampup_s": plan.rampup_s, "hold_s": plan.hold_s,
                            **({"ramp_target_pct": result["vars"]["rampup_target"]} if line else {}), "search": "ramp",
                            "frame_size_convention": "ethernet-frame", **({"limited_by": "generator"} if short else {}),
                            "notes": f"One continuous UDP/IPv4 stream: {plan.warmup_s} s at {plan.warmup_fps:,.0f} frames/s (not in the samples), then the rate "
                                     f"set (update_traffic) at the start of each of {plan.rampup_s} one-second steps from 1/{plan.rampup_s} of the target to the "
                                     f"target, {result['vars']['rampup_target_fps']:,.0f} frames/s, held {plan.hold_s} s. Both ports' counters are read at each "
                                     "second's boundary; a sample's rates are its counter differences over the time between the readings. measurements.csv "
                                     f"has a row per ramp step and one for the hold. {len(short)} of {len(steps)} seconds T-Rex sent more than "
                                     f"{SHORTFALL:.0%} below the rate asked (the generator's limit). " + FRAME_NOTE}
    test = {**test_fields(cfg, link, ["loadtest-ramp"], meth),
            "variants": {"ramp": "one second of the ramp, at the rate set at its start", "hold": f"the {plan.hold_s} s at the target, in all"}}
    section = {"measurements": ["measurements.csv"],
               "native": [{"path": NATIVE, "importer": "trex-ramp", "test": test_id, "frame_size": plan.frame_size}]}
    top = max(s[tx]["tx_pps"] for s in samples)
    summary = (f"Ramp of {plan.rampup_s} one-second steps to {result['vars']['rampup_target_fps']:,.0f} frames/s of {plan.frame_size} bytes, held {plan.hold_s} s: "
               f"T-Rex sent at most {top:,.0f} frames/s, the device forwarded at most {max(s[rx]['rx_pps'] for s in samples):,.0f}; "
               f"{sum(h[2] - h[3] for h in hold):,} frames of the hold were not received.")
    return test, section, files, summary
