"""iperf3 --json on the example files (real loopback runs): a UDP run's summary and intervals, a TCP
run's goodput, retransmits, RTT and cwnd; the quirks (-nan, omitted intervals) and bad input."""

from __future__ import annotations

import json

from conftest import ROOT
from wirespeed.importers.iperf3 import IMPORTER, describe, import_iperf3

EXAMPLES = ROOT / "docs" / "importers" / "examples" / "iperf3"


class _Test:
    id = "t1"
    imixes: dict = {}


def _rows(data: bytes, name: str = "run.json"):
    return import_iperf3(data, name, {"test": "t1"}, _Test())


def test_udp_summary_and_intervals():
    rows, problems, n = _rows((EXAMPLES / "udp.json").read_bytes())
    assert problems == [] and n == 3
    (summary,) = [r for r in rows if r.kind == "measurements"]
    got = {m: c.figure.text for m, c in summary.cells.items()}
    assert got == {"tx": "2499", "rx": "2483", "lost": "16", "goodput": "9928371.18033359", "interarrival_jitter": "0.013293522837439628",
                   "out_of_sequence": "0", "duration": "2.000214"}
    assert summary.cells["interarrival_jitter"].unit.name == "ms" and summary.keys == {"test": "t1", "trial": 1}
    samples = [r for r in rows if r.kind == "samples"]
    assert [r.keys["t_s"].text for r in samples] == ["0.0", "1.001532"]
    assert samples[0].cells["goodput"].figure.text == "9729095.42878207" and samples[0].value("tx_rate") == 1218 / 1.001531958580017
    assert all("tx_l2" not in r.cells and "rx_l2" not in r.cells for r in rows)  # goodput is not a layer-2 rate


def test_tcp_goodput_retransmits_rtt_cwnd():
    rows, problems, n = _rows((EXAMPLES / "tcp.json").read_bytes())
    assert problems == [] and n == 3
    (summary,) = [r for r in rows if r.kind == "measurements"]
    assert {m: c.figure.text for m, c in summary.cells.items()} == {
        "goodput": "100126642.35966858", "retransmits": "2", "rtt_min": "275", "rtt_avg": "275", "rtt_max": "276", "cwnd": "785796", "duration": "2.0001"}
    assert summary.value("rtt_max") == 276e-6 and summary.cells["retransmits"].unit.name == "segments"
    first = [r for r in rows if r.kind == "samples"][0]
    assert {m: c.figure.text for m, c in first.cells.items()} == {"goodput": "100645779.04874764", "retransmits": "2", "cwnd": "785796", "rtt_avg": "275"}


def test_describe_states_protocol_rate_version_and_date():
    plan = describe((EXAMPLES / "udp.json").read_bytes(), "udp.json")
    assert plan.problems == [] and [t.id for t in plan.tests] == ["udp-10m"]
    fields = plan.tests[0].fields
    assert fields["title"] == "iperf3 UDP at 10 Mbit/s" and fields["direction"] == "unidirectional" and fields["address_family"] == "ipv4"
    assert fields["methodology"] == {"search": "fixed-rate", "trials": 1, "trial_duration_s": 2}
    assert plan.instrument == {"vendor": "ESnet", "product": "iperf3", "software": [{"name": "iperf3", "version": "3.12"}]}
    assert plan.campaign == {"start": "2026-11-23", "end": "2026-11-23"}
    assert [t.id for t in describe((EXAMPLES / "tcp.json").read_bytes(), "tcp.json").tests] == ["tcp-100m"]


def test_nan_and_omitted_intervals_are_tolerated():
    doc = json.loads((EXAMPLES / "udp.json").read_bytes())
    doc["intervals"][0]["sum"]["omitted"] = True
    text = json.dumps(doc, indent="\t").replace('"jitter_ms": 0.013293522837439628', '"jitter_ms": -nan')
    rows, problems, _ = _rows(text.encode())
    assert problems == []
    assert len([r for r in rows if r.kind == "samples"]) == 1  # the omitted (warm-up) interval is left out
    (summary,) = [r for r in rows if r.kind == "measurements"]
    assert "interarrival_jitter" not in summary.cells and summary.value("lost") == 16


def test_bad_input_is_one_line_each():
    udp = (EXAMPLES / "udp.json").read_bytes()
    rows, problems, _ = _rows(udp[: len(udp) // 2], "cut.json")
    assert rows == [] and len(problems) == 1 and str(problems[0]).startswith("cut.json:") and "not valid JSON" in str(problems[0])
    other = (ROOT / "docs" / "importers" / "examples" / "csit" / "ndrpdr-64b-2t1c-l3fwd.info.json").read_bytes()
    rows, problems, _ = _rows(other, "csit.json")
    assert [str(p) for p in problems] == ["csit.json: not iperf3 --json output: expected an object with 'start', 'intervals' and 'end' [import.iperf3]"]
    doc = json.loads(udp)
    doc["intervals"][1]["sum"]["bits_per_second"] = "fast"
    rows, problems, _ = _rows(json.dumps(doc).encode())
    assert [str(p) for p in problems] == ["run.json: intervals[1].sum: expected 'start' and 'bits_per_second' numbers [import.iperf3]"]
    doc = json.loads(udp)
    doc["error"] = "unable to connect to server"
    assert [str(p) for p in _rows(json.dumps(doc).encode())[1]] == ["run.json: error: iperf3 reported an error: unable to connect to server [import.iperf3]"]


def test_sniff():
    assert IMPORTER.sniff((EXAMPLES / "tcp.json").read_bytes()[:65536], "x") > 0
    assert IMPORTER.sniff(b'{"results": {}}', "x.json") == 0
