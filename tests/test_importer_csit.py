"""FD.io CSIT per-test JSON on real files (tests/real/fdio-csit, provenance in tests/real/SOURCES.md):
the rows against values read from each file by hand (the JSON path of each in a comment), what the
tags and names state, and the files refused with the reason they are not results."""

from __future__ import annotations

import gzip
import json

import pytest

from conftest import ROOT
from wirespeed.importers import checked
from wirespeed.importers.csit import IMPORTER, convert, describe

REAL = ROOT / "tests" / "real" / "fdio-csit"


class _Test:
    def __init__(self, test_id: str, imixes: dict | None = None):
        self.id, self.imixes = test_id, imixes or {}


def _plan(name: str):
    return describe((REAL / name).read_bytes(), name)


def _rows(name: str, native: dict | None = None, test=None):
    """Rows of the file's one test (or the native entry given), as loading a set would make them."""
    data = (REAL / name).read_bytes()
    plan = describe(data, name)
    t = test or plan.tests[0]
    native = native if native is not None else t.native[0]
    imixes = {m["id"]: m for m in t.fields["methodology"].get("imix", [])}
    rows, problems, _n = convert(data, name, native, _Test(t.id, imixes))
    return checked(rows, problems, name)


def _by(rows) -> dict:
    return {(r.keys.get("variant"), r.keys.get("port"), r.keys.get("trial")): {m: c.figure.text for m, c in r.cells.items()} for r in rows}


# --- UTI 1.x -------------------------------------------------------------------------------------

def test_uti_1_0_ndrpdr_dpdk_without_test_id():
    name = "dpdk_64b-1c-ethip4-ip4base-l3fwd-ndrpdr.info.json"
    plan = _plan(name)
    (t,) = plan.tests
    # no test_id in the file: CSIT's suite name rebuilt from the tag 2_NODE_SINGLE_LINK_TOPO, NIC_Intel-XXV710 (25ge2p1xxv710 in
    # CSIT's table), test_name_short ethip4-ip4base-l3fwd and test_type ndrpdr; 2t1c from test_name_long xxv710-64b-2t1c-…
    assert t.id == "2n1l-25ge2p1xxv710-ethip4-ip4base-l3fwd-ndrpdr-2t1c" and t.native == [{"frame_size": 64}]
    assert {k: t.fields[k] for k in ("port_speed", "ports", "direction", "topology", "scenario", "address_family", "rfc")} == {
        "port_speed": "25G", "ports": 2, "direction": "bidirectional", "topology": "port-pairs", "scenario": "ipv4-routing",
        "address_family": "ipv4", "rfc": ["2544"]}
    assert plan.dut == {"software": [{"name": "DPDK", "version": "21.08.0"}]}  # dut_type, dut_version
    assert plan.campaign == {"start": "2021-12-13", "end": "2021-12-13"}  # start_time 2021-12-13T19:03:23…, end_time …19:09:10
    assert "loss_tolerance_pct" not in t.fields["methodology"]  # NDR 0 %, PDR 0.5 %: said per variant, never one figure for both
    assert t.fields["methodology"]["search"] == "mlrsearch"  # CSIT's MLRsearch, not RFC 2544's binary search
    rows, problems = _rows(name)
    by = _by(rows)
    # result.ndr.lower.rate.value / .bandwidth.value, result.ndr.upper.…
    assert by[("ndr", None, None)] == {"throughput": "36247378.970451966", "throughput_l1": "24358238668.143723",
                                       "throughput_upper": "36429526.42086478", "throughput_upper_l1": "24480641754.821133"}
    assert by[("pdr", None, None)]["throughput"] == "36796570.75329382"  # result.pdr.lower.rate.value
    assert by[("pdr", None, None)]["throughput_upper_l1"] == "24851553188.207882"  # result.pdr.upper.bandwidth.value
    # result.latency_forward.pdr_90 {min 10, avg 15, max 26}; percentiles of its hdrh (checked by nearest rank over the
    # histogram's 45001 recorded samples)
    assert by[("pdr-90", "0->1", None)] == {"latency_min": "10", "latency_avg": "15", "latency_max": "26", "latency_p50": "15",
                                            "latency_p90": "18", "latency_p99": "22", "latency_p99_9": "24", "latency_p99_99": "25"}
    # result.latency_reverse.pdr_90 {min 10, avg 16, max 27}, but its histogram holds a sample at 103 us (p99.99 = 69):
    # the histogram's maximum is published, with a warning naming both
    assert by[("pdr-90", "1->0", None)]["latency_max"] == "103" and by[("pdr-90", "1->0", None)]["latency_p99_99"] == "69"
    assert [str(p) for p in problems] == [
        f"{name}: result.latency_reverse.pdr_50.max: warning: the HDR histogram holds samples up to 90 us, above the maximum of 26 us "
        "beside it: the histogram's maximum is published [import.csit]",
        f"{name}: result.latency_reverse.pdr_90.max: warning: the HDR histogram holds samples up to 103 us, above the maximum of 27 us "
        "beside it: the histogram's maximum is published [import.csit]"]
    assert len(rows) == 10 and set(t.fields["variants"]) == {"ndr", "pdr", "pdr-0", "pdr-10", "pdr-50", "pdr-90"}


