"""The result set of T-Rex NDR/PDR searches with latency: result.toml's test, the tables and the raw files.

measurements.csv, per frame size: one row per search for each loss ratio (variants `ndr`, `pdr`;
`trial` = the search's number; throughput = the lower bound, throughput_upper = the upper bound), one
row without trial holding the mean over the searches with its minimum, maximum and sample standard
deviation; and one row per latency trial (variant `pdr-50`: at 50 % of the mean PDR, `pdr-0`: the
latency stream alone) with its counts and the latency stream's minimum, average and maximum latency
and jitter. A search that ended where T-Rex could not send the load asked of it (`Bound.generator_limited`)
is a lower bound of the device's: its throughput is written `>=`, it has no upper bound of the
device, and the test says `methodology.limited_by = "generator"`.
histograms.csv: the latency histogram of each load, the trials at that load added together.
raw/trials.csv: every search trial; raw/latency-NNN.stats.json: each latency trial's counters and
packet group statistics in T-Rex get_stats() form (the trex importer reads them).
"""

from __future__ import annotations

import json
from typing import Any

from wirespeed.collectors.search.repeat import PointResult
from wirespeed.collectors.search_set import at_least, csv_bytes, from_below, limited, ratio_name, search_variants
from wirespeed.collectors.trex_config import Config
from wirespeed.collectors.trex_set import FRAME_NOTE, stats_doc, test_fields
from wirespeed.engine.linerate import Link

HEADER = ["test", "frame_size", "variant", "trial", "offered_rate_fps", "tx_frames", "rx_frames", "duration_s", "throughput_fps",
          "throughput_upper_fps", "throughput_min_fps", "throughput_max_fps", "throughput_stdev_fps", "latency_min_us", "latency_avg_us",
          "latency_max_us", "jitter_avg_us"]
TRIALS = ["test", "frame_size", "search", "search_no", "trial", "load_fps", "tx_frames", "rx_frames", "duration_s", "tx_rate_fps", "loss_ratio",
          "generator_short", "started_s"]


def num(v: float | None, digits: int = 3) -> str:
    if v is None:
        return ""
    r = round(float(v), digits)
    return str(int(r)) if r == int(r) else repr(r)


def load_name(of: str, pct: float) -> str:
    return f"{of}-{pct:g}".replace(".", "-")


def tables(test: str, points: list[PointResult], ratios: tuple[float, ...], of: str, loads: dict[float, float], shortfall: float,
           ceiling: bool = False) -> tuple[list, list, list]:
    """(measurement rows, search trial rows, histogram rows); `loads` maps a latency fraction to its % of the basis; a search trial
    T-Rex sent more than `shortfall` slower than asked is marked generator_short (the generator's limit, not the device's).
    ceiling: the search's highest rate is below the ports' line rate, so a search that passed there is a lower bound (≥)."""
    rows, trials, hist = [], [], []
    for p in points:
        for i, s in enumerate(p.searches, 1):
            for b in s.bounds:
                rows.append([test, p.frame_bytes, ratio_name(b.loss_ratio), i] + [""] * 4
                            + [at_least(str(b.rate_fps), from_below(b, ceiling)), "" if b.generator_limited else num(b.upper_fps)] + [""] * 7)
            for t in s.trials:
                r = t.result
                trials.append([test, p.frame_bytes, s.algorithm, i, t.number, t.load_fps, r.tx_frames, r.rx_frames, num(r.duration_s, 4),
                               num(r.tx_rate_fps, 1), num(r.loss_ratio, 6), str(r.tx_rate_fps < (1 - shortfall) * t.load_fps).lower(), t.started_s])
        for ratio in ratios:
            sp, lim = p.rates[ratio], limited(p, ratio, ceiling)
            rows.append([test, p.frame_bytes, ratio_name(ratio), ""] + [""] * 4
                        + [at_least(num(sp.mean, 1), lim), "", at_least(num(sp.min), lim), at_least(num(sp.max), lim), num(sp.stdev, 1)] + [""] * 4)
        for fraction, lat in sorted(p.latency.items()):
            name = load_name(of, loads[fraction])
            buckets: dict[tuple[float, float], int] = {}
            for i, r in enumerate(lat, 1):
                us = lambda v: num(v / 1000 if v is not None else None)  # noqa: E731
                rows.append([test, p.frame_bytes, name, i, num(r.rate_fps), r.tx_frames, r.rx_frames, num(r.duration_s, 4)] + [""] * 5
                            + [us(r.latency_min_ns), us(r.latency_avg_ns), us(r.latency_max_ns), us(r.jitter_ns)])
                for lo, hi, n in r.histogram_us:
                    buckets[(lo, hi)] = buckets.get((lo, hi), 0) + n
            hist += [[test, p.frame_bytes, name, num(lo), num(hi), n] for (lo, hi), n in sorted(buckets.items())]
    return rows, trials, hist


