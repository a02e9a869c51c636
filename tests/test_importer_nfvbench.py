"""NFVbench result JSON on the example files: NDR/PDR per frame size with per-direction rows and HDR
percentiles, a fixed-rate run inside a TestAPI record, a TestAPI page, the quirks and bad input."""

from __future__ import annotations

import json

from conftest import ROOT
from wirespeed.importers.nfvbench import IMPORTER, describe, import_nfvbench

EXAMPLES = ROOT / "docs" / "importers" / "examples" / "nfvbench"
NDR_PDR = (EXAMPLES / "ndr-pdr.json").read_bytes()
FIXED = (EXAMPLES / "testapi-fixed-rate.json").read_bytes()


class _Test:
    imixes: dict = {}

    def __init__(self, id: str):
        self.id = id


def _rows(data: bytes, part: str, name: str = "nfv.json"):
    return import_nfvbench(data, name, {"test": part.lower(), "part": part}, _Test(part.lower()))


def _cells(row) -> dict[str, str]:
    return {m: c.figure.text for m, c in row.cells.items()}


def test_ndr_pdr_per_frame_size_and_direction():
    rows, problems, n = _rows(NDR_PDR, "PVP")
    assert problems == [] and n == 12 and len(rows) == 12
    by_key = {(r.keys["frame_size"], r.keys["variant"], r.keys.get("port")): r for r in rows}
    ndr = by_key[(64, "ndr", None)]
    assert _cells(ndr) == {"throughput": "11904762", "throughput_l1": "8000000064", "throughput_line_rate": "40.0", "duration": "60",
                           "tx": "714285720", "rx": "714285220", "loss": "6.999999944e-05", "latency_min": "8", "latency_avg": "9", "latency_max": "64",
                           "latency_p50": "9", "latency_p90": "10", "latency_p99": "20", "latency_p99_9": "22", "latency_p99_99": "22"}
    # direction 0->1: sent by port 0, received (and timed) by port 1
    assert _cells(by_key[(64, "pdr", "0->1")]) == {"tx": "401785710", "rx": "401605710", "latency_min": "8", "latency_avg": "10", "latency_max": "102",
                                                   "latency_p50": "9", "latency_p90": "10", "latency_p99": "33", "latency_p99_9": "102", "latency_p99_99": "102"}
    assert by_key[(64, "pdr", "1->0")].cells["rx"].figure.text == "401615710"
    assert by_key[(1518, "ndr", None)].value("throughput") == 1609233 and by_key[(1518, "ndr", None)].value("loss") == 0


def test_fixed_rate_run_in_a_testapi_record():
    rows, problems, n = _rows(FIXED, "PVVP")
    assert problems == [] and n == 3
    total = next(r for r in rows if "port" not in r.keys)
    assert total.keys["load_pct"].text == "50.0" and total.keys["frame_size"] == 64
    assert _cells(total)["tx_rate"] == "14880952" and _cells(total)["rx_rate"] == "14880950.6" and _cells(total)["rx_l1"] == "9999998803"
    fwd = next(r for r in rows if r.keys.get("port") == "0->1")
    assert (_cells(fwd)["tx"], _cells(fwd)["rx"], _cells(fwd)["rx_rate"]) == ("223214280", "223214250", "7440475.0")


def test_describe():
    plan = describe(NDR_PDR, "ndr-pdr.json")
    assert plan.problems == [] and [t.id for t in plan.tests] == ["pvp"]
    t = plan.tests[0]
    assert t.native == [{"part": "PVP"}] and t.fields["direction"] == "bidirectional" and t.fields["flows"] == 10000
    assert t.fields["methodology"]["frame_sizes"] == [64, 1518] and t.fields["methodology"]["loss_tolerance_pct"] == 0.1
    assert set(t.fields["variants"]) == {"ndr", "pdr"}
    assert plan.instrument["software"] == [{"name": "NFVbench", "version": "5.0.3"}, {"name": "T-Rex", "version": "v3.02"}]
    assert plan.campaign == {"start": "2024-03-14", "end": "2024-03-14"}
    fixed = describe(FIXED, "f.json")
    assert [t.id for t in fixed.tests] == ["pvvp"] and fixed.tests[0].fields["methodology"]["offered_loads_pct"] == [50.0]
    assert fixed.campaign == {"start": "2024-03-15", "end": "2024-03-15"}


