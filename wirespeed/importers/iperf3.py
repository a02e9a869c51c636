"""iperf3 --json (UDP or TCP client/server output) → per-interval samples and one summary row."""

from __future__ import annotations

from wirespeed.figures import Figure
from wirespeed.importers.common import base_keys, number, parse_json, plausible, row
from wirespeed.problems import Problem


def import_iperf3(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """iperf3 --json (UDP or TCP client/server output) → per-interval samples and one summary row."""
    doc, problems = parse_json(data, file)
    if doc is None:
        return [], problems, 0
    if not isinstance(doc, dict) or not isinstance(doc.get("intervals"), list) or not isinstance(doc.get("end"), dict):
        return [], [Problem(file, None, "", "no 'intervals' and 'end': not iperf3 --json output", "import.iperf3")], 0
    if doc.get("error"):
        return [], [Problem(file, None, "error", f"iperf3 reported an error: {str(doc['error'])[:200]}", "import.iperf3")], 0
    rows, n = [], 0
    keys = base_keys(spec, test.id)
    for i, interval in enumerate(doc["intervals"]):
        n += 1
        s = interval.get("sum") if isinstance(interval, dict) else None
        start, bps, packets, seconds = number(s, "start"), number(s, "bits_per_second"), number(s, "packets"), number(s, "seconds")
        if start is None or bps is None:
            problems.append(Problem(file, None, f"intervals[{i}].sum", "interval without start or bits_per_second", "import.iperf3"))
            continue
        pps = packets / seconds if packets is not None and seconds else None
        pps = pps if plausible(pps) else None
        rows.append(row("samples", file, 0, {**keys, "t_s": Figure.parse(repr(start))}, {"tx_rate": (pps, "pps"), "tx_l2": (bps, "bps")}))
    end = doc["end"]
    udp = end.get("sum") if isinstance(end.get("sum"), dict) and "lost_packets" in end.get("sum", {}) else None
    if udp is not None:
        n += 1
        sent, lost = number(udp, "packets"), number(udp, "lost_packets")
        jitter = number(udp, "jitter_ms")
        values = {
            "tx": (int(sent) if sent is not None else None, "frames"),
            "rx": (int(sent - lost) if sent is not None and lost is not None else None, "frames"),
            "lost": (int(lost) if lost is not None else None, "frames"),
            "duration": (number(udp, "seconds"), "s"),
            "jitter_avg": (jitter, "ms"),
            "out_of_sequence": (number(udp, "out_of_order"), "frames"),
        }
        rows.append(row("measurements", file, 0, {**keys, "trial": 1}, values))
    return rows, problems, n
