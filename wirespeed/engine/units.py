"""Units of the CSV columns: a column is named <metric>_<unit>, e.g. latency_avg_us, throughput_mpps."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Unit:
    """A unit: its dimension, its factor to the canonical unit of that dimension, and its symbol."""

    name: str
    dimension: str
    factor: Decimal
    symbol: str


def _u(name: str, dimension: str, factor: str, symbol: str) -> Unit:
    return Unit(name, dimension, Decimal(factor), symbol)


UNITS: dict[str, Unit] = {
    u.name: u
    for u in [
        _u("fps", "frame_rate", "1", "frames/s"),
        _u("kfps", "frame_rate", "1e3", "kframes/s"),
        _u("mfps", "frame_rate", "1e6", "Mframes/s"),
        _u("gfps", "frame_rate", "1e9", "Gframes/s"),
        _u("pps", "frame_rate", "1", "pps"),
        _u("kpps", "frame_rate", "1e3", "kpps"),
        _u("mpps", "frame_rate", "1e6", "Mpps"),
        _u("gpps", "frame_rate", "1e9", "Gpps"),
        _u("bps", "bit_rate", "1", "bit/s"),
        _u("kbps", "bit_rate", "1e3", "kbit/s"),
        _u("mbps", "bit_rate", "1e6", "Mbit/s"),
        _u("gbps", "bit_rate", "1e9", "Gbit/s"),
        _u("tbps", "bit_rate", "1e12", "Tbit/s"),
        _u("s", "time", "1", "s"),
        _u("ms", "time", "1e-3", "ms"),
        _u("us", "time", "1e-6", "µs"),
        _u("ns", "time", "1e-9", "ns"),
        _u("pct", "percent", "1", "%"),
        _u("frames", "count", "1", "frames"),
        _u("packets", "count", "1", "packets"),
        _u("segments", "count", "1", "segments"),
        _u("bytes", "size", "1", "bytes"),
        _u("kbytes", "size", "1e3", "kB"),
        _u("tps", "transaction_rate", "1", "transactions/s"),
        _u("ktps", "transaction_rate", "1e3", "ktransactions/s"),
        _u("w", "power", "1", "W"),
        _u("kw", "power", "1e3", "kW"),
        _u("v", "voltage", "1", "V"),
        _u("a", "current", "1", "A"),
    ]
}

CANONICAL = {"frame_rate": "fps", "bit_rate": "bps", "time": "s", "percent": "pct", "count": "frames", "size": "bytes", "power": "w", "voltage": "v", "current": "a",
             "transaction_rate": "tps"}


def split_column(name: str) -> tuple[str, Unit] | None:
    """Split a column name into (metric, unit); None when it does not end in a known unit."""
    metric, sep, unit = name.rpartition("_")
    if not sep or not metric or unit not in UNITS:
        return None
    return metric, UNITS[unit]
