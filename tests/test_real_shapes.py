"""What real tool outputs of several shapes publish (the session's build of every real file, tests/realbuild.py): a
results table of a test measured on ports (a few ports side by side as column groups, as NFVbench's run and its two
port directions; many ports as rows, a port a row, as a Spirent TestCenter stream-block view's 25 stream blocks, never
one column a port and metric transposed into a list of "Port … Minimum latency" lines); a throughput chart far below
line rate; the headline of a layer-4 tool's test."""

from __future__ import annotations

import json

import pytest

import realbuild
import realsets
from conftest import ROOT

pytestmark = pytest.mark.slow
REAL = ROOT / "tests" / "real"


def _table(w, file: str, table: str) -> dict:
    slug = realsets.slug_of(REAL / file)
    return json.loads((w / "build" / "analysis" / slug / "throughput" / "tables" / f"{table}.json").read_text(encoding="utf-8"))


def test_many_ports_are_rows_and_a_few_are_column_groups():
    w, _slugs, _refused, _chosen = realbuild.build()
    # stc_StreamBlockResults_Basic_Counters_1.txt: a row per stream block (25), its name in the Port column; the first
    # block's line: "3/6_ix2_asr9k2_be12_10g mpls_ipv4_2lab_ix2__ix13_14_udp", minimum latency 25.725 µs, 11,838,044 frames sent
    stc = _table(w, "spirent-testcenter/stc_StreamBlockResults_Basic_Counters_1.txt", "basic-counters-results")
    assert [c["key"] for c in stc["columns"]] == ["port", "latency_min", "latency_avg", "latency_max", "tx", "rx"]
    assert len(stc["rows"]) == 25 and len({r[0] for r in stc["rows"]}) == 25
    assert stc["rows"][0][:2] == ["3/6_ix2_asr9k2_be12_10g mpls_ipv4_2lab_ix2__ix13_14_udp", "25.725"] and stc["rows"][0][4] == "11,838,044"
    # NFVbench's fixed-rate run: the run's figures and each port direction's, side by side
    nfv = _table(w, "nfvbench/testapi_nfvbench_characterization_page1.json", "2022-03-29-pvp-100k-flows-fixed-rate-results")
    assert list(dict.fromkeys(c.get("group") for c in nfv["columns"] if c.get("group"))) == ["All ports", "Port 0->1", "Port 1->0"]
    assert "port" not in [c["key"] for c in nfv["columns"]]


def test_a_throughput_far_below_line_rate_is_drawn_in_frames_per_second_a_series_a_port():
    """index_generated_apu4_d12cce7.html (trex-loadtest-viz): small boxes at 0.2–5 % of 2 × 10G ports' line rate, each port
    direction measured on its own. The chart draws frames/s (in % of line rate every mark lay in the bottom twentieth),
    says the line rate is not drawn, draws a series a variant and port (not one line joining the two ports' figures), and
    prints each label whole."""
    w, _slugs, _refused, _chosen = realbuild.build()
    slug = realsets.slug_of(REAL / "trex-loadtest-viz" / "index_generated_apu4_d12cce7.html")
    spec = json.loads((w / "build" / "analysis" / slug / "throughput" / "charts" / "loadtest-ramp-throughput.vl.json").read_text(encoding="utf-8"))
    assert spec["title"]["subtitle"] == "Higher is better · line rate not drawn: all under 20 % of it"
    points = spec["data"]["values"]
    # the report's table: apu4-danos-64b at 64 bytes, port 0→1 1,200,000 pps and port 1→0 949,000 pps
    danos = {p["series"]: p["value"] for p in points if p["series"].startswith("apu4-danos-64b")}
    assert danos == {"apu4-danos-64b, port 0→1": 1_200_000, "apu4-danos-64b, port 1→0": 949_000}
    legend = spec["layer"][0]["encoding"]["color"]["legend"]
    assert legend["labelLimit"] >= len("apu4-vpp-3threads-2rx-2tx-64b, port 0→1") * 6.6


