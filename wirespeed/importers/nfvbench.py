"""OPNFV NFVbench results: bare, from its server, or in OPNFV TestAPI records and pages (one page holds
many runs: `nfvbench_layout` finds them and groups them into tests).

Read as NFVbench writes them (opnfv/nfvbench: traffic_client.py, chain_runner.py, trex_gen.py):

- An NDR/PDR search (`ndr`, `pdr` blocks per frame size) asks the generator for a rate in percent of
  line rate PER DIRECTION; its `rate_pps`, `rate_bps` and `rate_percent` are what it ASKED for, added
  over both directions (200 % = line rate both ways). What the generator SENT is
  `stats.total_tx_rate` (frames sent ÷ duration, both directions): that is the throughput published,
  and the engine divides it by the test's aggregate line rate. When the generator sent less than
  90 % of the rate asked, NFVbench writes a `warning` (in the block's stats, and a copy beside the
  frame sizes): the device lost no more than the threshold at the rate sent and the generator could
  not offer more, so the throughput is published as at least (`>=`) that rate, and the warning is
  carried into the test's notes (`describe`). So is a search that ended at its ceiling, line rate in
  each direction (`load_percent_per_direction` 100), as the device never lost too much. A search that found no rate (every load lost too
  much: NFVbench writes rates of 0) gives no row and a note.
- A fixed-rate run (`run_config`, `stats`, `packet_path_stats`): `run_config.direction-*.orig` is the
  rate asked, `.tx`/`.rx` the rates sent and received. The row's load is the rate SENT in percent of
  line rate (per direction, so averaged over the two directions); tx_rate and rx_rate are NFVbench's.
- Counters: port p's `tx` is what p sent; the frames sent by port p arrive at port 1 − p. Latency:
  NFVbench files the latency of the frames SENT by port p under port p (trex_gen.py
  __combine_latencies reads the latency stream of port p; packet_stats.py: "use port 0 latency for
  forward"), so direction 0->1 has port 0's latency. A delay of 0 is one NFVbench did not measure
  (no latency stream, or T-Rex lost it: a real page has a direction with avg 75 µs and max 0) and is
  left out. Percentiles come from the overall HDR histogram when it has samples, else
  from NFVbench's `lat_percentile` (50, 90, 99, 99.9, 99.99; "n/a" is left out); an empty
  histogram (what NFVbench writes when T-Rex timed nothing) gives no percentiles.

Rows, per frame size and NDR/PDR variant (or load): a bidirectional run gives an aggregate row (both
directions: NFVbench's `overall`) and one row per direction (`port` 0->1, 1->0) with its frames,
duration and latency; a unidirectional run gives one row, of its one direction 0->1 (NFVbench's
`overall` is port 0's counters there, the frames port 0 received included, so it is not used).
Loss and the forwarding rate are derived by the engine from the frame counts.
"""

from __future__ import annotations

import re

from wirespeed.engine.figures import Figure
from wirespeed.importers import hdr
from wirespeed.importers import nfvbench_layout as layout
from wirespeed.importers.common import json_head_has, keyed, lenient, number, row
from wirespeed.importers.contract import Importer
from wirespeed.importers.nfvbench_plan import describe
from wirespeed.problems import Problem
from wirespeed.resultset.model import Cell

RULE = layout.RULE
DIRECTIONS = (("0->1", "0", "1", "direction-forward"), ("1->0", "1", "0", "direction-reverse"))
PCT_KEYS = {50.0: "latency_p50", 90.0: "latency_p90", 99.0: "latency_p99", 99.9: "latency_p99_9", 99.99: "latency_p99_99"}


def frame_of(entry: layout.Entry, test, file: str) -> tuple[int | str | None, Problem | None]:
    """The frame_size key of an entry: bytes (FCS included, as NFVbench counts them) or an IMIX id."""
    text = entry.size_key
    if text.isdigit() and int(text) > 0:
        return int(text), None
    if text.lower() in test.imixes:
        return text.lower(), None
    if text.upper() == "IMIX":
        return None, Problem(file, None, entry.where, "frame size 'IMIX': NFVbench's IMIX is not declared in the test's methodology.imix "
                             "(since NFVbench 2.0.5: 64, 594 and 1518-byte frames at 7:4:1, profile simple-imix)", RULE)
    return None, Problem(file, None, entry.where, f"frame size {text!r}: expected a number of bytes or IMIX", RULE)


def _counters(stats) -> dict:
    """One port's (or `overall`'s) counters and latency, from either of NFVbench's two shapes: the
    search blocks' flat {tx_pkts, rx_pkts, *_delay_usec} or the fixed-rate runs' {tx: {total_pkts},
    rx: {total_pkts, *_delay_usec}}."""
    if not isinstance(stats, dict):
        return {}
    flat = "tx_pkts" in stats or "rx_pkts" in stats
    rx = stats if flat else stats.get("rx") if isinstance(stats.get("rx"), dict) else {}
    return {"tx": number(stats, "tx_pkts") if flat else number(stats.get("tx"), "total_pkts"),
            "rx": number(rx, "rx_pkts" if flat else "total_pkts"),
            "loss": number(stats, "drop_percentage" if flat else "drop_rate_percent"),
            "latency": rx, "hdrh": stats.get("hdrh")}


