"""iperf3 --json (UDP or TCP client/server output) → per-interval samples and one summary row."""

from __future__ import annotations

from wirespeed.figures import Figure
from wirespeed.importers.common import base_keys, json_head_has, number, parse_json, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.problems import Problem


def import_iperf3(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """iperf3 --json (UDP or TCP client/server output) → per-interval samples and one summary row."""
    doc, problems = parse_json(data, file)
    if doc is None:
        return [], problems, 0
    if not isinstance(doc, dict) or "intervals" not in doc or "end" not in doc:
        return [], [Problem(file, None, "", "no 'intervals' and 'end': not iperf3 --json output", "import.iperf3")], 0
    if doc.get("error"):
        return [], [Problem(file, None, "error", f"iperf3 reported an error: {doc['error']}", "import.iperf3")], 0
    rows, n = [], 0
    keys = base_keys(spec, test.id)
    for i, interval in enumerate(doc["intervals"]):
        n += 1
        s = interval.get("sum", {}) if isinstance(interval, dict) else {}
        start, bps, packets, seconds = number(s, "start"), number(s, "bits_per_second"), number(s, "packets"), number(s, "seconds")
        if start is None or bps is None:
            problems.append(Problem(file, None, f"intervals[{i}].sum", "interval without start or bits_per_second", "import.iperf3"))
            continue
        pps = packets / seconds if packets is not None and seconds else None
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


def sniff(head: bytes, name: str) -> float:
    """iperf3 --json starts with "start" (connected, version, test_start) before "intervals"."""
    return 0.95 if json_head_has(head, "start", "test_start") and (b'"iperf' in head or b'"intervals"' in head) else 0.0


def describe(data: bytes, name: str) -> ImportPlan:
    """One test per run: protocol, target bitrate, duration, iperf3 version and date from "start"."""
    plan = ImportPlan("iperf3")
    doc, plan.problems = parse_json(data, name)
    if doc is None:
        return plan
    if not isinstance(doc, dict) or not isinstance(doc.get("start"), dict) or "end" not in doc:
        plan.problems.append(Problem(name, None, "", "no 'start' and 'end': not iperf3 --json output", "import.iperf3"))
        return plan
    start = doc["start"]
    ts = start.get("test_start") if isinstance(start.get("test_start"), dict) else {}
    proto = str(ts.get("protocol", "")).strip().upper() or "TCP"
    rate = number(ts, "target_bitrate") or number(start, "target_bitrate")
    test_id = f"{proto.lower()}-{_rate_slug(rate)}" if rate else proto.lower()
    methodology = {"search": "fixed-rate", "trials": 1}
    if number(ts, "duration"):
        methodology["trial_duration_s"] = number(ts, "duration")
    fields = {"title": f"iperf3 {proto}" + (f" at {_rate_slug(rate)}bit/s" if rate else ""), "rfc": ["vendor"],
              "direction": "unidirectional", "methodology": methodology}
    plan.tests.append(TestPlan(test_id, fields))
    version = str(start.get("version", "")).strip()
    plan.instrument = {"vendor": "ESnet", "product": "iperf3"}
    if version:
        plan.instrument["software"] = [{"name": "iperf3", "version": version.removeprefix("iperf ").strip()}]
    secs = number(start.get("timestamp", {}) if isinstance(start.get("timestamp"), dict) else {}, "timesecs")
    if secs:
        import datetime

        day = datetime.datetime.fromtimestamp(secs, datetime.timezone.utc).date().isoformat()
        plan.campaign = {"start": day, "end": day}
        plan.source = {"published": day}
    plan.unstated = [f"tests.{test_id}.port_speed", f"tests.{test_id}.scenario", f"tests.{test_id}.topology", f"tests.{test_id}.ports"]
    return plan


def _rate_slug(bps: float) -> str:
    for factor, suffix in ((1e9, "g"), (1e6, "m"), (1e3, "k")):
        if bps >= factor and bps % factor == 0:
            return f"{int(bps // factor)}{suffix}"
    return f"{int(bps)}"


IMPORTER = Importer(
    summary="iperf3 --json (UDP or TCP) → per-interval samples and one summary row per run",
    sniff=sniff,
    describe=describe,
    convert=import_iperf3,
    examples=(),
)
