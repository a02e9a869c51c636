"""NFVbench on real files (tests/real/nfvbench/, provenance in tests/real/SOURCES.md): the importer's
rows against values read by hand from each file (the JSON path of each is in the comment beside it),
the incident it was rebuilt for (an NDR run published at the rate NFVbench ASKED for, 200 % of line
rate), TestAPI pages of many runs, `warning` keys, empty histograms, NFVbench's IMIX, per-direction
rows, and one-line refusals that say what was found where."""

from __future__ import annotations

import json
import tomllib

import pytest

from conftest import ROOT
from importer_sets import import_and_validate
from wirespeed.engine.derive import context, derived
from wirespeed.importers import importers
from wirespeed.importers.importing import detect
from wirespeed.importers.nfvbench import IMPORTER, describe, import_nfvbench

REAL = ROOT / "tests" / "real" / "nfvbench"
NDR_64 = "amical_2022-04-25_nfvbench-throughput-fs_64-fc_128-rate_ndr-2.json"
NDR_IMIX = "amical_2022-04-25_nfvbench-throughput-fs_IMIX-fc_128-rate_ndr-2.json"
FIXED_64 = "amical_2022-04-25_nfvbench-latency-fs_64-fc_100k-rate_90pct.json"
NON_REGRESSION = "testapi_nfvbench_non-regression_page1.json"
CHAR_P1 = "testapi_nfvbench_characterization_page1.json"
CHAR_P2 = "testapi_nfvbench_characterization_page2.json"
ALL = [NDR_64, NDR_IMIX, FIXED_64, NON_REGRESSION, CHAR_P1, CHAR_P2]
IMIX = {"id": "imix", "profile": "simple-imix", "sizes": [64, 594, 1518], "weights": [7, 4, 1]}


class _Test:
    def __init__(self, id: str, imixes=("imix",)):
        self.id, self.imixes = id, {i: None for i in imixes}


def _data(name: str) -> bytes:
    return (REAL / name).read_bytes()


def _rows(data: bytes, name: str = "nfv.json", part: str = "", test: str = "t", imixes=("imix",)):
    return import_nfvbench(data, name, {"test": test, "part": part} if part else {"test": test}, _Test(test, imixes))


def _table(rows) -> dict[tuple, dict[str, str]]:
    """(frame size, variant or load, port) → {metric: the cell as printed, with ≥ for "at least"}."""
    out = {}
    for r in rows:
        k = r.keys
        key = (k["frame_size"], k.get("variant") or k["load_pct"].text, k.get("port"))
        assert key not in out
        out[key] = {m: ("≥" if c.figure.qualifier == "at-least" else "") + c.figure.text.lstrip(">=") for m, c in r.cells.items()}
    return out


def _plan_rows(name: str) -> dict[str, dict]:
    """Every test the file's plan declares → its fields and the table of its rows."""
    data = _data(name)
    plan = describe(data, name)
    assert not [p for p in plan.problems if p.severity == "error"], plan.problems
    out = {}
    for t in plan.tests:
        rows, problems, _n = _rows(data, name, t.native[0]["part"], t.id)
        assert problems == [], problems
        out[t.id] = {"fields": t.fields, "rows": _table(rows)}
    return out


# --- the incident ---------------------------------------------------------------------------------

def test_the_incident_ndr_run_is_published_at_the_rate_the_generator_sent(tmp_path):
    """Published before as "74.40 Mframes/s · 200.0 % of line rate · no loss": NFVbench ASKED for
    rate_pps 74404760 (rate_percent 200.0: 100 % per direction, added) and its generator sent
    167,012,327 frames in 10 s, 16.7 Mframes/s, with NFVbench's own warning that it fell short."""
    rows, problems, _n = _rows(_data(NDR_64))
    assert problems == []
    agg = next(r for r in rows if "port" not in r.keys)
    tp = agg.cells["throughput"]
    # …["64"].ndr.stats.total_tx_rate: 16701232 (= overall.tx_pkts 167012327 ÷ duration_sec 10.0, truncated)
    assert (tp.figure.text, tp.figure.qualifier) == (">=16701232", "at-least")
    assert float(tp.canonical.value) * 10.0 <= 167012327 < (float(tp.canonical.value) + 1) * 10.0
    assert "74404760" not in json.dumps({m: c.figure.text for r in rows for m, c in r.cells.items()})
    # the warning is carried into the test's notes, the frame size `warning` is not a frame size
    plan = describe(_data(NDR_64), NDR_64)
    notes = plan.tests[0].fields["notes"]
    assert "16,701,232 of 74,404,760 frames/s asked (22.4 %)" in notes and "at least" in notes
    assert {r.keys["frame_size"] for r in rows} == {64}
    assert [str(p) for p in plan.problems] == [
        f"{NDR_64}: benchmarks.network.service_chain.EXT.result.result.64.ndr.stats.warning: warning: NFVbench: the generator sent 16,701,232 of "
        "74,404,760 frames/s asked (22.4 %): the throughput is published as at least the rate sent [import.nfvbench]"]
    # through import, validate and load: the engine's share of line rate is 22.4 %, not 200 %
    src = tmp_path / NDR_64
    src.write_bytes(_data(NDR_64))
    _out, rs = import_and_validate(tmp_path, "nfvbench", [src], "ndr-incident")
    test = rs.tests["ext-128-flows-ndr"]
    assert test.meta["port_speed"] == "25G" and test.meta["ports"] == 2 and test.meta["direction"] == "bidirectional"  # config.intf_speed_used 25000000000.0
    row = next(r for r in rs.measurements() if "port" not in r.keys)
    figures = derived(row, context(rs, test, row))
    # 16,701,232 ÷ (2 × 25e9 ÷ (84 × 8)) = 16,701,232 ÷ 74,404,761.9 = 22.446 %
    assert figures["throughput_line_rate"][0].value == pytest.approx(22.4464, abs=1e-4)
    assert figures["throughput_line_rate"][0].hi == float("inf")  # "at least": no upper end


