"""iperf3 --json: per run, a summary row per direction (goodput, retransmits, RTT, congestion window;
for UDP datagrams sent/received/lost, RFC 3550 jitter, out of order) and the per-interval samples.

iperf3 reports what the sockets carried: bits_per_second is a layer-4 payload rate (goodput), never
a layer-1 or layer-2 rate, and a UDP datagram is one frame only when it fits one. A figure the file's
host did not measure is left out, never 0 (iperf3 writes 0 for it): the RTT and congestion window of
a host that received (`-R` on the client, the server of a normal run), what the other host measured
in a server's file, the jitter and loss of the side that sent; an SCTP run's retransmits (iperf3
counts them for TCP only: SCTP's are uninitialised or 0) and its RTT (SCTP_STATUS's smoothed RTT in
whole ms, 0 below 1 ms: not TCP's µs RTT, and no measure of a sub-millisecond path). A --bidir run
has one row per direction (`port` client->server, server->client); a file of several runs one test
per run (`part`).
Omitted intervals (-O) are left out. Which runs and sides a file holds: wirespeed.importers.iperf3_runs.
"""

from __future__ import annotations

import datetime
import ipaddress

from wirespeed.engine.figures import Figure
from wirespeed.importers.common import base_keys, number, plausible, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.importers.iperf3_runs import RULE, Run, end_sums, interval_sums, obj, runs, sender_streams, udp_streams
from wirespeed.problems import Problem


def _int(v: float | None) -> int | None:
    return int(v) if v is not None else None


def _positive(v: float | None) -> float | None:
    """RTT and congestion window: 0 is iperf3's "not measured" (no real RTT or window is 0)."""
    return v if v else None


def _mean(values: list) -> float | int | None:
    """The mean, or the one value itself (as printed) when there is one."""
    return None if not values else values[0] if len(values) == 1 else sum(values) / len(values)


def _pick(found: list[Run], spec: dict, file: str) -> tuple[Run | None, list[Problem]]:
    """The run a [files].native entry names (`part` = "run-N" in a file of several runs)."""
    part = spec.get("part")
    if part is None:
        if len(found) == 1:
            return found[0], []
        return None, [Problem(file, None, "part", f"the file holds {len(found)} iperf3 runs: expected part = \"run-1\" … \"run-{len(found)}\"", RULE)]
    names = [f"run-{i + 1}" for i in range(len(found))]
    if part not in names:
        return None, [Problem(file, None, "part", f"no run {part!r}: the file holds {', '.join(names)}", RULE)]
    return found[names.index(part)], []


