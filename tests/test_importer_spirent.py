"""Spirent TestCenter on real exports (tests/real/spirent-testcenter/, SOURCES.md): every row against
the values read from the file by hand (the comment names the line), what the views show but did not
measure left out with one warning line, files of zeros refused, bad input in one line."""

from __future__ import annotations

import pytest

from conftest import ROOT
from importer_sets import TEST_TOML, FakeTest, all_examples, import_and_validate, load_native
from wirespeed.importers import spirent

REAL = ROOT / "tests" / "real" / "spirent-testcenter"


def _read(name: str):
    rows, problems, n = spirent.IMPORTER((REAL / name).read_bytes(), name, {"test": "t1"}, FakeTest())
    assert not [p for p in problems if p.severity == "error"], problems
    return {r.keys["port"]: r for r in rows}, [p.message for p in problems], n


def _values(row) -> dict:
    return {m: c.figure.text + " " + c.unit.name for m, c in row.cells.items()}


def test_basic_counters_of_an_asr9k_mpls_lab():
    rows, warnings, n = _read("stc_StreamBlockResults__Basic_Counters__1.txt")
    assert n == 25 and len(rows) == 25
    # line 4: 3/6_ix2_asr9k2_be12_10g  4/3_ix13_asr9k3_be13  mpls_ipv4_2lab_ix2__ix13_14_udp  11838044  11838044  0 0 0 0  11838044  35.361  25.725  58.575
    assert _values(rows["3/6_ix2_asr9k2_be12_10g mpls_ipv4_2lab_ix2__ix13_14_udp"]) == {
        "tx": "11838044 frames", "rx": "11838044 frames", "latency_avg": "35.361 us", "latency_min": "25.725 us", "latency_max": "58.575 us"}
    # line 5: the IPv6 stream received nothing: Avg Latency N/A, Min and Max Latency 0 -> no latency at all
    assert _values(rows["3/6_ix2_asr9k2_be12_10g mpls_ipv6_2lab_ix2__ix13_14_udp"]) == {"tx": "11838630 frames", "rx": "0 frames"}
    # line 11: Rx Port Names "4/1_ix1_asr9k2_be11, 3/6_ix2_asr9k2_be12_10g"; 12925722 sent, 11439810 received
    assert _values(rows["4/3_ix13_asr9k3_be13 mpls_ipv4_ix13__ix1_2_udp"]) == {
        "tx": "12925722 frames", "rx": "11439810 frames", "latency_avg": "35.467 us", "latency_min": "26.558 us", "latency_max": "50.385 us"}
    # line 21: a Tx port name with a space in it ("3/6_ix2_asr9k2_ be12_10g"), kept as written
    assert _values(rows["3/6_ix2_asr9k2_ be12_10g mpls_ipv4_2lab_ix2__ix13_14_small"])["latency_max"] == "65.513 us"
    assert sum(1 for r in rows.values() if r.value("rx") == 0) == 8 and all(r.value("latency_avg") is None for r in rows.values() if r.value("rx") == 0)
    assert sum(1 for r in rows.values() if "latency_avg" in r.cells) == 17
    assert not any(m in r.cells for r in rows.values() for m in ("tx_rate", "rx_rate", "tx_l2", "rx_l2"))  # every rate 0: read after the stop
    assert warnings == [
        "rates of 0 beside frame counts above 0: not measured at that instant (read after the generator stopped, or not computed), left out (lines 4, 5, 6, 7, 8, 9, …)",
        "no latency nor jitter for a stream that received no frame: left out, never 0 (lines 5, 8, 10, 13, 15, 18, …)"]