# --- golden files: bare results -----------------------------------------------------------------

def test_ndr_64_bytes_with_a_warning_and_an_empty_histogram():
    t = _plan_rows(NDR_64)
    assert list(t) == ["ext-128-flows-ndr"]
    assert t["ext-128-flows-ndr"]["rows"] == {
        # …result.result["64"].ndr: stats.total_tx_rate 16701232 (warned: ≥), duration_sec 10.0, stats.overall: tx_pkts 167012327,
        # rx_pkts 167012327, drop_percentage 0.0, min/avg/max_delay_usec 6 / 35.48017790327537 / 97; hdrh empty, lat_percentile "n/a"
        (64, "ndr", None): {"throughput": "≥16701232", "duration": "10.0", "tx": "167012327", "rx": "167012327", "loss": "0.0",
                            "latency_min": "6", "latency_avg": "35.48017790327537", "latency_max": "97"},
        # 0->1: stats["0"].tx_pkts 83760820, stats["1"].rx_pkts 83760820, stats["0"] delays 6 / 42 / 92 (port 0's latency stream)
        (64, "ndr", "0->1"): {"tx": "83760820", "rx": "83760820", "duration": "10.0", "latency_min": "6", "latency_avg": "42", "latency_max": "92"},
        # 1->0: stats["1"].tx_pkts 83251507, stats["0"].rx_pkts 83251507, stats["1"] delays 6 / 29 / 97
        (64, "ndr", "1->0"): {"tx": "83251507", "rx": "83251507", "duration": "10.0", "latency_min": "6", "latency_avg": "29", "latency_max": "97"},
    }


def test_ndr_imix_declares_nfvbench_s_mix():
    t = _plan_rows(NDR_IMIX)
    fields = t["ext-128-flows-ndr"]["fields"]
    # config.frame_sizes ["IMIX"], nfvbench_version 5.0.4.dev29; …["IMIX"].ndr.stats.theoretical_tx_rate_pps 16368398.079441292 =
    # 2 × 25e9 ÷ 8 ÷ (361.83 + 20): the 7:4:1 mix of 64, 594 and 1518 bytes
    assert fields["methodology"]["frame_sizes"] == ["imix"] and fields["methodology"]["imix"] == [IMIX]
    assert t["ext-128-flows-ndr"]["rows"] == {
        # …["IMIX"].ndr.stats: total_tx_rate 14161735 (warned), overall tx/rx_pkts 141617354, delays 7 / 338.5356628538618 / 626
        ("imix", "ndr", None): {"throughput": "≥14161735", "duration": "10.0", "tx": "141617354", "rx": "141617354", "loss": "0.0",
                                "latency_min": "7", "latency_avg": "338.5356628538618", "latency_max": "626"},
        # stats["0"].tx_pkts 70907706 → stats["1"].rx_pkts 70907706, stats["0"] delays 7 / 313 / 613
        ("imix", "ndr", "0->1"): {"tx": "70907706", "rx": "70907706", "duration": "10.0", "latency_min": "7", "latency_avg": "313", "latency_max": "613"},
        # stats["1"].tx_pkts 70709648 → stats["0"].rx_pkts 70709648, stats["1"] delays 7 / 364 / 626
        ("imix", "ndr", "1->0"): {"tx": "70709648", "rx": "70709648", "duration": "10.0", "latency_min": "7", "latency_avg": "364", "latency_max": "626"},
    }
    assert "14,161,735 of 16,368,398 frames/s asked (86.5 %)" in fields["notes"]