def _latency(counters: dict, file: str, where: str, percentiles: bool) -> tuple[dict, list[Problem]]:
    lat = counters.get("latency", {})
    # a delay of 0 is one NFVbench did not measure (no latency stream; T-Rex's NaN or lost maximum)
    values = {m: (number(lat, f"{k}_delay_usec") or None, "us") for m, k in (("latency_min", "min"), ("latency_avg", "avg"), ("latency_max", "max"))}
    if not any(v for v, _u in values.values()):
        return {}, []
    if not percentiles:
        return values, []
    if counters.get("hdrh"):
        hist, problems = hdr.decode(counters["hdrh"], file, f"{where}.hdrh", RULE, empty_ok=True)
        if problems:
            return values, problems
        if hist is not None:
            return {**values, **{m: (v, "us") for m, v in hdr.percentiles(hist).items()}}, []
    pct = lat.get("lat_percentile")
    for key, v in (pct.items() if isinstance(pct, dict) else ()):
        p = lenient(key)
        metric = PCT_KEYS.get(float(p)) if p is not None else None
        if metric and lenient(v) is not None and lenient(v) >= 0:
            values[metric] = (lenient(v), "us")
    return values, []


def _at_least(c: Cell) -> Cell:
    """The same figure, qualified "at least" (>=)."""
    fig = Figure.parse(">=" + c.figure.text)
    return Cell(fig, c.unit, Figure(fig.text, c.canonical.value, c.canonical.decimals, fig.qualifier))


def _port_rows(stats: dict, keys: dict, duration, rates: dict, file: str, where: str) -> tuple[list, list[Problem]]:
    """One row per direction: frames sent by one port and received by the other, the sender's latency."""
    rows, problems = [], []
    for name, tx_port, rx_port, run_key in DIRECTIONS:
        sender, receiver = _counters(stats.get(tx_port)), _counters(stats.get(rx_port))
        if not sender and not receiver:
            continue
        lat, probs = _latency(sender, file, f"{where}.{tx_port}", percentiles=False)
        problems += probs
        values = {"tx": (sender.get("tx"), "frames"), "rx": (receiver.get("rx"), "frames"), "duration": (duration, "s"), **rates.get(run_key, {}), **lat}
        rows.append(row("measurements", file, 0, {**keys, "port": name}, values))
    return rows, problems


def search_rows(entry: layout.Entry, variant: str, keys: dict, file: str) -> tuple[list, list[Problem]]:
    """The rows of one NDR or PDR block."""
    block = entry.body[variant]
    at = f"{entry.where}.{variant}"
    stats = block.get("stats") if isinstance(block.get("stats"), dict) else {}
    duration = number(block, "duration_sec")
    overall = _counters(stats.get("overall"))
    if layout.found_nothing(block):
        return [], []  # every load tried lost too much (describe notes it)
    at_least = variant in layout.warnings_of(entry) or layout.at_ceiling(block)  # the generator, not the device, set the limit
    if not entry.bidirectional:
        sender, receiver = _counters(stats.get("0")), _counters(stats.get("1"))
        rate = sender["tx"] / duration if sender.get("tx") is not None and duration else None
        lat, problems = _latency(sender, file, f"{at}.stats.0", percentiles=False)
        values = {"tx": (sender.get("tx"), "frames"), "rx": (receiver.get("rx"), "frames"), **lat}
        rows = []
    else:
        rate = number(stats, "total_tx_rate")
        if rate is None and overall.get("tx") is not None and duration:
            rate = overall["tx"] / duration
        lat, problems = _latency(overall, file, f"{at}.stats.overall", percentiles=True)
        values = {"tx": (overall.get("tx"), "frames"), "rx": (overall.get("rx"), "frames"), "loss": (overall.get("loss"), "pct"), **lat}
        rows, problems2 = _port_rows(stats, keys, duration, {}, file, f"{at}.stats")
        problems += problems2
    if rate is None:
        return [], [Problem(file, None, f"{at}.stats.total_tx_rate", "expected the rate the generator sent: stats.total_tx_rate, or frames sent (tx_pkts) and duration_sec", RULE)]
    agg = row("measurements", file, 0, keys, {"throughput": (rate, "pps"), "duration": (duration, "s"), **values})
    if at_least:
        agg.cells["throughput"] = _at_least(agg.cells["throughput"])
    return [agg, *rows], problems


