"""iperf3 --json: a UDP run's summary (goodput, frames sent/received/lost, RFC 3550 jitter, out of
order) and a TCP run's (goodput, retransmits, RTT, congestion window), with the per-interval samples.

iperf3 reports what the sockets carried: bits_per_second is a layer-4 payload rate (goodput),
never a layer-1 or layer-2 rate, and a UDP datagram is one frame only when it fits one.
Omitted intervals (-O) are left out. Client-side UDP intervals carry no loss or jitter.
"""

from __future__ import annotations

import datetime
import ipaddress

from wirespeed.engine.figures import Figure
from wirespeed.importers.common import base_keys, json_head_has, number, parse_json, plausible, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.problems import Problem

RULE = "import.iperf3"


def _obj(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _doc(data: bytes, file: str) -> tuple[dict | None, list[Problem]]:
    doc, problems = parse_json(data, file)
    if doc is None:
        return None, problems
    if not isinstance(doc, dict) or not isinstance(doc.get("start"), dict) or not isinstance(doc.get("end"), dict) or not isinstance(doc.get("intervals"), list):
        return None, [Problem(file, None, "", "not iperf3 --json output: expected an object with 'start', 'intervals' and 'end'", RULE)]
    if doc.get("error"):
        return None, [Problem(file, None, "error", f"iperf3 reported an error: {str(doc['error'])[:200]}", RULE)]
    return doc, []


def _protocol(doc: dict) -> str:
    return str(_obj(doc["start"].get("test_start")).get("protocol", "TCP")).strip().upper() or "TCP"


def _sum(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) if present else None


def import_iperf3(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """iperf3 --json (UDP or TCP) → per-interval samples and one summary row per run."""
    doc, problems = _doc(data, file)
    if doc is None:
        return [], problems, 0
    udp = _protocol(doc) == "UDP"
    keys = base_keys(spec, test.id)
    rows, n = [], 0
    for i, interval in enumerate(doc["intervals"]):
        n += 1
        s = _obj(_obj(interval).get("sum"))
        if s.get("omitted") is True:
            continue
        start, bps, seconds = number(s, "start"), number(s, "bits_per_second"), number(s, "seconds")
        if start is None or bps is None:
            problems.append(Problem(file, None, f"intervals[{i}].sum", "expected 'start' and 'bits_per_second' numbers", RULE))
            continue
        values: dict[str, tuple] = {"goodput": (bps, "bps")}
        if udp:
            packets = number(s, "packets")
            rate = packets / seconds if packets is not None and seconds else None
            rate = rate if plausible(rate) else None
            values["tx_rate" if s.get("sender", True) else "rx_rate"] = (rate, "pps")
        else:
            streams = [_obj(x) for x in _list(_obj(interval).get("streams")) if isinstance(x, dict)]
            rtts = [number(x, "rtt") for x in streams if number(x, "rtt") is not None]
            values["retransmits"] = (_int(number(s, "retransmits")), "segments")
            values["cwnd"] = (_int(_sum([number(x, "snd_cwnd") for x in streams])), "bytes")
            values["rtt_avg"] = (_mean(rtts), "us")
        rows.append(row("samples", file, 0, {**keys, "t_s": Figure.parse(repr(float(start)))}, values))
    summary, probs = (_udp_summary if udp else _tcp_summary)(doc["end"], file)
    problems += probs
    if summary:
        n += 1
        rows.append(row("measurements", file, 0, {**keys, "trial": 1}, summary))
    return rows, problems, n


def _mean(values: list) -> float | int | None:
    """The mean, or the one value itself (as printed) when there is one."""
    return None if not values else values[0] if len(values) == 1 else sum(values) / len(values)


def _int(v: float | None) -> int | None:
    return int(v) if v is not None else None


def _udp_summary(end: dict, file: str) -> tuple[dict, list[Problem]]:
    sent = _obj(end.get("sum_sent")) or _obj(end.get("sum"))
    received = _obj(end.get("sum_received")) or _obj(end.get("sum"))
    if not received or number(received, "packets") is None:
        return {}, [Problem(file, None, "end.sum", "expected a UDP summary with 'packets' and 'lost_packets'", RULE)]
    tx, lost = number(sent, "packets") or number(received, "packets"), number(received, "lost_packets")
    ooo = _sum([number(_obj(_obj(s).get("udp")), "out_of_order") for s in _list(end.get("streams")) if isinstance(s, dict)])
    return {
        "tx": (_int(tx), "frames"),
        "rx": (_int(tx - lost) if tx is not None and lost is not None else None, "frames"),
        "lost": (_int(lost), "frames"),
        "goodput": (number(received, "bits_per_second"), "bps"),
        "interarrival_jitter": (number(received, "jitter_ms"), "ms"),
        "out_of_sequence": (_int(ooo), "frames"),
        "duration": (number(sent, "seconds") or number(received, "seconds"), "s"),
    }, []


def _tcp_summary(end: dict, file: str) -> tuple[dict, list[Problem]]:
    sent, received = _obj(end.get("sum_sent")), _obj(end.get("sum_received"))
    if number(received, "bits_per_second") is None:
        return {}, [Problem(file, None, "end.sum_received", "expected a TCP summary with 'bits_per_second'", RULE)]
    senders = [_obj(_obj(s).get("sender")) for s in _list(end.get("streams")) if isinstance(s, dict)]
    mins = [number(s, "min_rtt") for s in senders if number(s, "min_rtt") is not None]
    means = [number(s, "mean_rtt") for s in senders if number(s, "mean_rtt") is not None]
    maxes = [number(s, "max_rtt") for s in senders if number(s, "max_rtt") is not None]
    cwnds = [number(s, "max_snd_cwnd") for s in senders if number(s, "max_snd_cwnd") is not None]
    return {
        "goodput": (number(received, "bits_per_second"), "bps"),
        "retransmits": (_int(number(sent, "retransmits")), "segments"),
        "rtt_min": (min(mins) if mins else None, "us"),
        "rtt_avg": (_mean(means), "us"),
        "rtt_max": (max(maxes) if maxes else None, "us"),
        "cwnd": (_int(max(cwnds)) if cwnds else None, "bytes"),
        "duration": (number(sent, "seconds") or number(received, "seconds"), "s"),
    }, []


def sniff(head: bytes, name: str) -> float:
    """iperf3 --json starts with "start" (connected, version, test_start) before "intervals"."""
    return 0.95 if json_head_has(head, "start", "test_start") and (b'"iperf' in head or b'"intervals"' in head) else 0.0


def _rate_text(bps: float) -> tuple[str, str]:
    """("10m", "10 Mbit/s") for a target bitrate."""
    for factor, suffix, unit in ((1e9, "g", "Gbit/s"), (1e6, "m", "Mbit/s"), (1e3, "k", "kbit/s")):
        if bps >= factor:
            v = bps / factor
            text = f"{v:g}"
            return text.replace(".", "-") + suffix, f"{text} {unit}"
    return f"{int(bps)}", f"{int(bps)} bit/s"


def describe(data: bytes, name: str) -> ImportPlan:
    """One test per run: protocol, streams, target bitrate, duration, iperf3 version and date."""
    plan = ImportPlan("iperf3")
    doc, plan.problems = _doc(data, name)
    if doc is None:
        return plan
    start = doc["start"]
    ts = _obj(start.get("test_start"))
    proto = _protocol(doc)
    rate = number(ts, "target_bitrate") or number(start, "target_bitrate")
    slug, text = _rate_text(rate) if rate else ("", "")
    test_id = f"{proto.lower()}-{slug}" if slug else proto.lower()
    methodology = {"search": "fixed-rate", "trials": 1}
    if number(ts, "duration"):
        methodology["trial_duration_s"] = number(ts, "duration")
    fields: dict = {"title": f"iperf3 {proto}" + (f" at {text}" if text else ""), "rfc": ["vendor"],
                    "direction": "bidirectional" if ts.get("bidir") else "unidirectional"}
    host = str(_obj(start.get("connecting_to")).get("host", "")).strip()
    try:
        fields["address_family"] = f"ipv{ipaddress.ip_address(host).version}"
    except ValueError:
        pass
    streams = number(ts, "num_streams")
    if streams and streams >= 1:
        fields["flows"] = int(streams)
    blksize = number(ts, "blksize")
    what = f"{proto} with {int(streams or 1)} stream(s)" + (f", {int(blksize)}-byte {'datagrams' if proto == 'UDP' else 'writes'}" if blksize else "")
    fields["description"] = f"iperf3 {what}" + (f", target {text}" if text else "") + ("; reverse mode (the server sent)" if ts.get("reverse") else "") + "."
    fields["methodology"] = methodology
    plan.tests.append(TestPlan(test_id, fields))
    version = str(start.get("version", "")).strip()
    plan.instrument = {"vendor": "ESnet", "product": "iperf3"}
    if version:
        plan.instrument["software"] = [{"name": "iperf3", "version": version.removeprefix("iperf ").strip()}]
    secs = number(_obj(start.get("timestamp")), "timesecs")
    if secs:
        try:
            day = datetime.datetime.fromtimestamp(secs, datetime.timezone.utc).date().isoformat()
        except (OverflowError, OSError, ValueError):  # beyond the dates a clock can hold
            plan.problems.append(Problem(name, None, "start.timestamp.timesecs", f"{secs!r} is not a time a run could start at", RULE))
            return plan
        plan.campaign = {"start": day, "end": day}
        plan.source = {"published": day, "publication_kind": "test-run"}
    return plan


IMPORTER = Importer(
    summary="iperf3 --json, UDP or TCP: goodput, loss, RFC 3550 jitter, retransmits, RTT, cwnd, per-interval samples",
    sniff=sniff,
    describe=describe,
    convert=import_iperf3,
    examples=("docs/importers/examples/iperf3/udp.json", "docs/importers/examples/iperf3/tcp.json"),
)
