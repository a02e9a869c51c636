"""`wirespeed import auto` on every real tool output in tests/real/: the importer it picks, from the
content alone. The table below has one row per file (a test fails when a file is added without
one), so it grows with the corpus: a new real file gets its row, a new importer turns its pending
rows into checked ones.

A row is (path under tests/real/, expected format, pending): expected None means the file holds no
results (a schema, a header without rows, a suite summary) and `import auto` must refuse it in one
line; `pending` names what is not built yet, and the row is an expected failure that must start to
fail (strict) as soon as it passes, so that the row is then made a checked one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from wirespeed.importers import importers
from wirespeed.importers.importing import detect, read_native, unpacked

REAL = ROOT / "tests" / "real"

TABLE: list[tuple[str, str | None, str | None]] = [
    ("fdio-csit/64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz", "csit", None),
    ("fdio-csit/imix-4c-ethip4-ip4scale100k-frouter-mrr.info.json.gz", "csit", None),
    ("fdio-csit/dpdk_64b-1c-ethip4-ip4base-l3fwd-mrr.info.json", "csit", None),
    ("fdio-csit/dpdk_64b-1c-ethip4-ip4base-l3fwd-ndrpdr.info.json", "csit", None),
    ("fdio-csit/dpdk_64b-1c-ethip4-ip4base-l3fwd-soak.info.json", "csit", None),
    ("fdio-csit/trex_64b-eth-l2bdscale1mmaclrn-tg-ndrpdr.info.json", "csit", None),
    ("fdio-csit/uti-0.2.0_storage_test_mrr.info.json", "csit", None),
    ("fdio-csit/uti-draft-0.1.0_2101-3n-hsw.63_64b-1t1c-eth-l2patch-mrr.json", "csit", None),
    ("fdio-csit/uti-draft-0.1.0_2101-3n-hsw.64_64b-1t1c-eth-l2patch-ndrpdr.json", "csit", None),
    ("fdio-csit/glue_ndrpdr_2021-12-06_part-00000.snappy.parquet", "csit", None),
    ("fdio-csit/robot_output2_2n-10ge2p1x710-vhost-ndrpdr.xml", "csit", None),  # a failed test: csit refuses it with its reason
    ("fdio-csit/glue_mrr_2021-12-06_part-00000.snappy.parquet", "csit", None),
    ("fdio-csit/glue_soak_2021-12-06_part-00000.snappy.parquet", "csit", None),
    ("fdio-csit/uti-draft-0.1.0_2101-2n-skx.68_64b-2t1c-ethip4-ip4base-soak.json", "csit", None),
    ("fdio-csit/uti-draft-0.1.0-flat_78b-1c-ethip6-ip6base-ndrpdr.json", "csit", None),
    ("fdio-csit/uti-draft-0.1.0-flat_64b-1c-eth-l2patch-mrr.json", "csit", None),
    ("fdio-csit/uti-draft-0.1.0-flat_64b-1c-ethip4-ip4base-soak.json", "csit", None),
    ("fdio-csit/uti-draft-0.1.0-nested_64b-8t4c-ethip4-ip4base-ndrpdr.json", "csit", None),
    ("fdio-csit/uti-draft-0.1.0-nested_64b-4t4c-eth-l2patch-mrr.json", "csit", None),
    ("fdio-csit/uti-draft-0.1.0_2101-3n-hsw.65_64b-4t4c-ipsec-reconf.json", "csit", None),  # a reconf test: csit says it imports no reconf
    ("fdio-csit/uti-draft-0.1.0-flat_64b-2c-nat44ed-cps-ndrpdr.json", "csit", None),  # connections per second: csit says it imports pps
    ("fdio-csit/uti-1.0.0_devicetest.example.json", "csit", None),  # a device test: csit says it has no performance result
    ("fdio-csit/dpdk_l3fwd-ndrpdr_suite.info.json", None, None),  # the suite's summary: no test result
    ("fdio-csit/parquet_metadata_trending_mrr.parquet", None, None),  # a Parquet footer: schema, no rows
    ("fdio-csit/parquet_metadata_trending_ndrpdr.parquet", None, None),
    ("fdio-csit/spark_schema_trending_mrr.json", None, None),  # Spark schemas
    ("fdio-csit/spark_schema_trending_ndrpdr.json", None, None),
    ("fdio-csit/uti_test_case.schema.yaml", None, None),  # the UTI JSON Schema
    ("iperf3/ekfoury_iperf3.6_tcp_P4_60s_mininet.json", "iperf3", None),
    ("iperf3/yardstick_iperf3.0.7_iperf3_sample_output.json", "iperf3", None),
    ("iperf3/yardstick_iperf3.0.7_iperf3_sample_output_udp.json", "iperf3", None),
    ("ixia-ixnetwork/jundong_traffic_results.csv", "ixnetwork", None),
    ("ixia-ixnetwork/sonicpins_ixnetwork_rest_traffic_item_stats_view9_data.json", "ixnetwork", None),
    ("k8s-netperf/loss-rt-result-1739968774.csv", None, None),  # the header alone
    ("k8s-netperf/loss-rt-result-1766863308.csv", "k8s-netperf", None),
    ("k8s-netperf/result-1739968774.csv", "k8s-netperf", None),
    ("k8s-netperf/result-1768505168.csv", "k8s-netperf", None),
    ("k8s-netperf/vswitch-result-1739968774.csv", "k8s-netperf", None),
    ("netperf/netperf-texi_L1654_tcp_stream.txt", "netperf", None),
    ("netperf/netperf-texi_L1690_tcp_maerts.txt", "netperf", None),
    ("netperf/netperf-texi_L1739_tcp_sendfile.txt", None, None),  # the run stopped with an error: banner and message, no result
    ("netperf/netperf-texi_L1787_udp_stream.txt", "netperf", None),
    ("netperf/netperf-texi_L1808_udp_stream_send_error.txt", None, None),  # the run stopped with an error: banner and message, no result
    ("netperf/netperf-texi_L1819_udp_stream_nothing_received.txt", "netperf", None),
    ("netperf/netperf-texi_L2224_tcp_rr.txt", "netperf", None),
    ("netperf/netperf-texi_L2344_udp_rr_cpu.txt", "netperf", None),
    ("netperf/netperf-texi_L3018_tcp_rr_burst_v2.txt", "netperf", None),
    ("netperf/netperf-texi_L3158_omni_keyval.txt", "netperf", None),
    ("netperf/netperf-texi_L3173_omni_csv.txt", "netperf", None),
    ("netperf/netperf-texi_L3187_omni_human.txt", None, None),  # omni -O: human-readable columns, refused in one line
    ("netperf/netperf-texi_L3312_tcp_rr_keyval.txt", "netperf", None),
    ("netperf/netperf-texi_L382_tcp_rr_histogram_v2.txt", "netperf", None),
    ("netperf/netperf-texi_L419_tcp_stream_D_interim_MBytes.txt", "netperf", None),
    ("flent/test-http.flent.gz", None, None),  # HTTP fetch times only: no series wirespeed reads
    ("flent/test-rrul-icmp.flent.gz", "flent", None),
    ("flent/test-rrul.flent.gz", "flent", None),
    ("flent/test-rrul_be-socket_stats.flent.gz", "flent", None),
    ("flent/test-tcp_1up_noping-cpu_stats.flent.gz", "flent", None),
    ("flent/test-tcp_nup.flent.gz", "flent", None),
    ("moongen/opennetvm_moongen_md_L146_quality-of-service-test.log", "moongen", None),
    ("nfvbench/amical_2022-04-25_nfvbench-latency-fs_64-fc_100k-rate_90pct.json", "nfvbench", None),
    ("nfvbench/amical_2022-04-25_nfvbench-throughput-fs_64-fc_128-rate_ndr-2.json", "nfvbench", None),
    ("nfvbench/amical_2022-04-25_nfvbench-throughput-fs_IMIX-fc_128-rate_ndr-2.json", "nfvbench", None),
    ("nfvbench/testapi_nfvbench_characterization_page1.json", "nfvbench", None),
    ("nfvbench/testapi_nfvbench_characterization_page2.json", "nfvbench", None),
    ("nfvbench/testapi_nfvbench_non-regression_page1.json", "nfvbench", None),
    ("pktgen-pcap/pktgen-20190203-135615-0.pcap", "pcap", None),
    ("spirent-testcenter/stc_DetailedStreamResults_Basic_Counters.txt", "spirent", None),
    ("spirent-testcenter/stc_StreamBlockResults_Advanced_Sequencing_1.txt", None, None),  # every count 0: read before traffic ran
    ("spirent-testcenter/stc_StreamBlockResults__Basic_Counters__1.txt", "spirent", None),
    ("spirent-testcenter/stc_TxStreamBlockResults.txt", "spirent", None),
    ("spirent-testcenter/stc_StreamBlockResults1.txt", "spirent", None),
    ("spirent-testcenter/stc_StreamBlockResults_Basic_Counters_1.txt", None, None),  # every count 0: read before traffic ran
    ("spirent-testcenter/stc_drv_result_.txt", None, None),  # every count 0
    ("spirent-testcenter/stc_drv_aggregate_streamblock.txt", "spirent", None),
    ("spirent-testcenter/stc_show_streamblock_results.txt", "spirent", None),
    ("trex-capture/basic_imix_golden.cap", "pcap", None),
    ("trex-capture/sim_astf-http_manual_commands_delay.pcap", "pcap", None),
    ("trex-capture/stl_vm_enable1_flow_stat-0-ex.erf", "pcap", "an ERF capture reader"),
    ("trex-loadtest-viz/index_generated_apu4_d12cce7.html", "trex-loadtest-viz", None),
    ("trex-pcap/flow_stats.pcap", "pcap", None),
    ("trex-pcap/flow_stats_latency.pcap", "pcap", None),
    ("trex-pcap/imix.pcap", "pcap", None),
    ("trex-pcap/udp_64B.pcap", "pcap", None),
]


def _params():
    for rel, fmt, pending in TABLE:
        marks = [pytest.mark.xfail(strict=True, reason=f"pending: {pending}")] if pending else []
        yield pytest.param(rel, fmt, id=rel, marks=marks)


def test_every_real_file_has_a_row():
    files = {p.relative_to(REAL).as_posix() for p in REAL.rglob("*") if p.is_file() and p.name != "SOURCES.md"}
    rows = [rel for rel, _f, _p in TABLE]
    assert len(rows) == len(set(rows))
    assert files == set(rows), f"without a row: {sorted(files - set(rows))}; a row without a file: {sorted(set(rows) - files)}"


@pytest.mark.parametrize("rel,fmt", _params())
def test_auto_picks_the_importer_from_the_content(rel, fmt):
    found = importers()
    raw, problems = read_native(REAL / rel)
    assert raw is not None and not problems, problems
    data, _compression, problems = unpacked(raw, rel)
    assert data is not None and not problems, problems
    chosen, problems = detect(data, Path(rel).name, rel, found)
    if fmt is None:  # no results in it: no importer may take it as a run, or its importer refuses it in one line
        if chosen is not None:
            plan = found[chosen].describe(data, rel)
            assert [p for p in plan.problems if p.severity == "error"] or not plan.tests, (chosen, plan.tests)
        else:
            assert len(problems) == 1 and problems[0].rule == "import.unknown-format"
        return
    assert fmt in found, f"no {fmt} importer"
    assert (chosen, problems) == (fmt, [])
