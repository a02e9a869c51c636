"""flent data files: golden values read by hand from the real files of flent's own test data
(tests/real/flent, data formats 2, 3 and 4, gzip-compressed as flent writes them): the TCP flows'
goodput and the ping round-trip times as time series, the latency-under-load rows, and one-line
refusals."""

from __future__ import annotations

import gzip
import json

from conftest import ROOT
from wirespeed.importers.flent import IMPORTER, convert, describe

REAL = ROOT / "tests" / "real" / "flent"


class _Test:
    id = "t1"
    imixes: dict = {}


def _load(name: str) -> bytes:
    return gzip.decompress((REAL / name).read_bytes())  # the framework hands importers the decompressed bytes


def _rows(name: str):
    rows, problems, _ = convert(_load(name), name, {"test": "t1"}, _Test())
    assert problems == []
    return rows


def _row(rows, port: str) -> dict[str, str]:
    (r,) = [r for r in rows if r.kind == "measurements" and r.keys["port"] == port]
    return {m: c.figure.text for m, c in r.cells.items()}


def _series(rows, port: str):
    return [r for r in rows if r.kind == "samples" and r.keys["port"] == port]


def test_rrul_format_4_latency_under_load():
    rows = _rows("test-rrul_be-socket_stats.flent.gz")
    # SERIES_META["Ping (ms) ICMP"].MEAN_VALUE 26.6; its 1373 raw pings range 20.0 … 79.7 ms
    assert _row(rows, "Ping (ms) ICMP") == {"rtt_min": "20.0", "rtt_max": "79.7", "rtt_avg": "26.6"}
    # irtt: one raw value per packet (1353 of them): 20.155604 … 82.547953, MEAN_VALUE 26.506611
    assert _row(rows, "Ping (ms) UDP BE1") == {"rtt_min": "20.155604", "rtt_max": "82.547953", "rtt_avg": "26.506611"}
    assert _row(rows, "TCP download BE") == {"goodput": "1.24"}  # netperf's mean of the flow, Mbits/s
    assert _row(rows, "TCP totals") == {"goodput": "7.54"}
    assert all(r.cells["goodput"].unit.name == "mbps" for r in rows if "goodput" in r.cells)
    flow = _series(rows, "TCP download BE")
    # results["TCP download BE"]: 1200 points, the first at x_values[101] = 5.050000000000001 s, 0.7817526611783515
    assert len(flow) == 1200 and flow[0].keys["t_s"].text == "5.050000000000001" and flow[0].cells["goodput"].figure.text == "0.7817526611783515"
    ping = _series(rows, "Ping (ms) ICMP")
    assert len(ping) == 1402 and ping[0].cells["rtt_avg"].figure.text == "20.1" and ping[0].cells["rtt_avg"].unit.name == "ms"
    assert not [r for r in rows if "avg" in r.keys["port"] and r.keys["port"].endswith("avg")]  # flent's averages across flows are not imported


def test_rrul_format_3_udp_rr_pings_have_no_extremes():
    """Format 3: the UDP_RR pings' raw values are netperf's per-interval figures (with `dur`), not
    single round trips: only the series' mean (MEAN_VALUE) is published."""
    rows = _rows("test-rrul.flent.gz")
    assert _row(rows, "Ping (ms) UDP BE1") == {"rtt_avg": "302.11480362537765"}
    assert _row(rows, "Ping (ms) ICMP") == {"rtt_min": "10.4", "rtt_max": "404.0", "rtt_avg": "55.982"}  # 682 pings
    plan = describe(_load("test-rrul.flent.gz"), "x")
    assert [t.id for t in plan.tests] == ["rrul-be"] and plan.tests[0].fields["direction"] == "bidirectional"
    assert plan.tests[0].fields["title"] == "flent rrul_be: qdisc:codel rep:01 rtt:10ms rate:10Mbit/10Mbit cc:bbr ecn:noecn"
    assert plan.tests[0].fields["methodology"] == {"trial_duration_s": 140} and plan.tests[0].fields["address_family"] == "ipv4"
    assert plan.instrument["software"] == [{"name": "flent", "version": "1.0.1-git-1cfb649"}]
    assert plan.campaign == {"start": "2017-05-30", "end": "2017-05-30"}


def test_format_2_and_many_flows():
    rows = _rows("test-rrul-icmp.flent.gz")
    assert _row(rows, "Ping (ms) ICMP") == {"rtt_min": "49.5", "rtt_max": "50.8", "rtt_avg": "49.856"}
    assert _row(rows, "TCP upload BE4") == {"goodput": "21.86"}
    rows = _rows("test-tcp_nup.flent.gz")
    flows = {r.keys["port"] for r in rows if r.kind == "measurements" and r.keys["port"].startswith("TCP upload::")}
    assert len(flows) == 50 and _row(rows, "TCP upload::47") == {"goodput": "1.13"} and _row(rows, "TCP upload sum") == {"goodput": "26.09"}
    assert not [r for r in rows if r.keys["port"].endswith(("::tcp_cwnd", "::tcp_rtt"))]  # socket statistics are not imported
    plan = describe(_load("test-tcp_nup.flent.gz"), "x")
    assert plan.tests[0].fields["address_family"] == "ipv6" and plan.tests[0].fields["direction"] == "unidirectional"
    rows = _rows("test-tcp_1up_noping-cpu_stats.flent.gz")
    assert _row(rows, "TCP upload") == {"goodput": "939.47"} and {r.keys["port"] for r in rows} == {"TCP upload"}


def test_refusals():
    data = _load("test-http.flent.gz")
    assert [str(p) for p in describe(data, "http.flent.gz").problems] == [
        "http.flent.gz: results: flent test 'http' has no TCP throughput (Mbits/s) or ping (ms) series: nothing wirespeed reads (its series: HTTP latency) [import.flent]"]
    doc = json.loads(_load("test-tcp_1up_noping-cpu_stats.flent.gz"))
    doc["version"] = 5
    assert [str(p) for p in describe(json.dumps(doc).encode(), "new.flent").problems] == ["new.flent: version: flent data format 5: expected 1 to 4 [import.flent]"]
    doc["version"] = 4
    doc["results"]["TCP upload"] = doc["results"]["TCP upload"][:10]
    rows, problems, _ = convert(json.dumps(doc).encode(), "cut.flent", {"test": "t1"}, _Test())
    assert [str(p) for p in problems] == ["cut.flent: results.TCP upload: expected 151 values, one per x_values point [import.flent]"]
    assert [str(p) for p in describe(b'{"results": {}}', "x").problems] == ["x: not a flent data file: expected an object with 'metadata', 'x_values' and 'results' [import.flent]"]


def test_sniff():
    assert IMPORTER.sniff(_load("test-rrul.flent.gz")[:65536], "x") > 0
    assert IMPORTER.sniff(b'{"metadata": {}}', "x") == 0