def test_uti_1_0_mrr_and_soak_dpdk():
    rows, problems = _rows("dpdk_64b-1c-ethip4-ip4base-l3fwd-mrr.info.json")
    by = _by(rows)
    assert problems == [] and len(rows) == 11
    assert by[(None, None, 1)] == {"forwarding_rate": "36543607.982500754"}  # result.receive_rate.rate.values[0]
    assert by[(None, None, 10)] == {"forwarding_rate": "36345757.12065309"}  # result.receive_rate.rate.values[9]
    assert by[(None, None, None)] == {"forwarding_rate": "36417741.37272204"}  # result.receive_rate.rate.avg
    plan = _plan("dpdk_64b-1c-ethip4-ip4base-l3fwd-mrr.info.json")
    assert plan.tests[0].id == "2n1l-25ge2p1xxv710-ethip4-ip4base-l3fwd-mrr-2t1c" and plan.tests[0].fields["methodology"]["trials"] == 10
    rows, problems = _rows("dpdk_64b-1c-ethip4-ip4base-l3fwd-soak.info.json")
    # result.critical_rate.lower|upper.rate|bandwidth.value
    assert problems == [] and _by(rows) == {("critical-rate", None, None): {
        "throughput": "36272616.90034725", "throughput_l1": "24375198557.03335", "throughput_upper": "36275676.6487605",
        "throughput_upper_l1": "24377254707.967056"}}


def test_uti_1_5_1_gzipped_mrr():
    name = "64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz"
    plan = _plan(name)
    (t,) = plan.tests
    # test_id tests.frouter.perf.ip4.2n1l-100ge2p1e810cq-ethip4-ip4base-frouter-mrr.64b-1c-ethip4-ip4base-frouter-mrr
    assert t.id == "2n1l-100ge2p1e810cq-ethip4-ip4base-frouter-mrr-1c" and t.fields["port_speed"] == "100G" and t.fields["ports"] == 2
    assert plan.dut == {"software": [{"name": "VPP", "version": "24.10-rc0~171-g1fb7ae344"}]}
    assert plan.instrument["software"] == [{"name": "T-Rex", "version": "v3.04"}, {"name": "CSIT UTI model", "version": "1.5.1"}]  # tg_version, version
    assert plan.source == {"published": "2024-08-28", "publication_kind": "test-run"}
    rows, problems = _rows(name)
    by = _by(rows)
    assert problems == [] and len(rows) == 11
    assert by[(None, None, 1)] == {"forwarding_rate": "11598963.276564011"}  # result.receive_rate.rate.values[0]
    assert by[(None, None, 10)] == {"forwarding_rate": "11659360.46554718"}  # …values[9]
    assert by[(None, None, None)] == {"forwarding_rate": "11680498.355091373"}  # result.receive_rate.rate.avg


