"""RFC 3918 multicast benchmarks: the group table a device keeps and the group capacity."""

from __future__ import annotations


def group_table_entries(receivers: int, groups: int) -> int:
    """Forwarding (snooping or mroute) entries a device keeps when every receiver joins every group."""
    return receivers * groups


def group_capacity(results: dict[int, float], loss_tolerance_pct: float = 0.0) -> int | None:
    """Most groups forwarded within the loss tolerance, from {groups tried: loss %} (RFC 3918 §5.1)."""
    ok = [g for g, loss in results.items() if loss <= loss_tolerance_pct]
    return max(ok) if ok else None