def test_detailed_stream_results_with_misaligned_columns_and_bytes_labelled_bits():
    rows, warnings, _n = _read("stc_DetailedStreamResults_Basic_Counters.txt")
    assert set(rows) == {"Port //1/5 StreamBlock 1/65536", "Port //1/6", "Port //1/5 StreamBlock 3/131073"}
    # line 4, its 23 cells in the order of the 23 names: Tx Count 24343817, Rx Count 8881978, Tx L1 Rate 999999360,
    # Rx L1 Rate 356941376, Tx Rate 694444 fps, Rx Rate 253509.5 fps, Avg/Min/Max Latency 53918/49410/1295620 us
    assert _values(rows["Port //1/5 StreamBlock 1/65536"]) == {
        "tx": "24343817 frames", "rx": "8881978 frames", "tx_l1": "999999360 bps", "rx_l1": "356941376 bps", "tx_rate": "694444 fps",
        "rx_rate": "253509.5 fps", "latency_avg": "53918 us", "latency_min": "49410 us", "latency_max": "1295620 us"}
    # 999999360 bps / 694444 fps / 8 = 180 bytes a frame on the wire; "Tx Rate (bps)" 111111040 / 694444 / 8 = 20 bytes: not bits
    assert all("tx_l2" not in r.cells and "rx_l2" not in r.cells for r in rows.values())
    assert _values(rows["Port //1/6"])["rx"] == "22906610 frames"  # line 5
    assert warnings == [
        "'253509.5' is not a whole number of frames: not a count, not read",
        "a layer 2 bit rate that gives fewer than 60 or more than 16384 bytes a frame at the row's frame rate: not bits a second, left out "
        "(lines 4, 5, 6; line 4: 111111040 bps at 694444 fps is 20 bytes a frame)"]


def test_raw_rx_stream_block_results_of_ospf_streams():
    rows, warnings, n = _read("stc_StreamBlockResults1.txt")
    assert n == 6 and len(rows) == 6
    # line 3: AvgLatency 14.142, MinLatency 12.16, MaxLatency 31.53, RxFrameCount = TxFrameCount = 301727, TxPortName 1, AvgJitter 0
    assert _values(rows["Port 1 OSPF Version 2 Traffic From R02 to R01"]) == {
        "latency_avg": "14.142 us", "lost": "0 frames", "loss": "0 pct", "duplicate": "0 frames", "latency_max": "31.53 us",
        "latency_min": "12.16 us", "out_of_sequence": "0 frames", "rx": "301727 frames", "tx": "301727 frames"}
    assert _values(rows["Port 2"])["latency_max"] == "40.94 us"  # line 5: "OSPF GSR to R01", the only stream of port 2
    assert all("jitter_avg" not in r.cells for r in rows.values())  # AvgJitter 0 while latency spans 12.16 to 31.53 us
    assert warnings[1] == "a jitter of 0 beside latencies that vary: not measured (Spirent's jitter result mode), left out (lines 3, 4, 5, 6, 7, 8)"


def test_raw_rx_results_of_streams_that_received_nothing():
    rows, warnings, _n = _read("stc_show_streamblock_results.txt")
    # lines 3 to 6 (ISIS streams) counted nothing; lines 7 to 10 sent, and received nothing
    assert set(rows) == {"4:1 Test4_BGP_VPNv4_1_to_2", "4:3 Test4_BGP_VPNv4_2_to_1", "4:1 Test5_BGP_VPNv6_1_to_2", "4:3 Test5_BGP_VPNv6_2_to_1"}
    # line 7: TxFrameCount 198285617, TxFrameRate 13264546, TxBitRate 11672798464, RxFrameCount 0, DroppedFrameCount 0, AvgLatency N/A
    assert _values(rows["4:1 Test4_BGP_VPNv4_1_to_2"]) == {"rx": "0 frames", "tx_l2": "11672798464 bps", "tx": "198285617 frames", "tx_rate": "13264546 fps"}
    assert "streams that sent and received no frame: no measurement, left out (lines 3, 4, 5, 6)" in warnings
    assert any(w.startswith("no dropped, duplicate or reordered count for a stream that received no frame") for w in warnings)