def test_fixed_rate_run_keeps_its_frames_rates_and_latency():
    t = _plan_rows(FIXED_64)
    fields = t["ext-100k-flows-fixed-rate"]["fields"]
    # run_config.direction-total.tx.rate_percent 40.4063724288: both directions added, so 20.2031862144 % of the aggregate line rate
    assert fields["methodology"]["offered_loads_pct"] == [20.2031862144] and fields["flows"] == 100000 and fields["rfc"] == ["vendor"]
    assert t["ext-100k-flows-fixed-rate"]["rows"] == {
        # run_config.direction-total.tx/rx.rate_pps 15032132.0 / 15032132.0; stats.overall.tx.total_pkts 150321326, rx.total_pkts 150321326,
        # drop_rate_percent 0.0, rx min/avg/max_delay_usec 5 / 17.00003010883499 / 41; config.duration_sec 10.0
        (64, "20.2031862144", None): {"tx_rate": "15032132.0", "rx_rate": "15032132.0", "tx": "150321326", "rx": "150321326", "duration": "10.0",
                                      "loss": "0.0", "latency_min": "5", "latency_avg": "17.00003010883499", "latency_max": "41"},
        # direction-forward tx/rx rate_pps 7515840; stats["0"].tx.total_pkts 75158400, stats["1"].rx.total_pkts 75158400; stats["0"].rx delays 5/18/41
        (64, "20.2031862144", "0->1"): {"tx": "75158400", "rx": "75158400", "duration": "10.0", "tx_rate": "7515840", "rx_rate": "7515840",
                                        "latency_min": "5", "latency_avg": "18", "latency_max": "41"},
        # direction-reverse tx/rx rate_pps 7516292; stats["1"].tx.total_pkts 75162926, stats["0"].rx.total_pkts 75162926; stats["1"].rx delays 5/16/40
        (64, "20.2031862144", "1->0"): {"tx": "75162926", "rx": "75162926", "duration": "10.0", "tx_rate": "7516292", "rx_rate": "7516292",
                                        "latency_min": "5", "latency_avg": "16", "latency_max": "40"},
    }


# --- golden files: TestAPI pages ------------------------------------------------------------------

def test_non_regression_page():
    t = _plan_rows(NON_REGRESSION)
    # results[0].details.results: throughput[0..3] NDR (64, 768, 1518, 9000 bytes) and latency[0..7] (the same sizes at two rates), PVP, 100k flows
    assert list(t) == ["pvp-100k-flows-ndr", "pvp-100k-flows-fixed-rate"]
    ndr, fixed = t["pvp-100k-flows-ndr"], t["pvp-100k-flows-fixed-rate"]
    assert len(ndr["rows"]) == 12 and len(fixed["rows"]) == 24
    assert ndr["fields"]["methodology"]["frame_sizes"] == [64, 768, 1518, 9000] and ndr["fields"]["methodology"]["max_frame_bytes"] == 9000
    assert "From the OPNFV TestAPI record of case non-regression on pod AMICAL started 2022-03-30 06:15:40." in ndr["fields"]["description"]
    # throughput[1] (768 bytes): ndr.stats.total_tx_rate 523406 (no warning), overall tx_pkts 5234063, rx_pkts 5234062,
    # drop_percentage 1.910561642074236e-05, delays 32 / 106.50022525526063 / 318
    assert ndr["rows"][(768, "ndr", None)] == {"throughput": "523406", "duration": "10.0", "tx": "5234063", "rx": "5234062", "loss": "1.910561642074236e-05",
                                               "latency_min": "32", "latency_avg": "106.50022525526063", "latency_max": "318"}
    # 0->1: stats["0"].tx_pkts 2616900 → stats["1"].rx_pkts 2616900; 1->0: stats["1"].tx_pkts 2617163 → stats["0"].rx_pkts 2617162 (the lost frame)
    assert (ndr["rows"][(768, "ndr", "0->1")]["tx"], ndr["rows"][(768, "ndr", "0->1")]["rx"]) == ("2616900", "2616900")
    assert (ndr["rows"][(768, "ndr", "1->0")]["tx"], ndr["rows"][(768, "ndr", "1->0")]["rx"]) == ("2617163", "2617162")
    # latency[0] (64 bytes, input rate "70%" of the last NDR): run_config.direction-total.tx.rate_percent 1.0828995072 → load 0.5414497536
    assert fixed["rows"][(64, "0.5414497536", None)] == {
        # direction-total tx/rx rate_pps 402864.0 / 402843.0; stats.overall tx.total_pkts 4028644, rx.total_pkts 4028440,
        # drop_rate_percent 0.005063738568113737, rx delays 31 / 76.99996475062306 / 5209
        "tx_rate": "402864.0", "rx_rate": "402843.0", "tx": "4028644", "rx": "4028440", "duration": "10.0", "loss": "0.005063738568113737",
        "latency_min": "31", "latency_avg": "76.99996475062306", "latency_max": "5209"}
    # 0->1: stats["0"].tx.total_pkts 2014322 → stats["1"].rx.total_pkts 2014291, direction-forward rates 201432 / 201429, stats["0"].rx delays 31/78/4057
    assert fixed["rows"][(64, "0.5414497536", "0->1")] == {"tx": "2014322", "rx": "2014291", "duration": "10.0", "tx_rate": "201432", "rx_rate": "201429",
                                                           "latency_min": "31", "latency_avg": "78", "latency_max": "4057"}
    # 1->0: stats["1"].tx.total_pkts 2014322 → stats["0"].rx.total_pkts 2014149, direction-reverse rates 201432 / 201414, stats["1"].rx delays 32/76/5209
    assert fixed["rows"][(64, "0.5414497536", "1->0")] == {"tx": "2014322", "rx": "2014149", "duration": "10.0", "tx_rate": "201432", "rx_rate": "201414",
                                                           "latency_min": "32", "latency_avg": "76", "latency_max": "5209"}