def test_uti_1_5_1_imix_is_csit_imix_v4_1():
    name = "imix-4c-ethip4-ip4scale100k-frouter-mrr.info.json.gz"
    (t,) = _plan(name).tests
    # tag IMIX; CSIT's IMIX_v4_1: 64, 570 and 1518-byte frames at 28:16:4 (GPL/traffic_profiles/trex/profile_trex_stateless_base_class.py)
    assert t.native == [{"frame_size": "imix-v4-1"}] and t.fields["methodology"]["frame_sizes"] == ["imix-v4-1"]
    assert t.fields["methodology"]["imix"] == [{"id": "imix-v4-1", "sizes": [64, 570, 1518], "weights": [28, 16, 4]}]
    doc = json.loads(gzip.decompress((REAL / name).read_bytes()))["result"]["receive_rate"]
    # the file's own bandwidth agrees: avg bps / avg pps / 8 − 20 bytes of layer-1 overhead = the IMIX's average frame, 353.83 bytes
    assert abs(doc["bandwidth"]["avg"] / doc["rate"]["avg"] / 8 - 20 - (28 * 64 + 16 * 570 + 4 * 1518) / 48) < 1e-6
    rows, problems = _rows(name)
    by = _by(rows)
    assert problems == [] and by[(None, None, 1)] == {"forwarding_rate": "13764795.181920607"}  # result.receive_rate.rate.values[0]
    assert by[(None, None, None)] == {"forwarding_rate": "13628072.829107434"} and all(r.keys["frame_size"] == "imix-v4-1" for r in rows)


def test_uti_1_0_trex_only_with_status_instead_of_passed():
    name = "trex_64b-eth-l2bdscale1mmaclrn-tg-ndrpdr.info.json"
    plan = _plan(name)
    (t,) = plan.tests
    # suite_id tests.trex.perf.l2.1n1l-10ge2p1x710-…-tg-ndrpdr, test_name 64B--…: no cores; dut_type "unknown": no DUT software
    assert t.id == "1n1l-10ge2p1x710-eth-l2bdscale1mmaclrn-tg-ndrpdr" and t.fields["scenario"] == "generator-capacity" and plan.dut == {}
    assert plan.instrument["product"] == "CSIT with the T-Rex traffic generator"  # tag TREX
    by = _by(_rows(name)[0])
    # result.ndr.lower = upper = 29761904.0 pps at 19999999488.0 bps: 2 × 10GE line rate at 64 B (2 × 14,880,952.38)
    assert by[("ndr", None, None)] == {"throughput": "29761904.0", "throughput_l1": "19999999488.0", "throughput_upper": "29761904.0",
                                       "throughput_upper_l1": "19999999488.0"}
    assert by[("pdr-0", "0->1", None)]["latency_max"] == "4"  # result.latency_forward.pdr_0.max
    assert by[("pdr-90", "1->0", None)]["latency_avg"] == "6"  # result.latency_reverse.pdr_90.avg


def test_failed_test_is_refused_never_a_zero():
    name = "trex_64b-eth-l2bdscale1mmaclrn-tg-ndrpdr.info.json"
    doc = json.loads((REAL / name).read_bytes())
    doc.update(status="FAIL", message="Minimal rate loss fraction 1.0 does not reach target 0.005.\nZero packets forwarded!")
    data = json.dumps(doc).encode()
    assert [str(p) for p in describe(data, "f.json").problems] == [
        "f.json: status: the test failed (Minimal rate loss fraction 1.0 does not reach target 0.005.): a failed test states no result, "
        "so it is not imported [import.csit]"]
    rows, problems, _ = convert(data, "f.json", {"frame_size": 64}, _Test("t"))
    assert rows == [] and problems and problems[0].severity == "error"
    doc = json.loads(gzip.decompress((REAL / "64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz").read_bytes()))
    doc.update(passed=False, message="Traffic generator failed")
    assert [p.field for p in describe(json.dumps(doc).encode(), "p.json").problems] == ["passed"]