def test_a_layer_4_tool_s_result_is_its_headline():
    """A test of iperf or netperf measures no frame throughput: its headline card is its goodput or its transaction rate,
    the table's figure to four digits (the executive summary no longer says the report marks no headline figure)."""
    w, _slugs, _refused, _chosen = realbuild.build()

    def cards(file: str) -> list[tuple[str, str]]:
        data = json.loads((w / "build" / "hugo-data" / "wirespeed" / "sets" / f"{realsets.slug_of(REAL / file)}.json").read_text(encoding="utf-8"))
        return [(c["title"], c["text"]) for c in data["headlines"]]

    # end.sum_received.bits_per_second 17535714055.21963 (4 streams over 60 s)
    assert cards("iperf3/ekfoury_iperf3.6_tcp_P4_60s_mininet.json") == [("Goodput", "17.54\u00a0Gbit/s")]
    # netperf TCP_RR: "Trans. Rate per sec" 29150.15
    assert cards("netperf/netperf-texi_L2224_tcp_rr.txt") == [("Transaction rate", "29.15\u00a0ktransactions/s")]


def test_a_forwarding_rate_at_a_fixed_load_is_the_headline_with_its_trials():
    """CSIT's MRR: the rate the device forwarded, ten trials and their average, no throughput search. The card prints
    the average, named as the mean it is, and the trials' range and median, each to four digits; the table's summary row
    says "mean of 10"."""
    w, _slugs, _refused, _chosen = realbuild.build()
    slug = realsets.slug_of(REAL / "fdio-csit" / "64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz")
    data = json.loads((w / "build" / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json").read_text(encoding="utf-8"))
    # result.receive_rate.rate: avg 11680498.355091373 pps over 10 values from 11551181.95 to 11799251.71, median 11684283.22
    assert [(c["title"], c["text"]) for c in data["headlines"]] == [
        ("Forwarding rate", "11.68\u00a0Mframes/s · mean of 10 trials: 11.55 to 11.80 Mframes/s, median 11.68")]
    table = json.loads((w / "build" / "analysis" / slug / "throughput" / "tables" / f"{data['tests'][0]['id']}-results.json").read_text(encoding="utf-8"))
    assert table["rows"][0][:2] == ["64", "mean of 10"] and table["rows"][0][2] == "11,680,498"


def test_a_test_of_a_few_variants_has_a_card_for_each():
    """result-1739968774.csv (k8s-netperf): TCP_CRR across nodes, pod to pod and through a service: "Avg Throughput"
    698.866667 and 246.566667 OP/s, one card each, named by its variant."""
    from wirespeed.catalog.view import samples, set_summary
    from wirespeed.presentation.headlines import headlines
    import duckdb

    w, _slugs, _refused, _chosen = realbuild.build()
    slug = realsets.slug_of(REAL / "k8s-netperf" / "result-1739968774.csv")
    con = duckdb.connect(str(w / "build" / "wirespeed.duckdb"), read_only=True)
    try:
        cards = headlines(set_summary(con, slug), samples(con, slug))
    finally:
        con.close()
    assert [(c["title"], c["context"].rsplit(", ", 1)[-1], c["text"]) for c in cards] == [
        ("Transaction rate", "across-nodes-pod-network", "698.9\u00a0transactions/s"),
        ("Transaction rate", "across-nodes-pod-network-service", "246.6\u00a0transactions/s")]


def test_two_directions_of_one_run_are_two_rows_not_one_transposed_row():
    """iperf3-lib_3.21_udp-bidirectional-client.json: a UDP run both ways (--bidir). Each direction's figures are a row
    of the table, named in its Port column; side by side they made one row of thirteen columns, which the table printed
    as a list of 'Port client->server Goodput' lines."""
    w, _slugs, _refused, _chosen = realbuild.build()
    slug = realsets.slug_of(REAL / "iperf3" / "iperf3-lib_3.21_udp-bidirectional-client.json")
    table = json.loads((w / "build" / "analysis" / slug / "throughput" / "tables" / "udp-4m-bidir-results.json").read_text(encoding="utf-8"))
    assert [c["key"] for c in table["columns"]][:3] == ["port", "goodput", "interarrival_jitter"]
    # end.sum_received.bits_per_second 8001687.006353258, end.sum.jitter_ms 0.058592613230546244 (client->server);
    # end.sum_bidir_reverse.jitter_ms 0.028477405992488672 (server->client)
    assert [row[:3] for row in table["rows"]] == [["client->server", "8,001,687", "0.0585926"], ["server->client", "8,001,687", "0.0284774"]]