def test_characterization_page_2():
    t = _plan_rows(CHAR_P2)
    # one record (2022-03-03, PVP, user label amical_tc6_intensive): 30 NDR runs (10 sizes × 128, 10k, 100k flows), 8 fixed-rate runs
    assert list(t) == ["pvp-128-flows-ndr", "pvp-10k-flows-ndr", "pvp-100k-flows-ndr", "pvp-100k-flows-fixed-rate"]
    assert [len(x["rows"]) for x in t.values()] == [30, 30, 30, 24]
    assert t["pvp-128-flows-ndr"]["fields"]["methodology"]["frame_sizes"] == [64, 128, 256, 512, 768, 1024, 1280, 1518, 9000, "imix"]
    # throughput[0]: ndr.stats.total_tx_rate 216641, overall tx_pkts 2166416, delays 48 / 345.5001269377627 / 3395
    assert t["pvp-128-flows-ndr"]["rows"][(64, "ndr", None)] == {"throughput": "216641", "duration": "10.0", "tx": "2166416", "rx": "2166416", "loss": "0.0",
                                                                 "latency_min": "48", "latency_avg": "345.5001269377627", "latency_max": "3395"}
    # latency[7] (9000 bytes): direction-total.tx.rate_percent 39.684853824 → 19.842426912; tx_rate 137488.0, overall rx max_delay_usec 23660
    row = t["pvp-100k-flows-fixed-rate"]["rows"][(9000, "19.842426912", None)]
    assert (row["tx_rate"], row["tx"], row["latency_max"]) == ("137488.0", "1374891", "23660")


def test_characterization_page_1_two_records_and_the_bare_files_cut_from_it():
    t = _plan_rows(CHAR_P1)
    # results[0] started 2022-04-25 (EXT chain, amical_tc18_loopback), results[1] 2022-03-29 (PVP, amical_tc12_basic): tests named by date
    assert list(t) == ["2022-04-25-ext-128-flows-ndr", "2022-04-25-ext-10k-flows-ndr", "2022-04-25-ext-100k-flows-ndr", "2022-04-25-ext-100k-flows-fixed-rate",
                       "2022-03-29-pvp-128-flows-ndr", "2022-03-29-pvp-10k-flows-ndr", "2022-03-29-pvp-100k-flows-ndr", "2022-03-29-pvp-100k-flows-fixed-rate"]
    ext = t["2022-04-25-ext-128-flows-ndr"]["rows"]
    # results[0]…throughput[1] (128 bytes): total_tx_rate 18016784 of rate_pps 42229728 asked (warning): at least
    assert ext[(128, "ndr", None)]["throughput"] == "≥18016784"
    # results[0]…throughput[13] (512 bytes, 10k flows): total_tx_rate 11105755 of rate_pps 11748120 (94.5 %: no warning), but
    # load_percent_per_direction 100.0: the search's ceiling, so at least; throughput[14] (768 bytes) ended at 95.60546875 %: exact
    ext10k = t["2022-04-25-ext-10k-flows-ndr"]
    assert (ext10k["rows"][(512, "ndr", None)]["throughput"], ext10k["rows"][(768, "ndr", None)]["throughput"]) == ("≥11105755", "7537043")
    assert "ended at its ceiling, line rate in each direction, without losing more than the threshold at: 512 bytes (NDR);" in ext10k["fields"]["notes"]
    # results[1]…throughput[9] (9000 bytes, PVP, 128 flows): total_tx_rate 265611, no warning
    assert t["2022-03-29-pvp-128-flows-ndr"]["rows"][(9000, "ndr", None)]["throughput"] == "265611"
    # the three bare files are results[0]'s throughput[0], throughput[8] and latency[1] (tests/real/SOURCES.md): the same rows
    assert {k: v for k, v in ext.items() if k[0] == 64} == _plan_rows(NDR_64)["ext-128-flows-ndr"]["rows"]
    assert {k: v for k, v in ext.items() if k[0] == "imix"} == _plan_rows(NDR_IMIX)["ext-128-flows-ndr"]["rows"]
    fixed = t["2022-04-25-ext-100k-flows-fixed-rate"]["rows"]
    assert {k: v for k, v in fixed.items() if k[:2] == (64, "20.2031862144")} == _plan_rows(FIXED_64)["ext-100k-flows-fixed-rate"]["rows"]