def build(cfg: Config, points: list[PointResult], link: Link | None, readings: list[dict], basis: float) -> tuple[dict, dict, dict[str, bytes], str]:
    """(test, files section, files, summary) of the searches; `basis` is the loss ratio the latency loads are shares of."""
    plan, lat = cfg.search, cfg.latency
    test_id = cfg.raw["test"]["id"]
    of = "ndr" if basis == 0 else "pdr"
    loads = {pct / 100: pct for pct in (lat.loads_pct if lat else ())}
    below_line_rate = not (plan.max_rate.unit == "pct" and plan.max_rate.value >= 100)  # a search topped at the line rate is exact there
    rows, trials, hist = tables(test_id, points, plan.loss_ratios, of, loads, plan.shortfall, below_line_rate)
    variants = search_variants(plan.loss_ratios, below_line_rate)
    if lat:
        variants |= {load_name(of, pct): (f"latency trial at {pct:g} % of the mean {of.upper()} plus the latency stream" if pct
                                          else "latency trial: the latency stream alone, no load") + f" ({lat.rate_fps:,.0f} frames/s, its own packet group)"
                     for pct in lat.loads_pct}
    searches = [s for p in points for s in p.searches]
    stopped = sum(any(b.generator_limited for b in s.bounds) for s in searches)
    meth: dict[str, Any] = {
        "frame_sizes": list(plan.frame_sizes), "trials": plan.repeats, "trial_duration_s": plan.trial_duration_s,
        "search": "mlrsearch" if plan.algorithm == "mlrsearch" else "binary",
        "loss_tolerance_pct": max(plan.loss_ratios) * 100, "frame_size_convention": "ethernet-frame", "latency_method": "unspecified",
        **({"limited_by": "generator"} if stopped else {}), **({"max_frame_bytes": max(plan.frame_sizes)} if max(plan.frame_sizes) > 1518 else {}),
        "notes": f"{plan.algorithm} search (wirespeed.collectors.search) from {_rate(plan.min_rate)} to {_rate(plan.max_rate)} to a width of "
                 f"{plan.resolution * 100:g} % (at least {plan.resolution_fps:g} frames/s), at most {plan.max_trials} trials or {plan.time_budget_s:g} s "
                 f"per search, {plan.repeats} searches per frame size. Each trial is one continuous UDP/IPv4 stream started with start_traffic's "
                 "duration (T-Rex times it) and counted as the difference of the transmit port's opackets and the receive port's ipackets. "
                 f"A trial T-Rex sent more than {plan.shortfall * 100:g} % slower than asked is the generator's limit, not the device's: "
                 f"{stopped} of {len(searches)} searches ended there (their results are lower bounds, >=). " + FRAME_NOTE
                 + (f" Latency: {lat.repeats} trials of {lat.duration_s:g} s at each load, the load's stream plus a latency stream of "
                    f"{lat.rate_fps:,.0f} frames/s with T-Rex flow statistics of type latency (STLFlowLatencyStats), a new packet group per trial; "
                    "minimum, average (T-Rex's smoothed average: each reading period's mean folded in with weight 1/2, src/time_histogram.cpp), "
                    "maximum and jitter (whole µs) as get_pgid_stats reports them, the histogram in "
                    "T-Rex's buckets (10 µs wide below 100 µs, 100 µs below 1 ms, …). The offered rate and the counts of a latency trial "
                    "include the latency stream." if lat else "")}
    test = {**test_fields(cfg, link, ["2544"], meth), "variants": variants}
    n_lat = sum(len(t) for p in points for t in p.latency.values())
    files = {"measurements.csv": csv_bytes(rows, HEADER), "raw/trials.csv": csv_bytes(trials, TRIALS)}
    section: dict[str, Any] = {"measurements": ["measurements.csv"], "attachments": [
        {"path": "raw/trials.csv", "title": "Every search trial: load, frames sent and received, duration, sending rate, loss, "
                                            "whether T-Rex sent slower than asked (generator_short)"}]}
    if hist:
        files["histograms.csv"] = csv_bytes(hist, ["test", "frame_size", "variant", "bucket_low_us", "bucket_high_us", "count_frames"])
        section["histograms"] = ["histograms.csv"]
    for i, reading in enumerate((r for r in readings if "latency" in r), 1):
        files[f"raw/latency-{i:03d}.stats.json"] = (json.dumps(stats_doc(reading, cfg.tx_port, cfg.rx_port), indent=1) + "\n").encode()
        section["attachments"].append({"path": f"raw/latency-{i:03d}.stats.json", "title": f"Latency trial {i} of {n_lat}: port counters and packet "
                                                                                           f"group {reading['latency'].pg_id} in T-Rex get_stats() form"})
    first = plan.loss_ratios[0]
    summary = "NDR " + ", ".join(f"{p.frame_bytes} B {'≥' if limited(p, first, below_line_rate) else ''}{p.rates[first].mean:,.0f} frames/s"
                                 for p in points) + (f" (the mean of {plan.repeats} searches each" if plan.repeats > 1 else " (one search each")
    generator = any(limited(p, first) for p in points)
    topped = any(limited(p, first, below_line_rate) and not limited(p, first) for p in points)
    why = [w for w, yes in (("limited by the generator, not the device", generator),
                            ("the search passed at its highest rate, below the line rate, and tried nothing above", topped)) if yes]
    summary += f"; ≥: {' or '.join(why)})." if why else ")."
    return test, section, files, summary


def _rate(r) -> str:
    return f"{r.value:,.0f} frames/s" if r.unit == "fps" else f"{r.value:g} % of line rate"