def test_percentiles_without_histogram_and_na():
    doc = json.loads(NDR_PDR)
    overall = doc["benchmarks"]["network"]["service_chain"]["PVP"]["result"]["result"]["64"]["ndr"]["stats"]["overall"]
    del overall["hdrh"]
    overall["min_delay_usec"] = " N/A "
    rows, problems, _ = _rows(json.dumps(doc).encode(), "PVP")
    ndr = next(r for r in rows if r.keys == {"test": "pvp", "frame_size": 64, "variant": "ndr"})
    assert problems == [] and "latency_min" not in ndr.cells
    assert (_cells(ndr)["latency_p50"], _cells(ndr)["latency_p99"]) == ("9", "20") and "latency_p99_9" not in ndr.cells  # "n/a" left out


def test_testapi_page_and_duplicated_runs():
    record = json.loads(FIXED)
    rows, problems, _ = _rows(json.dumps({"results": [record], "pagination": {"total_pages": 1}}).encode(), "PVVP")
    assert problems == [] and len(rows) == 3
    rows, problems, _ = _rows(json.dumps({"results": [record, record]}).encode(), "PVVP", "page.json")
    assert [str(p) for p in problems] == [
        "page.json: results[1].details.benchmarks.network.service_chain.PVVP.result.result.64: duplicated run: PVVP 64 fixed is also at "
        "results[0].details.benchmarks.network.service_chain.PVVP.result.result.64 [import.nfvbench]"]


def test_bad_input_is_one_line_each():
    rows, problems, _ = _rows(NDR_PDR[:5000], "PVP", "cut.json")
    assert rows == [] and len(problems) == 1 and str(problems[0]).startswith("cut.json:") and "not valid JSON" in str(problems[0])
    iperf = (ROOT / "docs" / "importers" / "examples" / "iperf3" / "udp.json").read_bytes()
    assert [str(p) for p in _rows(iperf, "PVP", "i.json")[1]] == [
        "i.json: expected NFVbench results: benchmarks.network.service_chain (bare, or as 'details' of a TestAPI record) [import.nfvbench]"]
    assert [str(p) for p in _rows(NDR_PDR, "PVVP", "n.json")[1]] == ["n.json: benchmarks.network.service_chain: no service chain 'PVVP' (the file has: PVP) [import.nfvbench]"]
    doc = json.loads(NDR_PDR)
    sizes = doc["benchmarks"]["network"]["service_chain"]["PVP"]["result"]["result"]
    sizes["jumbo"] = sizes.pop("1518")
    sizes["64"]["pdr"]["stats"]["overall"]["hdrh"] = "HISTFAAAAbroken"
    problems = _rows(json.dumps(doc).encode(), "PVP", "n.json")[1]
    assert len(problems) == 2
    assert str(problems[0]).startswith("n.json: benchmarks.network.service_chain.PVP.result.result.64.pdr.stats.overall.hdrh: not a decodable HDR histogram (")
    assert str(problems[1]) == ("n.json: benchmarks.network.service_chain.PVP.result.result.jumbo: frame size 'jumbo': expected a number of bytes, "
                                "or an IMIX declared in the test's methodology.imix [import.nfvbench]")


def test_sniff():
    assert IMPORTER.sniff(NDR_PDR[:65536], "x.json") > 0 and IMPORTER.sniff(FIXED[:65536], "x.json") > 0
    assert IMPORTER.sniff((ROOT / "docs" / "importers" / "examples" / "iperf3" / "udp.json").read_bytes(), "x.json") == 0