@pytest.mark.parametrize("name", ALL)
def test_every_real_file_describes_and_converts_cleanly(name):
    """auto picks nfvbench; every run of every test gives rows; loss, percentiles and latency keep
    to physics (no percentile above the maximum, no more received than sent)."""
    data = _data(name)
    assert detect(data, name, name, importers()) == ("nfvbench", [])
    for test in _plan_rows(name).values():
        for key, cells in test["rows"].items():
            tx, rx = int(cells["tx"]), int(cells["rx"])
            assert rx <= tx, key
            assert "latency_p99" not in cells  # every histogram in these files is empty, every lat_percentile "n/a"
            lat = [float(cells[m]) for m in ("latency_min", "latency_avg", "latency_max") if m in cells]
            assert lat == sorted(lat) and lat and all(v > 0 for v in lat), key


def test_a_delay_of_0_is_not_measured_and_left_out():
    """results[0]…throughput[6] of characterization page 1 (1280 bytes, EXT, 128 flows): stats["1"] has
    min_delay_usec 8, avg_delay_usec 75 and max_delay_usec 0, a maximum T-Rex did not measure."""
    rows = _plan_rows(CHAR_P1)["2022-04-25-ext-128-flows-ndr"]["rows"]
    assert rows[(1280, "ndr", "1->0")] == {"tx": "22960853", "rx": "22960853", "duration": "10.0", "latency_min": "8", "latency_avg": "75"}
    # stats.overall max_delay_usec 114 (the larger of the two ports' 114 and 0)
    assert rows[(1280, "ndr", None)]["latency_max"] == "114"


@pytest.mark.parametrize("name", [FIXED_64, NON_REGRESSION, CHAR_P1, CHAR_P2])
def test_direction_latency_is_the_sender_s_as_nfvbench_labels_it(name):
    """NFVbench files the latency of the frames port p SENT under port p; its packet_path_stats say
    so by name (Forward = TRex.TX.p0 → TRex.RX.p1): every 0->1 row has the Forward chain's latency."""
    doc = json.loads(_data(name))
    runs = [r["output"]["result"] for rec in doc["results"] for r in rec["details"]["results"]["latency"]] if "results" in doc else [doc]
    forward = {}
    for result in runs:
        for fsr in next(iter(result["benchmarks"]["network"]["service_chain"].values()))["result"]["result"].values():
            chain = fsr["packet_path_stats"]["Forward"]["chains"]["0"]
            tx = fsr["stats"]["0"]["tx"]["total_pkts"]
            forward[tx] = (str(chain["lat_min_usec"]), str(chain["lat_avg_usec"]), str(chain["lat_max_usec"]))
    got = {}
    for test in _plan_rows(name).values():
        for key, cells in test["rows"].items():
            if key[2] == "0->1" and key[1] not in ("ndr", "pdr"):
                got[int(cells["tx"])] = (cells["latency_min"], cells["latency_avg"], cells["latency_max"])
    assert got and got == {k: v for k, v in forward.items() if k in got} and len(got) == len(forward)


# --- what the format allows beyond these files ------------------------------------------------------