def test_raw_tx_results_and_the_dynamic_result_view():
    rows, _w, _n = _read("stc_TxStreamBlockResults.txt")
    # Port 1 sends StreamBlocks 1 and 2 (lines 3, 4), port 2 one (line 5), port 3 three (lines 6 to 8)
    assert {p: r.value("tx") for p, r in rows.items()} == {
        "Port 1 StreamBlock 1": 3002759, "Port 1 StreamBlock 2": 3002752, "Port 2": 2996939,
        "Port 3 StreamBlock 1": 2952368, "Port 3 StreamBlock 2": 2952361, "Port 3 StreamBlock 3": 2952352}
    rows, warnings, _n = _read("stc_drv_aggregate_streamblock.txt")
    # line 2: stream1 1775830 1775830 0 0 343407 0 0 0.0 0.0 2434 2434 (the configured rate 343407 is not an achieved one)
    assert _values(rows["stream1"]) == {"tx": "1775830 frames", "rx": "1775830 frames", "lost": "0 frames", "duplicate": "0 frames"}
    assert rows["stream3"].value("rx") == 44740
    assert warnings[0] == "2 values beyond the 10 columns of the header are not read (lines 2, 3, 4)"


@pytest.mark.parametrize("name,streams", [("stc_StreamBlockResults_Advanced_Sequencing_1.txt", 8),
                                          ("stc_StreamBlockResults_Basic_Counters_1.txt", 8), ("stc_drv_result_.txt", 3),
                                          ("stc_my_custome_drv.txt", 4)])
def test_a_view_of_zeros_states_no_run_and_is_refused(name, streams):
    rows, problems, _n = spirent.IMPORTER((REAL / name).read_bytes(), name, {"test": "t1"}, FakeTest())
    assert rows == [] and [str(p) for p in problems] == [
        f"{name}: every stream sent and received 0 frames ({streams} streams): the view was read before traffic ran, and holds no result [import.spirent]"]


