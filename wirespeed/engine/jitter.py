"""Delay variation: RFC 4689 jitter, RFC 3393 IPDV, RFC 3550 interarrival jitter."""

from __future__ import annotations


def ipdv(delays: list[float]) -> list[float]:
    """RFC 3393 IP packet delay variation of consecutive packets: D(i) − D(i−1)."""
    return [b - a for a, b in zip(delays, delays[1:])]


def rfc4689_jitter(delays: list[float]) -> list[float]:
    """RFC 4689 §3.2.5 jitter: |D(i) − D(i−1)| for consecutive frames of a stream."""
    return [abs(v) for v in ipdv(delays)]


def max_jitter(delays: list[float]) -> float:
    """Largest RFC 4689 jitter of a stream."""
    j = rfc4689_jitter(delays)
    if not j:
        raise ValueError("jitter needs at least two delays")
    return max(j)


def rfc3550_jitter(delays: list[float]) -> float:
    """RFC 3550 §6.4.1 interarrival jitter estimate J += (|D| − J) / 16, as iperf3 and T-Rex report."""
    j = 0.0
    for d in rfc4689_jitter(delays):
        j += (d - j) / 16
    return j
