"""netperf and k8s-netperf: golden values read by hand from real outputs (tests/real/netperf: the
examples of netperf's own manual, doc/netperf.texi; tests/real/k8s-netperf: CSVs k8s-netperf wrote),
what each figure becomes (goodput, transactions/s, round-trip times; never a layer-1/2 rate), and
one-line refusals (no banner, an interrupted run, -O's columns, a header-only file)."""

from __future__ import annotations

from conftest import ROOT
from wirespeed.importers import k8s_netperf, netperf

REAL = ROOT / "tests" / "real"


class _Test:
    id = "t1"
    imixes: dict = {}


def _netperf(name: str, **spec):
    data = (REAL / "netperf" / name).read_bytes()
    return netperf.convert(data, name, {"test": "t1", **spec}, _Test())


def _cells(r) -> dict[str, tuple[str, str]]:
    return {m: (c.figure.text, c.unit.name) for m, c in r.cells.items()}


def _one(rows):
    (r,) = [r for r in rows if r.kind == "measurements"]
    return _cells(r)


def test_tcp_stream_and_maerts():
    rows, problems, _ = _netperf("netperf-texi_L1654_tcp_stream.txt")
    # " 32768  16384  16384    10.00      80.42" under "10^6bits/sec"
    assert problems == [] and _one(rows) == {"goodput": ("80.42", "mbps"), "duration": ("10.00", "s")}
    rows, problems, _ = _netperf("netperf-texi_L1690_tcp_maerts.txt")
    assert problems == [] and _one(rows) == {"goodput": ("81.14", "mbps"), "duration": ("10.03", "s")}
    assert all(not m.startswith(("throughput", "tx_l", "rx_l")) for r in rows for m in r.cells)  # payload, never L1/L2


def test_udp_stream_receiver_goodput_and_datagrams():
    # -m 32768: the sender's line "124928   32768   10.00      105672      0    2770.20", the receiver's
    # "135168           10.00      104844           2748.50": goodput is what arrived; 32768-byte datagrams
    # are not one frame each, so the message counts are not published as frames
    rows, problems, _ = _netperf("netperf-texi_L1787_udp_stream.txt")
    assert problems == [] and _one(rows) == {"goodput": ("2748.50", "mbps"), "duration": ("10.00", "s")}
    # the receiver measured nothing arriving: 0.00 is a measured 0, kept
    rows, problems, _ = _netperf("netperf-texi_L1819_udp_stream_nothing_received.txt")
    assert problems == [] and _one(rows) == {"goodput": ("0.00", "mbps"), "duration": ("10.00", "s")}


def test_request_response_rates():
    rows, _, _ = _netperf("netperf-texi_L2224_tcp_rr.txt")  # "16384  87380  1        1       10.00    29150.15"
    assert _one(rows) == {"transaction_rate": ("29150.15", "tps"), "duration": ("10.00", "s")}
    rows, _, _ = _netperf("netperf-texi_L2344_udp_rr_cpu.txt")  # with -c -C: the CPU columns are the hosts', not read
    assert _one(rows) == {"transaction_rate": ("15262.48", "tps"), "duration": ("10.01", "s")}
    rows, _, _ = _netperf("netperf-texi_L382_tcp_rr_histogram_v2.txt")
    assert _one(rows) == {"transaction_rate": ("3538.82", "tps"), "duration": ("10.00", "s")}
    # -f m -v 2 -- -b 6: the main line prints 10^6bits/sec; the -v 2 line gives 2015.402 µs round trip
    # and 3473.252 transactions/s
    rows, _, _ = _netperf("netperf-texi_L3018_tcp_rr_burst_v2.txt")
    assert _one(rows) == {"transaction_rate": ("3473.252", "tps"), "rtt_avg": ("2015.402", "us"), "duration": ("10.00", "s")}


def test_interim_results_become_samples():
    # -D 1.35 -f M: "Interim result:    5.41 MBytes/s over 1.35 seconds ending at 1308789765.848", …
    rows, problems, _ = _netperf("netperf-texi_L419_tcp_stream_D_interim_MBytes.txt")
    samples = [r for r in rows if r.kind == "samples"]
    assert problems == [] and len(samples) == 7
    assert [s.keys["t_s"].text for s in samples[:3]] == ["0.000", "1.348", "2.708"]  # 1308789767.206 − 1.36 − 1308789764.498
    assert _cells(samples[0]) == {"goodput": ("45382369.28", "bps")}  # 5.41 × 1024 × 1024 × 8 (netperf's M is 2^20 bytes)
    assert _one(rows) == {"goodput": ("149401108.48", "bps"), "duration": ("10.06", "s")}  # 17.81 MBytes/sec


def test_omni_selectors():
    rows, _, _ = _netperf("netperf-texi_L3158_omni_keyval.txt")  # THROUGHPUT=59092.65, THROUGHPUT_UNITS=Trans/s
    assert _one(rows) == {"transaction_rate": ("59092.65", "tps")}
    rows, _, _ = _netperf("netperf-texi_L3173_omni_csv.txt")  # "Throughput,Throughput Units" / "60999.07,Trans/s"
    assert _one(rows) == {"transaction_rate": ("60999.07", "tps")}
    rows, _, _ = _netperf("netperf-texi_L3312_tcp_rr_keyval.txt")  # a migrated TCP_RR with -k
    assert _one(rows) == {"transaction_rate": ("60074.74", "tps")}
    text = ("OMNI Send TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to h (10.0.0.2) port 0 AF_INET\n"
            "THROUGHPUT=941.3\nTHROUGHPUT_UNITS=10^6bits/s\nELAPSED_TIME=10.00\nP99_LATENCY=40\n")
    rows, problems, _ = netperf.convert(text.encode(), "o.txt", {"test": "t1"}, _Test())
    assert problems == [] and _one(rows) == {"goodput": ("941.3", "mbps"), "duration": ("10.00", "s")}  # a stream's latency is no RTT


