"""The result set of a netns search collection: result.toml's document and the CSV tables, from the searches' results.

measurements.csv: per test (device variant) and frame size, one row per search (`trial` = the search's
number) for variants ndr and pdr — throughput = the lower bound, throughput_upper = the upper bound —
and one row without trial holding the mean over the searches with its minimum, maximum and sample
standard deviation (the error bar). Latency rows (variants ndr-10, ndr-50, ndr-90: at that share of
the mean NDR) per trial, with the trial's counts and the captured per-frame latency, and one summary
row. raw/trials.csv keeps every search trial; raw/hooks.json every hook call.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import platform
import subprocess
from pathlib import Path
from typing import Any

import wirespeed
from wirespeed.collectors.search.repeat import PointResult, Spread
from wirespeed.collectors.search.session import Bound

HEADER = ["test", "frame_size", "variant", "trial", "offered_rate_pps", "tx_frames", "rx_frames", "duration_s",
          "throughput_fps", "throughput_upper_fps", "throughput_min_fps", "throughput_max_fps", "throughput_stdev_fps",
          "latency_min_us", "latency_avg_us", "latency_max_us", "latency_p50_us", "latency_p90_us", "latency_p99_us"]
TITLES = {"bridge": "Linux bridge", "ipv4-forward": "IPv4 forwarding", "ipv4-nftables": "IPv4 forwarding through nftables"}


def _num(v: float | None, digits: int = 3) -> str:
    if v is None:
        return ""
    r = round(float(v), digits)
    return str(int(r)) if r == int(r) else repr(r)


def ratio_name(r: float) -> str:
    """The name of a loss ratio's rate: ndr (no loss), pdr (0.5 %), pdr-N otherwise."""
    return "ndr" if r == 0 else "pdr" if r == 0.005 else f"pdr-{r * 100:g}".replace(".", "-")


def csv_bytes(rows: list[list[Any]], header: list[str]) -> bytes:
    """A CSV file's bytes: the header, then the rows (the collectors' one writer of measurements and trials)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode()


def at_least(v: str, limited: bool) -> str:
    """A rate that bounds the device's from below (the generator limited it, or the search passed at its top): ">=" (at least)."""
    return f">={v}" if limited and v != "" else v


def from_below(b: Bound, ceiling: bool = False) -> bool:
    """Whether a search's answer bounds the device's throughput from below only: the generator could not offer the load
    above it, or (ceiling: the search's highest rate is not a line rate the device cannot exceed, as on veth) the search
    passed at its highest rate, so nothing above it was tried."""
    return b.generator_limited or (ceiling and b.upper_fps is None and b.lower_fps is not None)


def limited(p: PointResult, ratio: float, ceiling: bool = False) -> bool:
    """Whether any search of a point bounds the device from below only (for this loss ratio): see from_below."""
    return any(from_below(b, ceiling) for s in p.searches for b in s.bounds if b.loss_ratio == ratio)


def search_variants(ratios: tuple[float, ...], ceiling: bool) -> dict[str, str]:
    """The words of each loss ratio's variant (ndr, pdr, …) of a search set, with when its figure is a lower bound (from_below)."""
    when = "where the generator stopped the search" + (" or it passed at its highest rate" if ceiling else "")
    return {ratio_name(r): ("NDR: highest rate without loss" if r == 0 else f"PDR: highest rate with at most {r * 100:g} % loss")
            + f" (the search's lower bound, ≥ {when}; the row without trial is the mean over the searches)" for r in ratios}


def _rows(test: str, p: PointResult, ratios: tuple[float, ...]) -> tuple[list[list[Any]], list[list[Any]]]:
    rows, trials = [], []
    for i, s in enumerate(p.searches, 1):
        for b in s.bounds:
            # a search the generator stopped: its answer bounds the device from below, and its upper bound is the generator's, not the
            # device's; a search that passed at its highest rate (veth has no line rate to cap it) bounds it from below too
            upper = "" if b.generator_limited else _num(b.upper_fps)
            rows.append([test, p.frame_bytes, ratio_name(b.loss_ratio), i] + [""] * 4 + [at_least(str(b.rate_fps), from_below(b, True)), upper] + [""] * 9)
        for t in s.trials:
            r = t.result
            trials.append([test, p.frame_bytes, s.algorithm, i, t.number, t.load_fps, r.tx_frames, r.rx_frames, _num(r.duration_s, 4),
                           _num(r.tx_rate_fps, 1), _num(r.loss_ratio, 6), t.started_s])
    for ratio in ratios:
        sp: Spread = p.rates[ratio]
        lim = limited(p, ratio, ceiling=True)
        rows.append([test, p.frame_bytes, ratio_name(ratio), ""] + [""] * 4
                    + [at_least(_num(sp.mean, 0), lim), "", at_least(_num(sp.min), lim), at_least(_num(sp.max), lim), _num(sp.stdev, 0)] + [""] * 6)
    for fraction, lat in sorted(p.latency.items()):
        name = f"ndr-{round(fraction * 100)}"
        for i, r in enumerate(lat, 1):
            us = lambda v: _num(v / 1000 if v is not None else None)  # noqa: E731
            rows.append([test, p.frame_bytes, name, i, _num(r.tx_rate_fps, 1), r.tx_frames, r.rx_frames, _num(r.duration_s, 4)] + [""] * 5
                        + [us(r.latency_min_ns), us(r.latency_avg_ns), us(r.latency_max_ns)]
                        + [us(r.latency_percentiles_ns.get(k)) for k in ("latency_p50", "latency_p90", "latency_p99")])
    return rows, trials