@pytest.mark.parametrize("name,view,why", [
    # "Port  Avg Interarrival Time (us) > 250  Avg Jitter (us) > 5 …": 32, 16 and 48 streams "Rx Sig Count equal zero"
    ("stc_StreamThresholdResults.txt", "Stream Threshold Results",
     "per port, how many streams passed each threshold (latency, jitter, drops), not the streams' figures"),
    # "Port  ComboTriggerCount … TotalFrameCount …": ports 2:1 to 2:6, e.g. 2:4 received 121256 frames (121254 with a signature)
    ("stc_show_analyzer_port_results.txt", "AnalyzerPortResults",
     "what each analyzer port received, all streams together and no frame sent, so neither a stream's loss nor its rate can be read"),
])
def test_views_without_a_streams_figures_are_refused_for_what_they_are(name, view, why):
    data = (REAL / name).read_bytes()
    assert spirent.sniff(data, name) > 0
    rows, problems, _n = spirent.IMPORTER(data, name, {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1
    assert str(problems[0]).startswith(f"{name}:1: a Spirent TestCenter {view} view: {why}; expected a Spirent TestCenter result view")


HEAD = "Tx Port Name,Rx Port Names,Stream Block,Tx Count (Frames),Rx Count (Frames),Avg Latency (us)\n"
TEXT = "Basic Counters\nTx Port Name  Stream Block  Tx Count (Frames)  Rx Count (Frames)  Min Latency (us)  Max Latency (us)\n" + "-" * 100 + "\n"


@pytest.mark.parametrize("text, expect", [
    ("Port,Frames\n1,2\n", "v.csv: no Spirent TestCenter header: found 'Port,Frames'; expected a Spirent TestCenter result view"),
    (HEAD + "//1/1,//1/2,SB1,100,abc,1.0\n", "v.csv:2: Rx Count (Frames): 'abc' is not a number"),
    (HEAD + "//1/1,//1/2,SB1,100,100,1.5 ms\n", "unit 'ms' in a column of us"),
    (HEAD + "//1/1,//1/2,SB1,100\n", "4 cells: expected 6"),
    (HEAD + "//1/1,//1/2,SB1,100,100,1\n//1/1,//1/2,SB1,100,100,1\n", "duplicated row"),
    (HEAD.replace("(us)", "(furlongs)") + "//1/1,//1/2,SB1,100,100,1\n", "unit 'furlongs' in the header: expected one of ms, ns, us"),
    (HEAD + "//1/1,\"//1/2,,//1/3\",SB1,100,100,1\n", "an empty name in the list of Rx ports"),
    (HEAD + "//1/1,//1/2,SB1,,N/A,\n", "no value in this row"),
    (HEAD + "//1/1,//1/2,SB1,100.5,100,1\n", "'100.5' is not a whole number of frames"),
    (HEAD, "no data rows"),
    (TEXT + "P1            S1            100                100                9.5               3.2\n", "v.csv:4: latency min 9.5, avg None, max 3.2 us: expected min ≤ avg ≤ max"),
    (TEXT + "P1  S1  100  100  1  2  3  4\n", "v.csv:4: 8 cells that do not line up under the 6 columns of the header"),
])
def test_bad_input_is_one_line(text, expect):
    rows, problems, _ = spirent.IMPORTER(text.encode(), "v.csv", {"test": "t1"}, FakeTest())
    errors = [p for p in problems if p.severity == "error"]
    assert rows == [] and len(errors) == 1, problems
    assert expect in str(errors[0]) and str(errors[0]).startswith("v.csv")


def test_an_ixnetwork_export_is_not_spirent():
    data = (ROOT / "tests" / "real" / "ixia-ixnetwork" / "jundong_traffic_results.csv").read_bytes()
    rows, problems, _ = spirent.IMPORTER(data, "f.csv", {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1 and "no Spirent TestCenter header" in str(problems[0])


def test_sniff_own_examples_and_not_the_others():
    for path in all_examples():
        assert (spirent.sniff(path.read_bytes()[:65536], path.name) > 0.5) == (path.parent.name == "spirent"), path


def test_loads_through_a_result_set(tmp_path):
    rs, problems = load_native(tmp_path, {"raw/basic.txt": (REAL / "stc_StreamBlockResults__Basic_Counters__1.txt").read_bytes(),
                                          "raw/rx.txt": (REAL / "stc_StreamBlockResults1.txt").read_bytes()},
                               '{path = "raw/basic.txt", importer = "spirent", test = "imported", frame_size = 128}, '
                               '{path = "raw/rx.txt", importer = "spirent", test = "imported", frame_size = 64}', TEST_TOML.format(extra=""))
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    mine = [r for r in rs.measurements() if r.test == "imported"]
    assert len(mine) == 31 and {r.keys["frame_size"] for r in mine} == {64, 128}
    ospf = next(r for r in mine if r.keys["port"] == "Port 3 OSPF R01 to R02")  # line 6 of the raw file
    assert ospf.value("latency_avg") == pytest.approx(17.606e-6) and ospf.value("rx") == 301680


def test_wirespeed_import_then_validate(tmp_path):
    files = [REAL / "stc_StreamBlockResults__Basic_Counters__1.txt", REAL / "stc_DetailedStreamResults_Basic_Counters.txt", REAL / "stc_StreamBlockResults1.txt",
             REAL / "stc_drv_aggregate_streamblock.txt", REAL / "stc_TxStreamBlockResults.txt"]
    out, rs = import_and_validate(tmp_path, "auto", files, "stc-2024")
    assert out.count("is spirent") == 5
    assert list(rs.tests) == ["basic-counters", "stream-results", "rx-stream-results", "dynamic-results", "tx-stream-results"]  # a test per view
    assert rs.tests["stream-results"].meta["title"] == "Spirent TestCenter Detailed Stream Results"
    detailed = {r.keys["port"]: r for r in rs.measurements() if r.test == "stream-results"}
    assert detailed["Port //1/5 StreamBlock 1/65536"].value("tx") == 24343817