def test_imix_is_declared_only_when_the_file_can_say_which():
    doc = json.loads(_data(NDR_IMIX))
    doc["nfvbench_version"] = "2.0.4"  # before NFVBENCH-108 the mix's first size followed the VLAN tagging
    plan = describe(json.dumps(doc).encode(), "old.json")
    assert "imix" not in plan.tests[0].fields["methodology"] and "tests.ext-128-flows-ndr.methodology.imix" in plan.unstated
    assert str(plan.problems[0]) == ("old.json: benchmarks.network.service_chain.EXT.result.result.IMIX: warning: NFVbench's IMIX is not declared: "
                                     "NFVbench 2.0.4 is older than 2.0.5, whose IMIX frame sizes it does not record [import.nfvbench]")
    assert [str(p) for p in _rows(json.dumps(doc).encode(), "old.json", imixes=())[1]] == [
        "old.json: benchmarks.network.service_chain.EXT.result.result.IMIX: frame size 'IMIX': NFVbench's IMIX is not declared in the test's "
        "methodology.imix (since NFVbench 2.0.5: 64, 594 and 1518-byte frames at 7:4:1, profile simple-imix) [import.nfvbench]"]
    doc = json.loads(_data(NDR_IMIX))
    doc["benchmarks"]["network"]["service_chain"]["EXT"]["result"]["result"]["IMIX"]["ndr"]["stats"]["theoretical_tx_rate_pps"] = 74404761.90476191
    plan = describe(json.dumps(doc).encode(), "odd.json")
    assert "imix" not in plan.tests[0].fields["methodology"]
    assert "implies an average IMIX frame of 64.000 bytes, not the 361.833 of NFVbench's 7:4:1 mix" in str(plan.problems[0])


def test_percentiles_come_from_nfvbench_when_its_histogram_had_samples():
    """NFVbench writes lat_percentile numbers (config.lat_percentiles, e.g. 25, 75, 99) when T-Rex's
    histogram had samples; 99 maps to latency_p99, 25 and 75 have no column."""
    doc = json.loads(_data(NDR_64))
    overall = doc["benchmarks"]["network"]["service_chain"]["EXT"]["result"]["result"]["64"]["ndr"]["stats"]["overall"]
    overall["lat_percentile"] = {"25": 30, "75": 41, "99": 88}
    rows, problems, _ = _rows(json.dumps(doc).encode())
    agg = next(r for r in rows if "port" not in r.keys)
    assert problems == [] and agg.cells["latency_p99"].figure.text == "88" and "latency_p50" not in agg.cells
    overall["hdrh"] = "HISTFAAAAbroken"
    assert [str(p) for p in _rows(json.dumps(doc).encode(), "h.json")[1]][0].startswith(
        "h.json: benchmarks.network.service_chain.EXT.result.result.64.ndr.stats.overall.hdrh: not a decodable HDR histogram (")


def test_no_latency_stream_means_no_latency_not_zero():
    doc = json.loads(_data(NDR_64))
    stats = doc["benchmarks"]["network"]["service_chain"]["EXT"]["result"]["result"]["64"]["ndr"]["stats"]
    for p in ("overall", "0", "1"):
        stats[p].update(min_delay_usec=0, avg_delay_usec=0, max_delay_usec=0)  # what NFVbench writes without latency streams
    rows, problems, _ = _rows(json.dumps(doc).encode())
    assert problems == [] and all(not m.startswith("latency") for r in rows for m in r.cells)


def test_a_search_that_found_nothing_and_a_failed_run_are_said_not_dropped():
    doc = json.loads(_data(NON_REGRESSION))
    runs = doc["results"][0]["details"]["results"]
    ndr = runs["throughput"][0]["output"]["result"]["benchmarks"]["network"]["service_chain"]["PVP"]["result"]["result"]["64"]["ndr"]
    ndr.update(rate_pps=0, rate_bps=0, rate_percent=0, load_percent_per_direction=0)  # NFVbench's "not found": rates and stats of 0
    for p in ("overall", "0", "1"):
        ndr["stats"][p] = {k: 0 for k in ndr["stats"][p]}
    runs["latency"][3]["output"] = {"status": "ERROR", "error_message": "TRex failed to start"}
    data = json.dumps(doc).encode()
    plan = describe(data, "p.json")
    assert [str(p) for p in plan.problems if "found no" in p.message or "failed" in p.message] == [
        "p.json: results[0].details.results.throughput[0].output.result.benchmarks.network.service_chain.PVP.result.result.64.ndr: warning: NFVbench "
        "found no NDR: every load it tried lost more than 0.001 % (it writes rates of 0); no row [import.nfvbench]",
        "p.json: warning: NFVbench TestAPI page with 12 runs: run 4 (results[0].details.results.latency[3]: frame_sizes ['768'], flow_count 100k, "
        "rate 90%) failed with status ERROR (TRex failed to start) and holds no result. [import.nfvbench]"]
    assert "run 4 (results[0].details.results.latency[3]" in plan.methodology["notes"]
    ndr_test = next(t for t in plan.tests if t.id == "pvp-100k-flows-ndr")
    assert "at: 64 bytes NDR; these have no row" in ndr_test.fields["notes"]
    rows, problems, _ = _rows(data, "p.json", ndr_test.native[0]["part"], ndr_test.id)
    assert problems == [] and {r.keys["frame_size"] for r in rows} == {768, 1518, 9000}


