"""FD.io CSIT info.json on the example files: NDR/PDR bounds, latency at 0/10/50/90 % of PDR with HDR
percentiles, MRR trials, what the tags and the test name state, and bad input (units, failed tests)."""

from __future__ import annotations

import json

from conftest import ROOT
from wirespeed.importers.csit import IMPORTER, describe, import_csit

EXAMPLES = ROOT / "docs" / "importers" / "examples" / "csit"
NDRPDR = (EXAMPLES / "ndrpdr-64b-1c.info.json").read_bytes()
MRR = (EXAMPLES / "mrr-64b-1c.info.json").read_bytes()


class _Test:
    id = "t"
    imixes: dict = {}


def _rows(data: bytes, name: str = "info.json", **spec):
    return import_csit(data, name, {"test": "t", **spec}, _Test())


def _cells(row) -> dict[str, str]:
    return {m: c.figure.text for m, c in row.cells.items()}


def test_ndr_pdr_bounds_and_latency():
    rows, problems, n = _rows(NDRPDR)
    assert problems == [] and n == 10 and len(rows) == 10
    by = {(r.keys["variant"], r.keys.get("port")): r for r in rows}
    assert _cells(by[("ndr", None)]) == {"throughput": "18500000.0", "throughput_l1": "12432000000.0", "throughput_upper": "18606000.0",
                                         "throughput_upper_l1": "12503232000.0"}
    assert by[("pdr", None)].value("throughput") == 19124000 and by[("pdr", None)].keys["frame_size"] == 64
    assert _cells(by[("pdr-90", "forward")]) == {"latency_min": "11", "latency_avg": "17", "latency_max": "120", "latency_p50": "14", "latency_p90": "19",
                                                 "latency_p99": "40", "latency_p99_9": "120", "latency_p99_99": "120"}
    assert by[("pdr-0", "reverse")].value("latency_max") == 26e-6


def test_mrr_trials():
    rows, problems, n = _rows(MRR)
    assert problems == [] and n == 11
    trials = [r for r in rows if "trial" in r.keys]
    assert [r.keys["trial"] for r in trials] == list(range(1, 11))
    assert _cells(trials[2]) == {"forwarding_rate": "18934012.9"}
    (avg,) = [r for r in rows if "trial" not in r.keys]
    assert _cells(avg) == {"forwarding_rate": "18915338.9"}


def test_describe_reads_tags_and_name():
    plan = describe(NDRPDR, "info.json")
    assert plan.problems == [] and [t.id for t in plan.tests] == ["ethip4-ip4base-ndrpdr-1t1c"]
    t = plan.tests[0]
    assert t.native == [{"frame_size": 64}]
    assert {k: t.fields[k] for k in ("ports", "port_speed", "direction", "scenario", "address_family", "rfc")} == {
        "ports": 2, "port_speed": "10G", "direction": "bidirectional", "scenario": "ipv4-routing", "address_family": "ipv4", "rfc": ["2544"]}
    assert set(t.fields["variants"]) == {"ndr", "pdr", "pdr-0", "pdr-10", "pdr-50", "pdr-90"}
    assert plan.dut == {"software": [{"name": "VPP", "version": "24.02-release"}]}
    assert plan.instrument["software"] == [{"name": "T-Rex", "version": "3.03"}, {"name": "CSIT UTI model", "version": "1.5.1"}]
    assert plan.campaign == {"start": "2024-02-27", "end": "2024-02-27"}
    mrr = describe(MRR, "info.json").tests[0]
    assert mrr.id == "ethip4-ip4base-mrr-1t1c" and mrr.fields["methodology"]["trials"] == 10 and "direction" not in mrr.fields


def test_bad_input_is_one_line_each():
    assert [str(p) for p in _rows(NDRPDR[:700], "cut.json")[1]][0].startswith("cut.json:")
    doc = json.loads(NDRPDR)
    doc["result"]["ndr"]["lower"]["rate"]["unit"] = "cps"
    doc["result"]["latency_forward"]["pdr_10"]["unit"] = "ns"
    assert [str(p) for p in _rows(json.dumps(doc).encode(), "u.json")[1]] == [
        "u.json: result.ndr.lower.rate.unit: expected pps, not 'cps' [import.csit]",
        "u.json: result.latency_forward.pdr_10.unit: expected us, not 'ns' [import.csit]"]
    doc = json.loads(NDRPDR)
    doc.update(passed=False, message="Traffic generator failed to start\nTraceback ...")
    assert [str(p) for p in describe(json.dumps(doc).encode(), "f.json").problems] == [
        "f.json: passed: CSIT marks the test as failed: Traffic generator failed to start [import.csit]"]
    doc = json.loads(NDRPDR)
    doc["tags"].remove("64B")
    assert [str(p) for p in _rows(json.dumps(doc).encode(), "t.json")[1]] == [
        "t.json: tags: no frame size: expected a tag such as 64B (or an IMIX tag with the test's methodology.imix declared) [import.csit]"]
    nfv = (ROOT / "docs" / "importers" / "examples" / "nfvbench" / "ndr-64b-generator-short.json").read_bytes()
    assert [str(p) for p in _rows(nfv, "n.json")[1]] == ["n.json: expected a CSIT test-case info.json: an object with 'test_id', 'tags' and 'result' [import.csit]"]
    doc = json.loads(MRR)
    doc["result"]["receive_rate"]["rate"]["values"][4] = "N/A"
    rows, problems, _ = _rows(json.dumps(doc).encode(), "m.json")
    assert [str(p) for p in problems] == ["m.json: result.receive_rate.rate.values[4]: expected a number, not 'N/A' [import.csit]"] and len(rows) == 10


def test_sniff():
    assert IMPORTER.sniff(NDRPDR, "info.json") > 0 and IMPORTER.sniff(MRR, "x.json") > 0
    assert IMPORTER.sniff((ROOT / "docs" / "importers" / "examples" / "iperf3" / "tcp.json").read_bytes(), "x.json") == 0