def import_iperf3(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """iperf3 --json (UDP or TCP) → per-interval samples and one summary row per direction."""
    found, problems = runs(data, file)
    if not found:
        return [], problems, 0
    run, problems = _pick(found, spec, file)
    if run is None:
        return [], problems, 0
    keys = base_keys(spec, test.id)
    rows = []
    for i, interval in enumerate(run.doc["intervals"]):
        for direction, s, streams in interval_sums(run, obj(interval)):
            if s.get("omitted") is True:
                continue
            start, bps = number(s, "start"), number(s, "bits_per_second")
            if start is None or bps is None:
                problems.append(Problem(file, None, f"{run.where}.intervals[{i}].sum".lstrip("."), "expected 'start' and 'bits_per_second' numbers", RULE))
                continue
            values = _udp_sample(run, direction, s) if run.udp else _tcp_sample(run, direction, s, streams)
            at = {**keys, **_port(run, direction), "t_s": Figure.parse(repr(float(start)))}
            rows.append(row("samples", file, 0, at, {"goodput": (bps, "bps"), **values}))
    for direction, (sent, received) in end_sums(run).items():
        summary, probs = (_udp_summary if run.udp else _tcp_summary)(run, direction, sent, received, file)
        problems += probs
        if summary and any(v is not None for v, _ in summary.values()):
            rows.append(row("measurements", file, 0, {**keys, **_port(run, direction), "trial": 1}, summary))
    if not any(r.kind == "measurements" for r in rows) and not problems:
        problems.append(Problem(file, None, f"{run.where}.end".lstrip("."), "no figure the file's host measured in the summary", RULE))
    return rows, problems, len(rows)  # every record read became a row (omitted intervals are left out by design)


def _port(run: Run, direction: str) -> dict:
    return {"port": direction} if run.bidir else {}


def _tcp_sample(run: Run, direction: str, s: dict, streams: list[dict]) -> dict:
    if not run.sends(direction):
        return {}
    rtts = [] if run.sctp else [number(x, "rtt") for x in streams if number(x, "rtt")]
    cwnds = [number(x, "snd_cwnd") for x in streams if number(x, "snd_cwnd")]
    return {"retransmits": (None if run.sctp else _int(number(s, "retransmits")), "segments"),
            "cwnd": (_int(max(cwnds)) if cwnds else None, "bytes"), "rtt_avg": (_mean(rtts), "us")}


def _udp_sample(run: Run, direction: str, s: dict) -> dict:
    packets, seconds = number(s, "packets"), number(s, "seconds")
    if packets is None or not seconds:
        return {}
    frames = run.datagrams_are_frames()
    if run.sends(direction):
        rate = packets / seconds
        return {"tx_rate": (rate if plausible(rate) and frames else None, "pps")}
    lost = number(s, "lost_packets")
    got = packets - lost if lost is not None and lost <= packets else None
    rate = got / seconds if got is not None else None
    return {"rx_rate": (rate if plausible(rate) and frames else None, "pps"), "lost": (_int(lost) if frames else None, "frames"),
            "interarrival_jitter": (number(s, "jitter_ms"), "ms")}


def _udp_summary(run: Run, direction: str, sent: dict, received: dict, file: str) -> tuple[dict, list[Problem]]:
    """Datagrams sent (the sender's count), received (the receiver's expected count less its lost)."""
    tx = number(sent, "packets") or None
    expected, lost = number(received, "packets"), number(received, "lost_packets")
    rx = expected - lost if expected is not None and lost is not None and lost <= expected else None
    problems = []
    if tx is not None and rx is not None and lost is not None and tx - rx != lost:
        # iperf3 counts the loss up to the last datagram that arrived: the datagrams lost after it
        # are not in lost_packets. Sent and received stay as counted; the loss is theirs to show.
        problems.append(Problem(file, None, f"{run.where}.end.sum_received".lstrip("."),
                                f"{_int(lost)} datagrams lost by iperf3's count, but {_int(tx)} sent − {_int(rx)} received is {_int(tx - rx)}: "
                                "the loss count is left out", RULE, severity="warning"))
        lost = None
    ooo = [number(s, "out_of_order") for s in udp_streams(run, direction) if number(s, "out_of_order") is not None]
    if not run.datagrams_are_frames():  # fragmented datagrams: their counts are not frame counts
        tx = rx = lost = None
        ooo, problems = [], []
    return {
        "tx": (_int(tx), "frames"), "rx": (_int(rx), "frames"), "lost": (_int(lost), "frames"),
        "goodput": (number(received, "bits_per_second") if received else None, "bps"),
        "interarrival_jitter": (number(received, "jitter_ms"), "ms"),
        "out_of_sequence": (_int(sum(ooo)) if ooo else None, "frames"),
        "duration": (number(sent, "seconds") or number(received, "seconds") or None, "s"),
    }, problems


def _tcp_summary(run: Run, direction: str, sent: dict, received: dict, file: str) -> tuple[dict, list[Problem]]:
    senders = [] if run.sctp else sender_streams(run, direction)  # SCTP: no µs RTT (Run.sctp)
    cwnds = [number(s, "max_snd_cwnd") for s in sender_streams(run, direction) if number(s, "max_snd_cwnd")]
    mins = [number(s, "min_rtt") for s in senders if number(s, "min_rtt")]
    means = [number(s, "mean_rtt") for s in senders if number(s, "mean_rtt")]
    maxes = [number(s, "max_rtt") for s in senders if number(s, "max_rtt")]
    return {
        "goodput": (number(received, "bits_per_second") if received else None, "bps"),
        "retransmits": (None if run.sctp else _int(number(sent, "retransmits")), "segments"),
        "rtt_min": (_positive(min(mins)) if mins else None, "us"),
        "rtt_avg": (_mean(means), "us"),
        "rtt_max": (_positive(max(maxes)) if maxes else None, "us"),
        "cwnd": (_int(max(cwnds)) if cwnds else None, "bytes"),
        "duration": (number(sent, "seconds") or number(received, "seconds") or None, "s"),
    }, []


def sniff(head: bytes, name: str) -> float:
    """iperf3 --json starts with "start" (connected, version, test_start), alone or in an array."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n[")
    if text[:1] != b"{" or b'"test_start"' not in head:
        return 0.0
    return 0.95 if b'"start"' in head and (b'"iperf' in head or b'"intervals"' in head) else 0.0


def _rate_text(bps: float) -> tuple[str, str]:
    """("10m", "10 Mbit/s") for a target bitrate."""
    for factor, suffix, unit in ((1e9, "g", "Gbit/s"), (1e6, "m", "Mbit/s"), (1e3, "k", "kbit/s")):
        if bps >= factor:
            v = bps / factor
            text = f"{v:g}"
            return text.replace(".", "-") + suffix, f"{text} {unit}"
    return f"{int(bps)}", f"{int(bps)} bit/s"


def _test(run: Run) -> tuple[str, dict]:
    """A run's test id and fields: protocol, streams, target bitrate, duration, direction."""
    start, ts = run.start, run.test_start
    proto = "UDP" if run.udp else str(ts.get("protocol", "TCP")).strip().upper() or "TCP"
    rate = number(ts, "target_bitrate") or number(start, "target_bitrate")
    slug, text = _rate_text(rate) if rate else ("", "")
    mode = "-bidir" if run.bidir else "-reverse" if run.reverse else ""
    test_id = (f"{proto.lower()}-{slug}" if slug else proto.lower()) + mode + ("" if run.client else "-server")
    methodology = {"search": "fixed-rate", "trials": 1}
    if number(ts, "duration"):
        methodology["trial_duration_s"] = number(ts, "duration")
    fields: dict = {"title": f"iperf3 {proto}" + (f" at {text}" if text else "") + (" both ways" if run.bidir else " reverse" if run.reverse else ""),
                    "rfc": ["vendor"], "direction": "bidirectional" if run.bidir else "unidirectional"}
    host = str(obj(start.get("connecting_to")).get("host", "")).strip()
    try:
        fields["address_family"] = f"ipv{ipaddress.ip_address(host).version}"
    except ValueError:
        pass
    streams = number(ts, "num_streams")
    if streams and streams >= 1:
        fields["flows"] = int(streams)
    blksize = number(ts, "blksize")
    n = int(streams or 1)
    what = f"{proto} with {n} stream{'s' if n != 1 else ''}" + (f", {int(blksize)}-byte {'datagrams' if proto == 'UDP' else 'writes'}" if blksize else "")
    mode_text = "; both directions at once (--bidir)" if run.bidir else "; reverse mode (the server sent)" if run.reverse else ""
    side = "" if run.client else "; as measured by the server (its file holds only the server's own figures)"
    if run.udp and not run.datagrams_are_frames():
        side += f"; {int(blksize) if blksize else 'unknown-size'}-byte datagrams are not one frame each, so their counts are not published as frames"
    fields["description"] = f"iperf3 {what}" + (f", target {text}" if text else "") + mode_text + side + "."
    fields["methodology"] = methodology
    return test_id, fields


def describe(data: bytes, name: str) -> ImportPlan:
    """One test per run: protocol, streams, target bitrate, duration, iperf3 version and date."""
    plan = ImportPlan("iperf3")
    found, plan.problems = runs(data, name)
    if not found:
        return plan
    ids: dict[str, int] = {}
    days = []
    for i, run in enumerate(found):
        test_id, fields = _test(run)
        ids[test_id] = ids.get(test_id, 0) + 1
        if ids[test_id] > 1:  # the same settings again: another run of the sequence, its own test
            test_id = f"{test_id}-run-{i + 1}"
        plan.tests.append(TestPlan(test_id, fields, [{"part": f"run-{i + 1}"}] if len(found) > 1 else [{}]))
        secs = number(obj(run.start.get("timestamp")), "timesecs")
        if secs:
            try:
                days.append(datetime.datetime.fromtimestamp(secs, datetime.timezone.utc).date().isoformat())
            except (OverflowError, OSError, ValueError):  # beyond the dates a clock can hold
                plan.problems.append(Problem(name, None, f"{run.where}.start.timestamp.timesecs".lstrip("."),
                                             f"{secs!r} is not a time a run could start at", RULE))
                return plan
    version = str(found[0].start.get("version", "")).strip()
    plan.instrument = {"vendor": "ESnet", "product": "iperf3"}
    if version:
        plan.instrument["software"] = [{"name": "iperf3", "version": version.removeprefix("iperf ").strip()}]
    if days:
        plan.campaign = {"start": min(days), "end": max(days)}
        plan.source = {"published": max(days), "publication_kind": "test-run"}
    return plan


IMPORTER = Importer(
    summary="iperf3 --json (client or server side, -R, --bidir, -P, UDP or TCP, one run or several): goodput, loss, RFC 3550 jitter, retransmits, RTT, cwnd, per-interval samples",
    sniff=sniff,
    describe=describe,
    convert=import_iperf3,
    examples=("docs/importers/examples/iperf3/udp.json", "docs/importers/examples/iperf3/tcp.json", "docs/importers/examples/iperf3/tcp-bidir.json",
              "docs/importers/examples/iperf3/udp-p2-server.json"),
)