def test_refusals_say_what_was_found_where():
    doc = json.loads(_data(NON_REGRESSION))
    del doc["results"][0]["details"]["results"]["throughput"][2]["output"]["result"]["benchmarks"]["network"]["service_chain"]
    assert [str(p) for p in describe(json.dumps(doc).encode(), "n.json").problems if p.severity == "error"] == [
        "n.json: results[0].details.results.throughput[2].output.result.benchmarks.network.service_chain: NFVbench TestAPI page with 12 runs: "
        "run 11 has no service chain results: expected benchmarks.network.service_chain.<chain>.result.result [import.nfvbench]"]
    iperf = (ROOT / "docs" / "importers" / "examples" / "iperf3" / "udp.json").read_bytes()
    assert [str(p) for p in _rows(iperf, "i.json")[1]] == [
        "i.json: expected NFVbench results: a result {date, nfvbench_version, config, benchmarks.network.service_chain}, a TestAPI record "
        "{project_name, details.results} or a TestAPI page {pagination, results: [record, …]}; found a JSON object with start, intervals, end [import.nfvbench]"]
    assert [str(p) for p in _rows(_data(NDR_64)[:5000], "cut.json")[1]][0].startswith("cut.json:") and len(_rows(_data(NDR_64)[:5000])[1]) == 1
    assert [str(p) for p in _rows(_data(NDR_64), "n.json", "PVP chain, 128 flows, bidirectional, NDR/PDR search")[1]] == [
        "n.json: part: no NFVbench runs of 'PVP chain, 128 flows, bidirectional, NDR/PDR search'; the file has: EXT chain, 128 flows, bidirectional, "
        "NDR/PDR search [import.nfvbench]"]
    assert "the file holds 2 tests: name one with part" in str(_rows(_data(NON_REGRESSION), "p.json")[1][0])
    doc = json.loads(_data(NDR_64))
    sizes = doc["benchmarks"]["network"]["service_chain"]["EXT"]["result"]["result"]
    sizes["jumbo"] = sizes["64"]
    assert [str(p) for p in _rows(json.dumps(doc).encode(), "j.json")[1]] == [
        "j.json: benchmarks.network.service_chain.EXT.result.result.jumbo: frame size 'jumbo': expected a number of bytes or IMIX [import.nfvbench]"]


def test_a_result_from_the_nfvbench_server_and_a_record_without_a_page():
    result = json.loads(_data(NDR_64))
    server = json.dumps({"status": "OK", "result": result}).encode()  # docs/user/server.rst: GET /status when the run completes
    rows, problems, _ = _rows(server)
    assert problems == [] and len(rows) == 3
    record = json.loads(_data(NON_REGRESSION))["results"][0]
    plan = describe(json.dumps(record).encode(), "r.json")
    assert [t.native[0]["part"] for t in plan.tests] == ["PVP chain, 100000 flows, bidirectional, NDR/PDR search", "PVP chain, 100000 flows, bidirectional, fixed rate"]


def test_examples_are_cut_from_the_real_files():
    """docs/importers/examples/nfvbench/: the bare 64-byte NDR run as it is, and a TestAPI page cut
    from characterization page 1 (record 0 with its IMIX NDR run and its 64-byte 90 % run)."""
    ex = ROOT / "docs" / "importers" / "examples" / "nfvbench"
    assert (ex / "ndr-64b-generator-short.json").read_bytes() == _data(NDR_64)
    cut, page = json.loads((ex / "testapi-page-cut.json").read_bytes()), json.loads(_data(CHAR_P1))
    runs, source = cut["results"][0]["details"]["results"], page["results"][0]["details"]["results"]
    assert runs == {"throughput": [source["throughput"][8]], "latency": [source["latency"][1]]}
    assert {k: v for k, v in cut["results"][0].items() if k != "details"} == {k: v for k, v in page["results"][0].items() if k != "details"}
    assert [t.id for t in describe((ex / "testapi-page-cut.json").read_bytes(), "x").tests] == ["ext-128-flows-ndr", "ext-100k-flows-fixed-rate"]


def test_sniff():
    for name in ALL:
        assert IMPORTER.sniff(_data(name)[:65536], name) > 0, name
    assert IMPORTER.sniff((ROOT / "docs" / "importers" / "examples" / "iperf3" / "udp.json").read_bytes(), "x.json") == 0


