"""The column vocabulary of the CSV tables of a result set.

Key columns identify a row; value columns are named <metric>_<unit> (units.py) and hold a
number as printed, optionally qualified: ~75 (about), >770 (more than), <94 (almost).
An empty cell means "not published".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    """A measured or published quantity: its dimension and what it means."""

    name: str
    dimension: str
    label: str
    description: str
    max_value: float | None = None


def _m(name: str, dimension: str, label: str, description: str, max_value: float | None = None) -> Metric:
    return Metric(name, dimension, label, description, max_value)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in [
        _m("offered_rate", "frame_rate", "Offered load", "Offered frame rate (aggregate over the test's streams)."),
        _m("offered_l1", "bit_rate", "Offered load (L1)", "Offered layer-1 bit rate, preamble and inter-frame gap included."),
        _m("throughput", "frame_rate", "Throughput", "Highest forwarded frame rate without loss (RFC 2544), aggregate over receivers."),
        _m("throughput_l1", "bit_rate", "Throughput (L1)", "Throughput as layer-1 bit rate: frame + 20 bytes per frame."),
        _m("throughput_l2", "bit_rate", "Throughput (L2)", "Throughput as layer-2 bit rate: frame bytes only, FCS included."),
        _m("throughput_line_rate", "percent", "Of line rate", "Throughput in percent of the aggregate line rate."),
        _m("throughput_max_theoretical", "percent", "Of max. theoretical", "Throughput in percent of the lower of line rate and the device's forwarding cap."),
        _m("throughput_min", "frame_rate", "Lowest throughput", "Lowest throughput of repeated trials or searches (the bottom of the error bar)."),
        _m("throughput_max", "frame_rate", "Highest throughput", "Highest throughput of repeated trials or searches (the top of the error bar)."),
        _m("throughput_stdev", "frame_rate", "Throughput std. dev.", "Sample standard deviation of the throughput over repeated trials or searches."),
        _m("throughput_upper", "frame_rate", "Upper bound", "Upper bound of a throughput search: the lowest rate tried that failed the loss criterion (e.g. CSIT's NDR/PDR upper bound)."),
        _m("throughput_upper_l1", "bit_rate", "Upper bound (L1)", "The upper bound of a throughput search as layer-1 bit rate."),
        _m("forwarding_rate", "frame_rate", "Forwarding rate", "Frames forwarded per second at the offered load (RFC 2889)."),
        _m("tx", "count", "Frames sent", "Frames the instrument transmitted."),
        _m("rx", "count", "Frames received", "Frames the instrument received."),
        _m("lost", "count", "Frames lost", "Frames sent but not received."),
        _m("out_of_sequence", "count", "Out of sequence", "Frames received out of order."),
        _m("duplicate", "count", "Duplicates", "Frames received more than once."),
        _m("back_to_back", "count", "Back-to-back burst", "Longest burst forwarded without loss (RFC 2544 back-to-back)."),
        _m("loss", "percent", "Frame loss", "Frame loss rate, (sent − received) / sent.", 100),
        _m("duration", "time", "Duration", "Duration of the trial; in a sample, the part of the interval the traffic ran (its rates are frames ÷ this)."),
        _m("latency_min", "time", "Minimum latency", "Smallest latency of any frame."),
        _m("latency_avg", "time", "Average latency", "Mean latency."),
        _m("latency_max", "time", "Maximum latency", "Largest latency of any frame."),
        _m("latency_p50", "time", "Median latency", "50th percentile latency."),
        _m("latency_p90", "time", "90th percentile latency", "90th percentile latency (e.g. from an HDR histogram)."),
        _m("latency_p99", "time", "99th percentile latency", "99th percentile latency."),
        _m("latency_p99_9", "time", "99.9th percentile latency", "99.9th percentile latency (e.g. from an HDR histogram)."),
        _m("latency_p99_99", "time", "99.99th percentile latency", "99.99th percentile latency (e.g. from an HDR histogram)."),
        _m("jitter_avg", "time", "Average jitter", "Mean delay variation between consecutive frames (RFC 4689 jitter), as the instrument reports it."),
        _m("jitter_max", "time", "Maximum jitter", "Largest delay variation (RFC 4689)."),
        _m("interarrival_jitter", "time", "Interarrival jitter", "RFC 3550 interarrival jitter: the running estimate J += (|D| − J) / 16 that iperf3 and RTP receivers report."),
        _m("ipdv_avg", "time", "Average IPDV", "Mean absolute IP packet delay variation between consecutive packets (RFC 3393)."),
        _m("ipdv_max", "time", "Maximum IPDV", "Largest absolute IP packet delay variation between consecutive packets (RFC 3393)."),
        _m("reordered", "count", "Reordered", "Packets reordered in the sense of RFC 4737: arrived with a sequence number below the next expected one."),
        _m("goodput", "bit_rate", "Goodput", "Application (layer-4 payload) data rate: headers, retransmissions and framing excluded; not a layer-1 or layer-2 rate."),
        _m("retransmits", "count", "Retransmits", "TCP segments retransmitted by the sender."),
        _m("rtt_min", "time", "Minimum RTT", "Smallest round-trip time (e.g. TCP's smoothed RTT samples)."),
        _m("rtt_avg", "time", "Average RTT", "Mean round-trip time."),
        _m("rtt_max", "time", "Maximum RTT", "Largest round-trip time."),
        _m("rtt_p50", "time", "Median RTT", "50th percentile round-trip time (e.g. of netperf's request/response transactions)."),
        _m("rtt_p90", "time", "90th percentile RTT", "90th percentile round-trip time (e.g. of netperf's request/response transactions)."),
        _m("rtt_p99", "time", "99th percentile RTT", "99th percentile round-trip time (e.g. of netperf's request/response transactions)."),
        _m("transaction_rate", "transaction_rate", "Transaction rate", "Request/response transactions completed per second (netperf TCP_RR, UDP_RR, TCP_CRR, TCP_CC): a rate of round trips, not of frames."),
        _m("cwnd", "size", "Congestion window", "TCP sender congestion window (the largest seen in a trial, or at the end of a sample)."),
        _m("failover_time", "time", "Failover time", "Outage derived from frames lost: lost frames ÷ offered rate per stream."),
        _m("cpu_peak", "percent", "Peak CPU", "Peak processor utilisation.", 100),
        _m("cpu_avg", "percent", "Average CPU", "Average processor utilisation.", 100),
        _m("power", "power", "Power draw", "Electrical power a device, a module or a power supply draws (e.g. a chassis's power-supply readings)."),
        _m("voltage", "voltage", "Voltage", "Output voltage of a power supply."),
        _m("current", "current", "Current", "Output current of a power supply."),
        _m("tx_rate", "frame_rate", "Tx rate", "Transmitted frames per second in a sample, or of one direction or port in a trial."),
        _m("rx_rate", "frame_rate", "Rx rate", "Received frames per second in a sample, or of one direction or port in a trial."),
        _m("tx_l1", "bit_rate", "Tx rate (L1)", "Transmitted layer-1 bit rate in a sample, or of one direction or port in a trial."),
        _m("rx_l1", "bit_rate", "Rx rate (L1)", "Received layer-1 bit rate in a sample, or of one direction or port in a trial."),
        _m("tx_l2", "bit_rate", "Tx rate (L2)", "Transmitted layer-2 bit rate in a sample, or of one direction or port in a trial."),
        _m("rx_l2", "bit_rate", "Rx rate (L2)", "Received layer-2 bit rate in a sample, or of one direction or port in a trial."),
        _m("count", "count", "Frames", "Frames in a histogram bucket."),
    ]
}

# Which way is better for the metrics trending follows (wirespeed/catalog/trend.py): a fall of a "higher"
# metric, or a rise of a "lower" one, is a regression. Metrics not named here are not trended.
BETTER: dict[str, str] = {
    **{m: "higher" for m in ("throughput", "forwarding_rate", "goodput", "back_to_back")},
    **{m: "lower" for m in ("latency_min", "latency_avg", "latency_max", "latency_p50", "latency_p90", "latency_p99", "latency_p99_9",
                            "latency_p99_99", "jitter_avg", "jitter_max", "ipdv_avg", "ipdv_max", "rtt_min", "rtt_avg", "failover_time")},
}

# Key columns per table kind: name -> (type, description). frame_size is in bytes (or an IMIX id).
KEYS: dict[str, dict[str, tuple[str, str]]] = {
    "measurements": {
        "test": ("test", "Test id declared in result.toml."),
        "frame_size": ("frame_size", "Frame size in bytes in the test's convention, or an IMIX id."),
        "load_pct": ("percent", "Offered load in percent of line rate; empty = at the throughput rate."),
        "direction": ("direction", "unidirectional or bidirectional; empty = the test's direction."),
        "variant": ("variant", "Traffic variant declared by the test (e.g. single-flow)."),
        "trial": ("integer", "Trial number, from 1; empty for published aggregates."),
        "component": ("text", "Part of the device a value is about (e.g. a processor)."),
        "port": ("text", "Instrument port or direction a row is about (e.g. 0, or 0->1 for per-direction rates); empty = all ports."),
    },
    "samples": {
        "test": ("test", "Test id declared in result.toml."),
        "frame_size": ("frame_size", "Frame size in bytes, or an IMIX id."),
        "direction": ("direction", "unidirectional or bidirectional."),
        "variant": ("variant", "Traffic variant."),
        "port": ("text", "Instrument port the sample is about; empty = all ports."),
        "t_s": ("seconds", "Seconds since the start of the ramp."),
    },
    "histograms": {
        "test": ("test", "Test id declared in result.toml."),
        "frame_size": ("frame_size", "Frame size in bytes, or an IMIX id."),
        "load_pct": ("percent", "Offered load in percent of line rate."),
        "direction": ("direction", "unidirectional or bidirectional."),
        "variant": ("variant", "Traffic variant."),
        "bucket_low_us": ("microseconds", "Lower edge of the latency bucket in µs (inclusive)."),
        "bucket_high_us": ("microseconds", "Upper edge of the latency bucket in µs (exclusive)."),
    },
}

# Value metrics allowed per table kind.
TABLE_METRICS: dict[str, set[str]] = {
    "measurements": {n for n in METRICS if n != "count"},
    "samples": {"duration", "offered_rate", "offered_l1", "loss", "tx_rate", "rx_rate", "tx_l1", "rx_l1", "tx_l2", "rx_l2", "tx", "rx", "lost", "latency_min", "latency_avg", "latency_max",
                "jitter_avg", "interarrival_jitter", "goodput", "retransmits", "rtt_min", "rtt_avg", "rtt_max", "cwnd", "out_of_sequence", "reordered", "duplicate",
                "transaction_rate"},
    "histograms": {"count"},
}

REQUIRED_KEYS = {"measurements": ("test",), "samples": ("test", "t_s"), "histograms": ("test", "bucket_low_us", "bucket_high_us")}