# --- UTI 0.2.0 and the 0.1.0 draft ---------------------------------------------------------------

def test_uti_0_2_0_mrr():
    name = "uti-0.2.0_storage_test_mrr.info.json"
    plan = _plan(name)
    assert plan.tests[0].id == "2n1l-10ge2p1x553-eth-l2patch-mrr-1c" and plan.tests[0].fields["port_speed"] == "10G"  # 10ge2p1x553
    assert plan.tests[0].fields["scenario"] == "l2-xconnect"  # tag L2PATCH
    assert plan.dut == {"software": [{"name": "VPP", "version": "22.02-rc0~262-g3ef8bf366~b1920"}]}  # sut_type, sut_version
    by = _by(_rows(name)[0])
    assert by[(None, None, 1)] == {"forwarding_rate": "12245515.001817115"}  # results.mrr.samples[0].rate.value
    assert by[(None, None, None)] == {"forwarding_rate": "12084450.376517992"}  # results.mrr.avg


def test_draft_0_1_0_ndrpdr_in_gbps():
    name = "uti-draft-0.1.0_2101-3n-hsw.64_64b-1t1c-eth-l2patch-ndrpdr.json"
    plan = _plan(name)
    (t,) = plan.tests
    # test.test-id tests.vpp.perf.l2.40ge2p1xl710-eth-l2patch-ndrpdr.64b-1t1c-…; tag 3_NODE_SINGLE_LINK_TOPO: two DUTs in a chain
    assert t.id == "40ge2p1xl710-eth-l2patch-ndrpdr-1t1c" and t.fields["topology"] == "chain" and t.fields["port_speed"] == "40G"
    assert "CI job csit-vpp-perf-report-iterative-2101-3n-hsw build 64" in t.fields["description"]  # test.execution.job, .build
    assert plan.dut == {"software": [{"name": "VPP", "version": "21.01-release"}]}  # test.execution.sut-version
    rows, problems = _rows(name)
    by = _by(rows)
    # test.results.test.ndr.value_pps.lower/upper and value_gbps.lower/upper (Gbit/s, layer 1: 672 bits a 64-byte frame)
    assert problems == [] and by[("ndr", None, None)] == {"throughput": "21554816.721912965", "throughput_l1": "14.484836837125513",
                                                          "throughput_upper": "21663131.285634764", "throughput_upper_l1": "14.557624223946561"}
    assert {r.cells["throughput_l1"].unit.name for r in rows if "throughput_l1" in r.cells} == {"gbps"}
    # test.results.test.hdrh.forward["pdr-90"] {min 17.0, avg 34.0, max 71.0}
    assert {k: by[("pdr-90", "0->1", None)][k] for k in ("latency_min", "latency_avg", "latency_max")} == {
        "latency_min": "17.0", "latency_avg": "34.0", "latency_max": "71.0"}


