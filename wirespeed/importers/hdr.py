"""HDR histograms as T-Rex, NFVbench and CSIT export them (base64 "HISTF…"), decoded with the
`hdrhistogram` package: percentiles for the latency_p* columns and the recorded buckets."""

from __future__ import annotations

from hdrh.histogram import HdrHistogram

from wirespeed.problems import Problem

# latency column → percentile
PERCENTILES = {"latency_p50": 50.0, "latency_p90": 90.0, "latency_p99": 99.0, "latency_p99_9": 99.9, "latency_p99_99": 99.99}


def decode(encoded, file: str, field: str, rule: str, empty_ok: bool = False) -> tuple[HdrHistogram | None, list[Problem]]:
    """The histogram of a base64 HDR string, or one problem naming the field. empty_ok: a histogram
    without samples (what a tool writes when it timed no frame) is None without a problem."""
    if not isinstance(encoded, str) or not encoded.strip():
        return None, [Problem(file, None, field, "expected a base64 HDR histogram string", rule)]
    try:
        hist = HdrHistogram.decode(encoded.strip())
    except Exception as exc:  # noqa: BLE001 - the decoder raises several kinds on damaged input
        return None, [Problem(file, None, field, f"not a decodable HDR histogram ({type(exc).__name__})", rule)]
    if hist is None or hist.get_total_count() <= 0:
        return None, [] if empty_ok else [Problem(file, None, field, "HDR histogram without samples", rule)]
    return hist, []


def percentiles(hist: HdrHistogram) -> dict[str, int]:
    """latency_p50 … latency_p99_99 in the histogram's own unit (µs for T-Rex, NFVbench and CSIT)."""
    return {metric: int(hist.get_value_at_percentile(p)) for metric, p in PERCENTILES.items()}


def buckets(hist: HdrHistogram) -> list[tuple[int, int, int]]:
    """(low, high, count) of every recorded bucket: low inclusive, high exclusive, in the histogram's unit."""
    out = []
    for item in hist.get_recorded_iterator():
        low = hist.get_lowest_equivalent_value(item.value_iterated_to)
        high = hist.get_highest_equivalent_value(item.value_iterated_to) + 1
        out.append((low, high, item.count_added_in_this_iter_step))
    return out
