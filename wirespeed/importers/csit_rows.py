"""A CSIT run (csit_run.Run) as rows of the measurements table.

- ndrpdr: variants ndr and pdr, each one row: throughput = the lower bound (1.5: the conditional
  throughput), throughput_upper = the upper bound, in pps, aggregate over the directions; the
  bandwidth CSIT computed beside each is published as throughput_l1 / throughput_upper_l1 only
  when it is the layer-1 rate of the test's frames (rate × (frame + 20 bytes) × 8: CSIT adds the
  encapsulation overhead of the DUT-DUT link in some suites, which is not this frame's rate).
  Latency: variants pdr-0, pdr-10, pdr-50, pdr-90 per direction (port 0->1 forward, 1->0
  reverse): CSIT's min/avg/max and the percentiles of the HDR histogram.
- mrr: forwarding_rate of every trial (trial 1…n) and the average as a row without trial.
- soak: variant critical-rate: throughput (lower bound) and throughput_upper, pps.
"""

from __future__ import annotations

import math

from wirespeed.importers import hdr
from wirespeed.importers.common import row
from wirespeed.importers.csit_names import IMIX, IMIX_ID
from wirespeed.importers.csit_run import LOADS, RULE, Bound, Run
from wirespeed.problems import Problem

PORTS = {"forward": "0->1", "reverse": "1->0"}
TOLERANCE = 1e-9  # relative: CSIT computes bandwidth from the rate in double precision
AVERAGE_TOLERANCE = 1e-9


def variant_of(load: str) -> str:
    """pdr_90 → pdr-90."""
    return load.replace("_", "-")


def average_frame(size: int | str) -> float:
    """The frame size in bytes (FCS included), or the average frame of CSIT's IMIX."""
    if size == IMIX_ID:
        return sum(s * w for s, w in zip(IMIX["sizes"], IMIX["weights"])) / sum(IMIX["weights"])
    return float(size)


def rows(run: Run, keys: dict, size: int | str, file: str) -> tuple[list, list[Problem], int]:
    """(rows, problems, records read) of one run; keys: test and frame_size (and trial/part keys)."""
    out, problems, n = _rows(run, keys, size, file)
    return out, [Problem(p.file, p.line, run.place(p.field), p.message, p.rule, p.severity) for p in problems], n


def _rows(run: Run, keys: dict, size: int | str, file: str) -> tuple[list, list[Problem], int]:
    if run.kind == "ndrpdr":
        out, problems = [], []
        for variant in ("ndr", "pdr"):
            if variant in run.bounds:
                r, probs = _bound_row(run.bounds[variant], {**keys, "variant": variant}, size, file)
                out.append(r)
                problems += probs
        lat, probs = _latency_rows(run, keys, file)
        return out + lat, problems + probs, len(run.bounds) + len(run.latency)
    if run.kind == "soak" and "critical-rate" in run.bounds:
        r, probs = _bound_row(run.bounds["critical-rate"], {**keys, "variant": "critical-rate"}, size, file)
        return [r], probs, 1
    if run.kind == "mrr":
        return _mrr_rows(run, keys, file)
    return [], [Problem(file, None, run.where, f"{run.label()}: no {run.kind or 'known'} results to import", RULE)], 0


def _l1(bound: Bound, size: int | str, file: str) -> tuple[tuple | None, Problem | None]:
    """(value, unit) of the bound's bandwidth when it is the layer-1 rate of the frames, else a warning."""
    bw = bound.bandwidth
    if bw is None:
        return None, None
    bps = bw.value * (1e9 if bw.unit == "gbps" else 1)
    frame = average_frame(size)
    l1 = bound.rate.value * (frame + 20) * 8
    if l1 > 0 and math.isclose(bps, l1, rel_tol=TOLERANCE):
        return (bw.value, bw.unit), None
    per_frame = bps / bound.rate.value / 8 if bound.rate.value else float("nan")
    return None, Problem(file, None, bw.where, f"bandwidth {bw.value:g} {'Gbps' if bw.unit == 'gbps' else 'bps'} is {per_frame:.2f} bytes a frame on the wire, "
                                               f"not the {frame:g}-byte frame plus 20 bytes of layer-1 overhead (CSIT counts the encapsulation on "
                                               "the DUT-DUT link): the layer-1 rate is left out, the frame rate kept", RULE, "warning")