def test_draft_0_1_0_other_revisions():
    # the flat revision: results.throughput{unit, ndr.value{lower,upper}, ndr.value_gbps}, results.latency.forward.pdr_90
    by = _by(_rows("uti-draft-0.1.0-flat_78b-1c-ethip6-ip6base-ndrpdr.json")[0])
    assert by[("ndr", None, None)]["throughput"] == "10689375.540465856" and by[("ndr", None, None)]["throughput_l1"] == "8.380470423725232"
    assert by[("pdr-90", "0->1", None)]["latency_max"] == "94.0"
    (t,) = _plan("uti-draft-0.1.0-flat_78b-1c-ethip6-ip6base-ndrpdr.json").tests
    assert t.native == [{"frame_size": 78}] and t.fields["scenario"] == "ipv6-unicast"
    # the flat MRR: results{unit, samples, avg, stdev}; the nested one: test.results{samples, mrr, stdev}
    by = _by(_rows("uti-draft-0.1.0-flat_64b-1c-eth-l2patch-mrr.json")[0])
    assert by[(None, None, 1)] == {"forwarding_rate": "21752588.29112736"} and by[(None, None, None)] == {"forwarding_rate": "21719215.054273117"}
    by = _by(_rows("uti-draft-0.1.0_2101-3n-hsw.63_64b-1t1c-eth-l2patch-mrr.json")[0])
    assert by[(None, None, 1)] == {"forwarding_rate": "21752588.29112736"} and by[(None, None, None)] == {"forwarding_rate": "21719215.054273117"}
    by = _by(_rows("uti-draft-0.1.0-nested_64b-4t4c-eth-l2patch-mrr.json")[0])
    assert by[(None, None, 1)] == {"forwarding_rate": "32898681.325309694"} and by[(None, None, None)] == {"forwarding_rate": "32967328.7489024"}
    # test.results.throughput.ndr.value.lower, .value_gbps.lower; 8T4C from the test name
    name = "uti-draft-0.1.0-nested_64b-8t4c-ethip4-ip4base-ndrpdr.json"
    by = _by(_rows(name)[0])
    assert by[("ndr", None, None)]["throughput"] == "33860429.05341475" and by[("ndr", None, None)]["throughput_l1"] == "22.754208323894712"
    assert _plan(name).tests[0].id == "2n1l-25ge2p1xxv710-ethip4-ip4base-ndrpdr-8t4c"
    # soak: test.results.test.throughput{lower, upper} (nested) and results.critical_rate{lower, upper} (flat), pps
    for soak in ("uti-draft-0.1.0_2101-2n-skx.68_64b-2t1c-ethip4-ip4base-soak.json", "uti-draft-0.1.0-flat_64b-1c-ethip4-ip4base-soak.json"):
        assert _by(_rows(soak)[0]) == {("critical-rate", None, None): {"throughput": "14879532.196245482", "throughput_upper": "14981007.507939538"}}


def test_draft_0_1_0_revision_3e08c01():
    """docs/TNM/examples/output_uti at 3e08c018: the same runs (job 2101-3n-hsw builds 63, 64; 2n-skx 68) in
    another revision: test{test-id, results{throughput{unit, ndr|pdr{value, value_gbps}}, hdrh{forward|reverse
    {"pdr-0"…"pdr-90"}}}}, MRR as test.results{unit, samples, mrr, stdev}, soak as results["critical-rate"]."""
    name = "uti-draft-0.1.0-r3e08c01_78b-1t1c-ethip6-ip6base-ndrpdr.json"
    by = _by(_rows(name)[0])
    # test.results.throughput.ndr.value.lower/upper, .value_gbps.lower/upper (8.38 Gbit/s = 10689375.5 pps × 98 bytes × 8)
    assert by[("ndr", None, None)] == {"throughput": "10689375.540465856", "throughput_l1": "8.380470423725232",
                                       "throughput_upper": "10743090.17335611", "throughput_upper_l1": "8.42258269591119"}
    assert by[("pdr", None, None)]["throughput"] == "10851331.111971145"  # test.results.throughput.pdr.value.lower
    # test.results.hdrh.forward["pdr-0"] {min 16.0, avg 23.0, max 59.0}; .reverse["pdr-90"] {18.0, 51.0, 102.0}
    assert {k: by[("pdr-0", "0->1", None)][k] for k in ("latency_min", "latency_avg", "latency_max")} == {
        "latency_min": "16.0", "latency_avg": "23.0", "latency_max": "59.0"}
    assert {k: by[("pdr-90", "1->0", None)][k] for k in ("latency_min", "latency_avg", "latency_max")} == {
        "latency_min": "18.0", "latency_avg": "51.0", "latency_max": "102.0"}
    (t,) = _plan(name).tests
    assert t.id == "40ge2p1xl710-ethip6-ip6base-ndrpdr-1t1c"  # test.test-id tests.vpp.perf.ip6.40ge2p1xl710-ethip6-ip6base-ndrpdr.78b-1t1c-…
    by = _by(_rows("uti-draft-0.1.0-r3e08c01_64b-1t1c-eth-l2patch-mrr.json")[0])
    # test.results.samples[0], [9] and .mrr
    assert by[(None, None, 1)] == {"forwarding_rate": "21752588.29112736"} and by[(None, None, 10)] == {"forwarding_rate": "21662055.485090826"}
    assert by[(None, None, None)] == {"forwarding_rate": "21719215.054273117"}
    by = _by(_rows("uti-draft-0.1.0-r3e08c01_64b-2t1c-ethip4-ip4base-soak.json")[0])
    # test.results["critical-rate"] {lower 14879532.196245482, upper 14981007.507939538}
    assert by == {("critical-rate", None, None): {"throughput": "14879532.196245482", "throughput_upper": "14981007.507939538"}}