def test_refusals_are_one_line():
    rows, problems, _ = _netperf("netperf-texi_L1808_udp_stream_send_error.txt")  # "udp_send: data send error: Message too long"
    assert rows == [] and [str(p) for p in problems] == [
        "netperf-texi_L1808_udp_stream_send_error.txt:1: UDP_STREAM: no result line under the banner (an interrupted run?) [import.netperf]"]
    rows, problems, _ = _netperf("netperf-texi_L3187_omni_human.txt")
    assert rows == [] and "-O's human-readable columns are not read" in str(problems[0]) and len(problems) == 1
    problems = netperf.describe(b" 87380  16384  16384    10.00      80.42\n", "p0.txt").problems
    assert [str(p) for p in problems] == ["p0.txt: no netperf test banner ('… TEST from … to …'): expected netperf's output with its banner "
                                          "(the default -P 1; with -P 0 the test cannot be told) [import.netperf]"]


def test_several_tests_in_one_file():
    a = (REAL / "netperf" / "netperf-texi_L1654_tcp_stream.txt").read_bytes()
    b = (REAL / "netperf" / "netperf-texi_L2224_tcp_rr.txt").read_bytes()
    plan = netperf.describe(a + b, "both.txt")
    assert [(t.id, t.native) for t in plan.tests] == [("tcp-stream", [{"part": "test-1"}]), ("tcp-rr", [{"part": "test-2"}])]
    rows, problems, _ = netperf.convert(a + b, "both.txt", {"test": "t1", "part": "test-2"}, _Test())
    assert problems == [] and _one(rows)["transaction_rate"] == ("29150.15", "tps")


# --- k8s-netperf ----------------------------------------------------------------------------------

def _k8s(name: str):
    data = (REAL / "k8s-netperf" / name).read_bytes()
    plan = k8s_netperf.describe(data, name)
    out = {}
    for t in plan.tests:
        rows, problems, _ = k8s_netperf.convert(data, name, {"test": t.id, **t.native[0]}, _Test())
        assert problems == []
        out[t.id] = {(r.keys["variant"], r.keys.get("component")): _cells(r) for r in rows}
    return plan, out


def test_k8s_netperf_result_crr():
    plan, rows = _k8s("result-1739968774.csv")
    assert [t.id for t in plan.tests] == ["netperf-tcp-crr-1024b"]
    assert plan.tests[0].fields["methodology"] == {"search": "fixed-rate", "trials": 3, "trial_duration_s": 10}  # "# of Samples" 3, Duration 10
    # row 2: Service false, 698.866667 OP/s, 99%tile 1598.6666666666667 usec; row 3: Service true, 246.566667, 1709
    assert rows["netperf-tcp-crr-1024b"] == {
        ("across-nodes-pod-network", None): {"transaction_rate": ("698.866667", "tps"), "rtt_p99": ("1598.6666666666667", "us"), "duration": ("10", "s")},
        ("across-nodes-pod-network-service", None): {"transaction_rate": ("246.566667", "tps"), "rtt_p99": ("1709", "us"), "duration": ("10", "s")}}


def test_k8s_netperf_later_schema_stream_and_loss():
    # the later schema (External Server, UDN Info, Bridge Info): ib_write_bw UDP_STREAM 1013.650000 Mb/s,
    # latency 0 (not measured by a stream test: left out)
    plan, rows = _k8s("result-1768505168.csv")
    assert rows == {"ib-write-bw-udp-stream-1024b": {("same-node-host-network", None): {"goodput": ("1013.650000", "mbps"), "duration": ("5", "s")}}}
    plan, rows = _k8s("loss-rt-result-1766863308.csv")  # "UDP Percent Loss,…,0.000000"
    assert rows == {"ib-write-bw-udp-stream-1024b-loss-rt": {("across-nodes-host-network", None): {"loss": ("0.000000", "pct"), "duration": ("5", "s")}}}


def test_k8s_netperf_vswitch_cpu():
    plan, rows = _k8s("vswitch-result-1739968774.csv")
    got = rows["netperf-tcp-crr-1024b-vswitch"]
    assert got[("across-nodes-pod-network", "ovs-vswitchd on the client node")] == {"cpu_avg": ("0.683210", "pct"), "duration": ("10", "s")}
    assert got[("across-nodes-pod-network-service", "ovs-vswitchd on the server node")]["cpu_avg"] == ("0.572224", "pct")
    assert len(got) == 4  # Client and Server for both scenarios; the memory column is not imported


def test_k8s_netperf_header_only_is_refused():
    data = (REAL / "k8s-netperf" / "loss-rt-result-1739968774.csv").read_bytes()
    assert [str(p) for p in k8s_netperf.describe(data, "loss.csv").problems] == [
        "loss.csv: the header alone: the k8s-netperf loss-rt file holds no result [import.k8s-netperf]"]


def test_sniff_tells_them_apart():
    for name in ("result-1739968774.csv", "vswitch-result-1739968774.csv", "loss-rt-result-1739968774.csv"):
        data = (REAL / "k8s-netperf" / name).read_bytes()
        assert k8s_netperf.sniff(data, name) > 0 and netperf.sniff(data, name) == 0
    data = (REAL / "netperf" / "netperf-texi_L1654_tcp_stream.txt").read_bytes()
    assert netperf.sniff(data, "x") > 0 and k8s_netperf.sniff(data, "x") == 0
