"""flent data files (`.flent.gz`, the JSON of flent/resultset.py, data format versions 1 to 4; the
framework reads the gzip): one test per file (its NAME, e.g. rrul_be), its series as time series and
latency-under-load rows.

A flent file holds `metadata` (NAME, TITLE, TIME, LENGTH, STEP_SIZE, HOST, FLENT_VERSION, IP_VERSION,
SERIES_META {series: {UNITS, MEAN_VALUE, …}}), `x_values` (seconds from the start, every STEP_SIZE),
`results` {series: values on x_values, null where none} and `raw_values` {series: [{t, val, …}]}.
What each series becomes (the `port` key names the series, e.g. "TCP download BE"):

- a series in Mbits/s (netperf TCP flows and flent's sums of them): goodput samples (layer-4 payload,
  never an L1/L2 rate) and a measurement row with its MEAN_VALUE, netperf's mean of the flow;
- a "Ping (ms) …" series (ICMP or UDP ping running while the flows load the path): round-trip time
  samples (rtt_avg of each point) and a measurement row — the latency under load: rtt_avg is the
  series' MEAN_VALUE (the pinger's own mean; else the mean of its raw values), rtt_min and rtt_max the
  extremes of its raw values when they are single round trips (ICMP ping, irtt), not when they are a
  netperf UDP_RR's per-interval means (entries with `dur`);
- flent's averages across flows ("… avg"), fairness, HTTP, VoIP, CPU and socket statistics
  (`…::tcp_cwnd`, `…::tcp_rtt`) are not imported.
"""

from __future__ import annotations

import datetime
import math

from wirespeed.engine.figures import Figure
from wirespeed.importers.common import base_keys, keyed, number, parse_json, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.problems import Problem

RULE = "import.flent"
NEWEST = 4  # flent's FILEFORMAT_VERSION (flent/resultset.py)


def _doc(data: bytes, file: str) -> tuple[dict | None, list[Problem]]:
    doc, problems = parse_json(data, file)
    if doc is None:
        return None, problems
    if not isinstance(doc, dict) or not isinstance(doc.get("metadata"), dict) or not isinstance(doc.get("results"), dict) or not isinstance(doc.get("x_values"), list):
        return None, [Problem(file, None, "", "not a flent data file: expected an object with 'metadata', 'x_values' and 'results'", RULE)]
    version = doc.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= NEWEST:
        return None, [Problem(file, None, "version", f"flent data format {version!r}: expected 1 to {NEWEST}", RULE)]
    return doc, []


def _meta(doc: dict, name: str) -> dict:
    m = keyed(doc, "metadata", "SERIES_META", name)
    return m if isinstance(m, dict) else {}


def series(doc: dict) -> list[tuple[str, str]]:
    """(series, kind) of the series wirespeed reads: kind "goodput" or "rtt"."""
    out = []
    for name in doc["results"]:
        units = str(_meta(doc, name).get("UNITS") or "")
        if name.endswith((" avg", " fairness")) or name.rsplit("::", 1)[-1].startswith("tcp_"):
            continue
        if units == "Mbits/s":
            out.append((name, "goodput"))
        elif units == "ms" and name.startswith("Ping"):
            out.append((name, "rtt"))
    return out