# --- refused: no result, or not a kind wirespeed imports -------------------------------------------

@pytest.mark.parametrize("name,expected", [
    ("dpdk_l3fwd-ndrpdr_suite.info.json", "suite_documentation: a CSIT suite.info.json (suite setup and teardown: times, hosts, documentation) "
                                          "holds no test results: import the suite's test files (*.info.json) instead"),
    ("spark_schema_trending_ndrpdr.json", "fields: a Spark schema (the column types of CSIT's Parquet tables) holds no test results"),
    ("uti-1.0.0_devicetest.example.json", "result.type: a CSIT test without a performance result (type unknown: a device test, or one the "
                                          "model does not cover): wirespeed imports ndrpdr, mrr and soak results"),
    ("uti-draft-0.1.0_2101-3n-hsw.65_64b-4t4c-ipsec-reconf.json", "test.test-type: a CSIT reconf test (packets lost while the DUT is "
                                                                  "reconfigured): wirespeed imports ndrpdr, mrr and soak results"),
    ("uti-draft-0.1.0-flat_64b-2c-nat44ed-cps-ndrpdr.json", "results.throughput.unit: a rate in cps (connections per second): wirespeed "
                                                            "imports frame rates (pps); CSIT's connection, request and goodput tests are not imported"),
    ("uti-draft-0.1.0-nested_64b-8t4c-nat44ed-cps-ndrpdr.json", "test.results.throughput.unit: a rate in cps (connections per second): "
                                                                "wirespeed imports frame rates (pps); CSIT's connection, request and goodput tests are not imported"),
    ("uti-draft-0.1.0_2101-3n-hsw.69_1460b-1t1c-hoststack-iperf3-bps.json", "test.test-type: a CSIT hoststack test (goodput of a host "
                                                                            "stack): wirespeed imports ndrpdr, mrr and soak results"),
])
def test_files_without_results_are_refused_in_one_line(name, expected):
    assert [str(p) for p in _plan(name).problems] == [f"{name}: {expected} [import.csit]"]


def test_auto_picks_csit_for_every_real_file():
    for path in sorted(REAL.iterdir()):
        if path.suffix != ".yaml":
            assert IMPORTER.sniff(path.read_bytes()[:65536], path.name) >= 0.5, path.name