def fixed_rows(entry: layout.Entry, keys: dict, file: str) -> tuple[list, list[Problem]]:
    """The rows of one fixed-rate run."""
    rc, stats = entry.body["run_config"], entry.body.get("stats") if isinstance(entry.body.get("stats"), dict) else {}
    load = layout.load_of(entry)
    if load is None:
        which = "direction-total" if entry.bidirectional else "direction-forward"
        return [], [Problem(file, None, f"{entry.where}.run_config.{which}.tx.rate_percent", "expected the rate sent in percent of line rate (above 0, at most 100 per direction)", RULE)]
    keys = {**keys, "load_pct": load}
    duration = number(entry.config, "duration_sec")

    def rates(key):
        return {"tx_rate": (number(keyed(rc, key, "tx"), "rate_pps"), "pps"), "rx_rate": (number(keyed(rc, key, "rx"), "rate_pps"), "pps")}

    if not entry.bidirectional:
        sender, receiver = _counters(stats.get("0")), _counters(stats.get("1"))
        lat, problems = _latency(sender, file, f"{entry.where}.stats.0", percentiles=False)
        values = {"tx": (sender.get("tx"), "frames"), "rx": (receiver.get("rx"), "frames"), "duration": (duration, "s"), **rates("direction-forward"), **lat}
        return [row("measurements", file, 0, keys, values)], problems
    overall = _counters(stats.get("overall"))
    lat, problems = _latency(overall, file, f"{entry.where}.stats.overall", percentiles=True)
    values = {**rates("direction-total"), "tx": (overall.get("tx"), "frames"), "rx": (overall.get("rx"), "frames"), "duration": (duration, "s"),
              "loss": (overall.get("loss"), "pct"), **lat}
    per_dir, probs = _port_rows(stats, keys, duration, {k: rates(k) for _, _, _, k in DIRECTIONS}, file, f"{entry.where}.stats")
    return [row("measurements", file, 0, keys, values), *per_dir], problems + probs


def selected(data: bytes, file: str, part: str) -> tuple[list[layout.Entry], list[Problem]]:
    """The entries of the test `part` names (every entry when the file holds one test)."""
    reading = layout.read(data, file)
    everything, problems = list(reading.entries), list(reading.problems)
    parts = list(dict.fromkeys(e.part for e in everything))
    if part:
        chosen = [e for e in everything if e.part == part]
        if not chosen and everything:
            problems.append(Problem(file, None, "part", f"no NFVbench runs of {part!r}; the file has: {'; '.join(parts)}", RULE))
        return chosen, problems
    if len(parts) > 1:
        problems.append(Problem(file, None, "part", f"the file holds {len(parts)} tests: name one with part ({'; '.join(parts)})", RULE))
        return [], problems
    return everything, problems


def import_nfvbench(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """NFVbench results (bare, server reply, TestAPI record or page) → the rows of one test."""
    chosen, problems = selected(data, file, str(spec.get("part", "")).strip())
    rows, n, seen = [], 0, {}
    for entry in chosen:
        frame, prob = frame_of(entry, test, file)
        n += 1
        if prob:
            problems.append(prob)
            continue
        keys = {"test": test.id, "frame_size": frame}
        if entry.kind == layout.FIXED:
            parts = [("fixed", fixed_rows(entry, keys, file))]
        else:
            parts = [(v, search_rows(entry, v, {**keys, "variant": v}, file)) for v in ("ndr", "pdr") if isinstance(entry.body.get(v), dict)]
            if not parts:
                problems.append(Problem(file, None, entry.where, f"frame size {entry.size_key}: expected ndr/pdr results or a fixed-rate run_config", RULE))
        for what, (got, probs) in parts:
            problems += probs
            ident = (frame, what, str(got[0].keys.get("load_pct")) if got else "")
            if got and ident in seen:
                problems.append(Problem(file, None, entry.where, f"duplicated run: {entry.part}, frame size {entry.size_key} {what} is also at {seen[ident]}", RULE))
                continue
            seen[ident] = entry.where
            rows += got
    return rows, problems, max(n, len(rows) + sum(p.severity == "error" for p in problems))


def sniff(head: bytes, name: str) -> float:
    """NFVbench results name nfvbench_version and a service_chain; TestAPI records name the project."""
    if not head.lstrip()[:1] == b"{":
        return 0.0
    if b'"service_chain"' in head and (b'"nfvbench_version"' in head or b'"benchmarks"' in head):
        return 0.9
    if json_head_has(head, "project_name") and re.search(rb'"project_name"\s*:\s*"nfvbench"', head):
        return 0.9
    return 0.0


IMPORTER = Importer(
    summary="OPNFV NFVbench results (bare, server reply, TestAPI records and pages of many runs): NDR/PDR at the rate sent, fixed-rate runs, per direction, latency",
    sniff=sniff,
    describe=describe,
    convert=import_nfvbench,
    examples=("docs/importers/examples/nfvbench/ndr-64b-generator-short.json", "docs/importers/examples/nfvbench/testapi-page-cut.json"),
)