def _bound_row(bounds: dict[str, Bound], keys: dict, size: int | str, file: str) -> tuple:
    lower, upper = bounds["lower"], bounds.get("upper")
    problems = []
    l1, warn = _l1(lower, size, file)
    problems += [warn] if warn else []
    values = {"throughput": (lower.rate.value, "pps"), "throughput_l1": l1 or (None, "bps")}
    if upper is not None:
        ul1, warn = _l1(upper, size, file)
        problems += [warn] if warn else []
        values.update({"throughput_upper": (upper.rate.value, "pps"), "throughput_upper_l1": ul1 or (None, "bps")})
    return row("measurements", file, 0, keys, values), problems


def _latency_rows(run: Run, keys: dict, file: str) -> tuple[list, list[Problem]]:
    out, problems = [], []
    for direction in ("forward", "reverse"):
        for load in LOADS:
            lat = run.latency.get((direction, load))
            if lat is None:
                continue
            values = {"latency_min": (lat.min, "us"), "latency_avg": (lat.avg, "us"), "latency_max": (lat.max, "us")}
            if lat.hdrh:
                hist, probs = hdr.decode(lat.hdrh, file, f"{lat.where}.hdrh", RULE)
                problems += probs
                if hist is not None:
                    pct = hdr.percentiles(hist)
                    values.update({m: (v, "us") for m, v in pct.items()})
                    problems += _agree(values, hist, lat.where, file)
            out.append(row("measurements", file, 0, {**keys, "variant": variant_of(load), "port": PORTS[direction]}, values))
    return out, problems


def span(value) -> tuple[float, float]:
    """(lowest, highest) a published value allows: a number itself, a range "low..high" (an HDR
    bucket wider than one unit), "<0.5" (CSIT's rounding of less than half a microsecond)."""
    if isinstance(value, str):
        if ".." in value:
            low, high = value.split("..", 1)
            return float(low), float(high)
        if value.startswith("<"):
            return 0.0, float(value[1:])
    return float(value), float(value)


def _agree(values: dict, hist, where: str, file: str) -> list[Problem]:
    """CSIT's min and max come from T-Rex's counters, the percentiles from its HDR histogram of the
    same trial; where the histogram holds samples outside [min, max] the histogram's own minimum or
    maximum is published instead (said in a warning), so no percentile lies outside them."""
    problems = []
    top = max(span(v)[1] for m, (v, _) in values.items() if m.startswith("latency_p"))
    low = min(span(v)[0] for m, (v, _) in values.items() if m.startswith("latency_p"))
    stated_max = span(values["latency_max"][0])[1] if values["latency_max"][0] is not None else None
    stated_min = span(values["latency_min"][0])[0] if values["latency_min"][0] is not None else None
    if stated_max is not None and top > stated_max:
        seen = int(hist.get_max_value())
        values["latency_max"] = (seen, "us")
        problems.append(Problem(file, None, f"{where}.max", f"the HDR histogram holds samples up to {seen} us, above the maximum of "
                                                           f"{stated_max:g} us beside it: the histogram's maximum is published", RULE, "warning"))
    if stated_min is not None and low < stated_min:
        seen = int(hist.get_min_value())
        values["latency_min"] = (seen, "us")
        problems.append(Problem(file, None, f"{where}.min", f"the HDR histogram holds samples down to {seen} us, below the minimum of "
                                                           f"{stated_min:g} us beside it: the histogram's minimum is published", RULE, "warning"))
    return problems


def _mrr_rows(run: Run, keys: dict, file: str) -> tuple[list, list[Problem], int]:
    if not run.trials:
        return [], [Problem(file, None, run.where, f"{run.label()}: no MRR trials to import", RULE)], 0
    out = [row("measurements", file, 0, {**keys, "trial": i + 1}, {"forwarding_rate": (t.value, "pps")}) for i, t in enumerate(run.trials)]
    problems = []
    if run.trial_avg is not None:
        mean = math.fsum(t.value for t in run.trials) / len(run.trials)
        if not math.isclose(mean, run.trial_avg.value, rel_tol=AVERAGE_TOLERANCE):
            problems.append(Problem(file, None, run.trial_avg.where, f"the average {run.trial_avg.value:g} pps is not the mean of the "
                                                                    f"{len(run.trials)} trials ({mean:g} pps)", RULE))
        else:
            out.append(row("measurements", file, 0, keys, {"forwarding_rate": (run.trial_avg.value, "pps")}))
    return out, problems, len(run.trials) + (run.trial_avg is not None)