def test_bad_units_and_values_name_the_json_path():
    name = "dpdk_64b-1c-ethip4-ip4base-l3fwd-ndrpdr.info.json"
    doc = json.loads((REAL / name).read_bytes())
    doc["result"]["ndr"]["lower"]["rate"]["unit"] = "cps"
    doc["result"]["latency_forward"]["pdr_10"]["unit"] = "ns"
    doc["result"]["pdr"]["upper"]["bandwidth"]["value"] = -3
    assert [str(p) for p in describe(json.dumps(doc).encode(), "u.json").problems] == [
        "u.json: result.ndr.lower.rate.unit: a rate in cps (connections per second): wirespeed imports frame rates (pps); CSIT's "
        "connection, request and goodput tests are not imported [import.csit]",
        "u.json: result.pdr.upper.bandwidth.value: a bandwidth in bits per second cannot be negative: -3 [import.csit]",
        "u.json: result.latency_forward.pdr_10.unit: expected us, found 'ns' [import.csit]"]
    doc = json.loads((REAL / "dpdk_64b-1c-ethip4-ip4base-l3fwd-mrr.info.json").read_bytes())
    doc["result"]["receive_rate"]["rate"]["values"][4] = "N/A"
    assert [str(p) for p in describe(json.dumps(doc).encode(), "m.json").problems] == [
        "m.json: result.receive_rate.rate.values[4]: expected a receive rate in packets per second, found 'N/A' [import.csit]"]
    doc["result"]["receive_rate"]["rate"]["values"][4] = 36440153.81316532
    doc["result"]["receive_rate"]["rate"]["avg"] = 36.0
    assert [str(p) for p in describe(json.dumps(doc).encode(), "a.json").problems] == [
        "a.json: result.receive_rate.rate.avg: the average 36 pps is not the mean of the 10 trials (3.64177e+07 pps) [import.csit]"]


def test_bandwidth_that_is_not_the_frames_layer_1_rate_is_left_out():
    """CSIT adds the DUT-DUT encapsulation overhead to the bandwidth of some suites: that figure is
    not the layer-1 rate of the tagged frame size, so only the frame rate is published."""
    doc = json.loads((REAL / "dpdk_64b-1c-ethip4-ip4base-l3fwd-soak.info.json").read_bytes())
    doc["tags"] = ["114B" if t == "64B" else t for t in doc["tags"]]
    rows, problems, _ = convert(json.dumps(doc).encode(), "o.json", {"frame_size": 114}, _Test("t"))
    assert _by(rows) == {("critical-rate", None, None): {"throughput": "36272616.90034725", "throughput_upper": "36275676.6487605"}}
    assert [p.severity for p in problems] == ["warning", "warning"] and "84.00 bytes a frame on the wire, not the 114-byte frame" in problems[0].message


def test_latency_rounded_to_zero_is_below_half_a_microsecond_and_a_zero_max_is_no_latency():
    """CSIT writes int(round(µs)): a min of 0 beside a real max is '<0.5', a max of 0 the generator's
    failure to measure (CSIT's schema): that latency, histogram too, is left out, never published as 0."""
    doc = json.loads((REAL / "trex_64b-eth-l2bdscale1mmaclrn-tg-ndrpdr.info.json").read_bytes())
    doc["result"]["latency_forward"]["pdr_10"]["min"] = 0
    doc["result"]["latency_reverse"]["pdr_0"].update(min=0, avg=0, max=0)
    rows, problems, _ = convert(json.dumps(doc).encode(), "z.json", {"frame_size": 64}, _Test("t"))
    by = _by(checked(rows, problems, "z.json")[0])
    assert by[("pdr-10", "0->1", None)]["latency_min"] == "<0.5" and by[("pdr-10", "0->1", None)]["latency_max"] == "12"
    assert ("pdr-0", "1->0", None) not in by and ("pdr-0", "0->1", None) in by


def test_published_latency_spans():
    from wirespeed.importers.csit_rows import span

    assert span(26) == (26.0, 26.0) and span("<0.5") == (0.0, 0.5) and span("2048..2049") == (2048.0, 2049.0) and span(17.0) == (17.0, 17.0)