def build(slug: str, cfg, points: dict[str, list[PointResult]], started: dt.datetime, ended: dt.datetime, log: list[str],
          runner, uptime: list[str], config_path: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    """(result.toml document, files) of the collection."""
    kernel = platform.release()
    trafgen = subprocess.run(["trafgen", "-v"], capture_output=True, text=True, timeout=10).stdout.split("\n")[0].split(",")[0].strip()
    rows, trial_rows, tests, names = [], [], [], []
    for variant, pts in points.items():
        test = variant if variant != "ipv4-nftables" else f"ipv4-nftables-{cfg.nft_rules}"
        for p in pts:
            r, t = _rows(test, p, cfg.loss_ratios)
            rows += r
            trial_rows += t
        title = TITLES[variant] + (f" ({cfg.nft_rules:,} rules)" if variant == "ipv4-nftables" else "")
        names.append(title)
        searches = [s for p in pts for s in p.searches]
        stopped = sum(any(b.generator_limited for b in s.bounds) for s in searches)
        topped = sum(any(from_below(b, True) and not b.generator_limited for b in s.bounds) for s in searches)
        sent = [t for s in searches for t in s.trials]
        short = sum(t.result.tx_rate_fps < (1 - cfg.shortfall) * t.load_fps for t in sent)
        lost = sum(t.result.tx_frames - t.result.rx_frames > 0 for t in sent)
        variants = search_variants(cfg.loss_ratios, ceiling=True)
        variants |= {f"ndr-{round(f * 100)}": f"latency trial asked for {f * 100:g} % of the mean NDR (the offered rate is the rate the generator sent)" for f in cfg.latency_fractions if cfg.latency}
        tests.append({
            "id": test, "title": f"{title}, veth in and out",
            "description": {"bridge": "Namespace wst-dut bridges wst-d0 and wst-d1 (Linux bridge br0, static forwarding entry for the sink).",
                            "ipv4-forward": "Namespace wst-dut routes IPv4 between wst-d0 (198.18.0.2/24) and wst-d1 (198.19.0.2/24).",
                            "ipv4-nftables": f"As IPv4 forwarding, plus an nftables forward chain of {cfg.nft_rules:,} rules (ip saddr 10.x.y.1 udp dport N drop) "
                                             "that the test traffic never matches, so each frame is compared against every rule, then accepted."}[variant],
            "rfc": ["2544"], "scenario": {"bridge": "l2-unicast", "ipv4-forward": "ipv4-routing", "ipv4-nftables": "acl-filtering"}[variant], "topology": "port-pairs", "ports": 2,
            "port_speed": cfg.nominal_port_speed, "media": "ethernet", "port_speed_nominal": True, "direction": "unidirectional",
            "address_family": "ipv4", "flows": 1,
            **({"acl_entries": cfg.nft_rules} if variant == "ipv4-nftables" else {}),
            "variants": variants,
            "methodology": {"frame_sizes": list(cfg.frame_sizes), "trials": cfg.repeats, "trial_duration_s": cfg.trial_duration_s,
                            "search": "mlrsearch" if cfg.algorithm == "mlrsearch" else "binary",
                            **({"limited_by": "generator"} if stopped else {}),
                            "loss_tolerance_pct": max(cfg.loss_ratios) * 100, "frame_size_convention": "ethernet-frame",
                            "latency_method": "one-way-capture", **({"max_frame_bytes": max(cfg.frame_sizes)} if max(cfg.frame_sizes) > 1518 else {}),
                            "notes": f"{cfg.algorithm} search between {cfg.min_rate_fps:,.0f} and {cfg.max_rate_fps:,.0f} frames/s to a width of "
                                     f"{cfg.resolution * 100:g} % (at least {cfg.resolution_fps:g} frames/s), at most {cfg.max_trials} trials or "
                                     f"{cfg.time_budget_s:g} s per search, repeated {cfg.repeats} times. A trial the generator sent more than "
                                     f"{cfg.shortfall * 100:g} % slower than asked tested the rate it did send (a lower bound when nothing was lost), "
                                     "and the load it was asked for is the generator's limit, not the device's: such a search's result is a lower "
                                     f"bound (≥) and has no upper bound of the device. {stopped} of {len(searches)} searches were stopped by the generator"
                                     + (f", {topped} passed at the highest rate ({cfg.max_rate_fps:,.0f} frames/s: a lower bound, ≥, as nothing "
                                        "above it was tried)" if topped else "") + "; "
                                     f"{short} of their {len(sent)} trials sent slower than asked, {lost} lost frames. Latency is one-way, from the host "
                                     "timestamps tcpdump gives each frame leaving wst-g0 and arriving at wst-s0"
                                     + (f", in {cfg.latency_repeats or cfg.repeats} trials of {cfg.latency_duration_s:g} s at each fraction of the mean NDR."
                                        if cfg.latency and cfg.latency_fractions else ".")}})
    doc: dict[str, Any] = {
        "format_version": 1, "slug": slug, "title": cfg.title,
        "summary": "; ".join(f"{name}: NDR " + ", ".join(
            f"{p.frame_bytes} B {'≥' if limited(p, cfg.loss_ratios[0]) else ''}{p.rates[cfg.loss_ratios[0]].mean:,.0f} frames/s" for p in points[v])
            for name, v in zip(names, points))
            + (f" (each the mean of {cfg.repeats} searches" if cfg.repeats > 1 else " (one search each") + ("; ≥: limited by the generator, not the device)." if any(
                limited(p, cfg.loss_ratios[0]) for pts in points.values() for p in pts) else ")."),
        "status": "published", "licence": "CC-BY-4.0", "tags": ["software-generator", "network-namespaces", "ndr-pdr"],
        "source": {"kind": "measured", "publisher": "wirespeed", "publication_kind": "test-run", "published": ended.date().isoformat(),
                   "notes": "Measured by wirespeed.collectors.netns_search (wirespeed collect netns); every number comes from this run's interface "
                            "counters and captures. Machine load (uptime) before and after: " + " | ".join(uptime)},
        "campaign": {"start": started.date().isoformat(), "end": ended.date().isoformat(),
                     "location": f"network namespaces on a {len(__import__('os').sched_getaffinity(0))}-core VM shared with other jobs"},
        "dut": {"vendor": "Linux", "model": f"kernel {kernel} in a network namespace, veth ports", "kind": "router",
                "software": [{"name": "Linux kernel", "version": kernel}],
                "notes": "A software device: namespace wst-dut between two veth pairs. veth moves frames between namespaces in memory; "
                         "there is no wire, no NIC and no line rate: the port speed is a label the format asks for (port_speed_nominal), "
                         "and no figure is a share of it."},
        "instrument": {"vendor": "netsniff-ng", "product": "trafgen",
                       "software": [{"name": "trafgen", "version": trafgen.removeprefix("trafgen ").split()[0]},
                                    {"name": "wirespeed netns search collector", "version": wirespeed.__version__}],
                       "modules": ["namespace wst-gen, veth wst-g0 (transmit)", "namespace wst-sink, veth wst-s0 (receive)"],
                       "notes": "Counts from the interface counters (wst-g0 tx + tx_dropped, wst-s0 rx); latency from tcpdump captures on both "
                                "sides matched frame by frame by wirespeed.capture (one kernel clock). The generator and the device share the machine's CPUs."},
        "tests": tests,
        "files": {"measurements": ["measurements.csv"], "attachments": [
            {"path": "raw/trials.csv", "title": "Every search trial: load, frames sent and received, duration, sending rate, loss"},
            {"path": "raw/hooks.json", "title": "Every hook call: when, name, start, duration, exit status, output"},
            {"path": "raw/setup-commands.txt", "title": "Commands that built the namespaces, the devices and the generator"},
            {"path": "raw/uptime.txt", "title": "uptime before and after the collection (the machine was shared)"},
            {"path": "raw/collect-config.toml", "title": "The collector config of this run"}]},
    }
    if len(tests) > 1:
        doc["comparisons"] = [{"id": "devices", "title": " vs ".join(names),
                               "tests": [t["id"] for t in tests], "metrics": ["throughput"]}]
    files = {"measurements.csv": csv_bytes(rows, HEADER),
             "raw/trials.csv": csv_bytes(trial_rows, ["test", "frame_size", "search", "search_no", "trial", "load_fps", "tx_frames", "rx_frames",
                                                  "duration_s", "tx_rate_fps", "loss_ratio", "started_s"]),
             "raw/hooks.json": runner.json().encode(), "raw/setup-commands.txt": ("\n".join(dict.fromkeys(log)) + "\n").encode(),
             "raw/uptime.txt": ("\n".join(uptime) + "\n").encode(), "raw/collect-config.toml": Path(config_path).read_bytes()}
    return doc, files


def device_title(variant: str, nft_rules: int) -> str:
    """A device variant's name as titles and summaries print it."""
    return TITLES[variant] + (f" ({nft_rules:,} rules)" if variant == "ipv4-nftables" else "")