def _per_packet(doc: dict, name: str) -> list[float]:
    """The raw values of a ping series that are single round trips (ICMP ping, irtt: one entry per
    packet, with `seq`). A netperf UDP_RR series' raw values are each interval's mean (they carry
    `dur`): not single round trips, so they give no minimum or maximum."""
    raw = keyed(doc, "raw_values", name)
    entries = [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []
    if any("dur" in e for e in entries):
        return []
    return [v for v in (number(e, "val") for e in entries) if v is not None]


def convert(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    doc, problems = _doc(data, file)
    if doc is None:
        return [], problems, 0
    keys = base_keys(spec, test.id)
    picked = series(doc)
    if not picked:
        return [], [_nothing(doc, file)], 0
    rows = []
    xs = doc["x_values"]
    for name, kind in picked:
        values = doc["results"].get(name)
        if not isinstance(values, list) or len(values) != len(xs):
            problems.append(Problem(file, None, f"results.{name}", f"expected {len(xs)} values, one per x_values point", RULE))
            continue
        metric, unit = ("goodput", "mbps") if kind == "goodput" else ("rtt_avg", "ms")
        for x, v in zip(xs, values):
            x = x if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0 else None
            if x is None or number({"v": v}, "v") is None:
                continue
            rows.append(row("samples", file, 0, {**keys, "port": name, "t_s": Figure.parse(repr(float(x)))}, {metric: (v, unit)}))
        if kind == "goodput":
            mean = number(_meta(doc, name), "MEAN_VALUE")
            values = {"goodput": (mean, "mbps")}
        else:
            raw = _per_packet(doc, name)
            mean = number(_meta(doc, name), "MEAN_VALUE")  # the pinger's own mean, when flent kept it
            values = {"rtt_min": (min(raw) if raw else None, "ms"), "rtt_max": (max(raw) if raw else None, "ms"),
                      "rtt_avg": (mean if mean is not None else sum(raw) / len(raw) if raw else None, "ms")}
        if any(v is not None for v, _ in values.values()):
            rows.append(row("measurements", file, 0, {**keys, "port": name}, values))
    return rows, problems, len(rows)  # points without a value (null) are not records


def _nothing(doc: dict, file: str) -> Problem:
    name = keyed(doc, "metadata", "NAME")
    return Problem(file, None, "results", f"flent test {name!r} has no TCP throughput (Mbits/s) or ping (ms) series: nothing wirespeed reads "
                                          f"(its series: {', '.join(list(doc['results'])[:8])})", RULE)


def sniff(head: bytes, name: str) -> float:
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:1] != b"{" or b'"metadata"' not in head:
        return 0.0
    return 0.95 if b'"FLENT_VERSION"' in head or b'"NETPERF_WRAPPER_VERSION"' in head else 0.0


def describe(data: bytes, name: str) -> ImportPlan:
    plan = ImportPlan("flent")
    doc, plan.problems = _doc(data, name)
    if doc is None:
        return plan
    if not series(doc):
        plan.problems = [_nothing(doc, name)]
        return plan
    meta = doc["metadata"]
    test = str(meta.get("NAME") or "flent")
    title = str(meta.get("TITLE") or "").strip()
    pings = [s for s, k in series(doc) if k == "rtt"]
    flows = [s for s, k in series(doc) if k == "goodput"]
    what = f"{len(flows)} TCP throughput series ({', '.join(flows[:6])}{', …' if len(flows) > 6 else ''})"
    if pings:
        what += f" and the round-trip time of {', '.join(pings)} measured while they ran (latency under load)"
    fields: dict = {"title": f"flent {test}" + (f": {title}" if title else ""), "rfc": ["vendor"],
                    "description": f"flent {test} test to {meta.get('HOST') or 'a host it does not name'}: {what}. Every series is a time series (port = the series).",
                    "methodology": {}}
    ways = {w for s in flows for w in ("download", "upload") if w in s.lower()}
    if ways:
        fields["direction"] = "bidirectional" if len(ways) == 2 else "unidirectional"
    length = number(meta, "LENGTH")
    if length:
        fields["methodology"]["trial_duration_s"] = length
    if meta.get("IP_VERSION") in (4, 6):
        fields["address_family"] = f"ipv{meta['IP_VERSION']}"
    plan.tests.append(TestPlan("".join(c if c.isalnum() else "-" for c in test.lower()).strip("-") or "flent", fields))
    version = str(meta.get("FLENT_VERSION") or meta.get("NETPERF_WRAPPER_VERSION") or "").strip()
    plan.instrument = {"vendor": "flent (open source)", "product": "flent"}
    if version:
        plan.instrument["software"] = [{"name": "flent", "version": version}]
    when = str(meta.get("TIME") or "")
    try:
        day = datetime.datetime.fromisoformat(when.replace("Z", "+00:00")).date().isoformat()
        plan.campaign = {"start": day, "end": day}
        plan.source = {"published": day, "publication_kind": "test-run"}
    except ValueError:
        pass
    return plan


IMPORTER = Importer(
    summary="flent data files (.flent.gz, formats 1–4): TCP flows' goodput and ping round-trip times as time series, latency under load (RRUL and the like)",
    sniff=sniff, describe=describe, convert=convert,
    examples=("docs/importers/examples/flent/rrul_icmp.flent.gz",),
)