def test_a_page_is_one_native_file_declared_once_per_test(tmp_path):
    """The page is kept once under native/ and declared once per test, each entry with its part;
    loading reads it for each. The same entry twice is still a path declared twice."""
    from conftest import run_cli

    src = tmp_path / CHAR_P2
    src.write_bytes(_data(CHAR_P2))
    _out, rs = import_and_validate(tmp_path, "nfvbench", [src], "characterization")
    folder = tmp_path / "results" / "characterization"
    natives = tomllib.loads((folder / "result.toml").read_text())["files"]["native"]
    assert [(n["path"], n["test"]) for n in natives] == [(f"native/{CHAR_P2}", t) for t in
                                                         ("pvp-128-flows-ndr", "pvp-10k-flows-ndr", "pvp-100k-flows-ndr", "pvp-100k-flows-fixed-rate")]
    assert [n["part"] for n in natives][0] == "results[0]: PVP chain, 128 flows, bidirectional, NDR/PDR search"
    assert len(rs.measurements()) == 114 and [sum(r.test == n["test"] for r in rs.rows) for n in natives] == [30, 30, 30, 24]
    text = (folder / "result.toml").read_text()
    line = next(ln for ln in text.splitlines() if "pvp-10k-flows-ndr" in ln and "native/" in ln)
    (folder / "result.toml").write_text(text.replace(line, f"{line}\n{line}"))
    check = run_cli("validate", str(folder), cwd=tmp_path)
    assert check.returncode == 1 and "files.native[2]: the same entry as files.native[1] ('native/testapi_nfvbench_characterization_page2.json', " \
                                      "test 'pvp-10k-flows-ndr'): its rows would be read twice [layout.duplicate-path]" in check.stdout


def test_a_unidirectional_run_is_one_row_of_its_one_direction():
    """No real unidirectional NFVbench file was found: these are the real 64-byte runs with the chain's
    `bidirectional` flag turned off, to hold the rule: one row, port 0's frames to port 1, port 0's
    latency, the load of direction-forward (NFVbench's `overall` is port 0's own counters there)."""
    doc = json.loads(_data(NDR_64))
    chain = doc["benchmarks"]["network"]["service_chain"]["EXT"]["result"]
    chain["bidirectional"] = False
    rows, problems, _ = _rows(json.dumps(doc).encode())
    # stats["0"].tx_pkts 83760820 ÷ duration_sec 10.0; stats["1"].rx_pkts 83760820; stats["0"] delays 6 / 42 / 92
    assert problems == [] and _table(rows) == {(64, "ndr", None): {"throughput": "≥8376082.0", "duration": "10.0", "tx": "83760820", "rx": "83760820",
                                                                  "latency_min": "6", "latency_avg": "42", "latency_max": "92"}}
    assert describe(json.dumps(doc).encode(), "u.json").tests[0].id == "ext-128-flows-unidirectional-ndr"
    doc = json.loads(_data(FIXED_64))
    doc["benchmarks"]["network"]["service_chain"]["EXT"]["result"]["bidirectional"] = False
    rows, problems, _ = _rows(json.dumps(doc).encode())
    # run_config.direction-forward.tx.rate_percent 20.20257792, tx/rx rate_pps 7515840; stats["0"].tx.total_pkts 75158400 → stats["1"].rx 75158400
    assert problems == [] and _table(rows) == {(64, "20.20257792", None): {"tx": "75158400", "rx": "75158400", "duration": "10.0", "tx_rate": "7515840",
                                                                          "rx_rate": "7515840", "latency_min": "5", "latency_avg": "18", "latency_max": "41"}}


def test_files_of_one_test_unite_their_notes(tmp_path):
    """The 64-byte and the IMIX NDR runs are one test (EXT, 128 flows): imported together, the test keeps
    both warnings and both frame sizes, and NFVbench's IMIX."""
    files = []
    for name in (NDR_64, NDR_IMIX):
        (tmp_path / name).write_bytes(_data(name))
        files.append(tmp_path / name)
    _out, rs = import_and_validate(tmp_path, "nfvbench", files, "ext-ndr")
    test = rs.tests["ext-128-flows-ndr"]
    assert test.methodology["frame_sizes"] == [64, "imix"] and list(test.imixes) == ["imix"]
    assert "NFVbench warned at 64 bytes (NDR)" in test.meta["notes"] and "NFVbench warned at IMIX (NDR)" in test.meta["notes"]
    assert test.meta["notes"].count("NFVbench warns when") == 1
    assert len(rs.measurements()) == 6
