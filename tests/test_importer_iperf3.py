"""iperf3 --json: golden values read by hand from real files (tests/real/iperf3: iperf 3.0.7, 3.6,
3.19.1, 3.21 and 3.22 from public repositories; docs/importers/examples/iperf3: iperf 3.12 loopback runs made on this
project's machine, client and server side, -R, --bidir, -P), the figures iperf3 did not measure left
out (never 0), runs in arrays and sequences, and one-line refusals of truncated and interrupted runs."""

from __future__ import annotations

import json

from conftest import ROOT
from wirespeed.importers.iperf3 import IMPORTER, describe, import_iperf3

EXAMPLES = ROOT / "docs" / "importers" / "examples" / "iperf3"
REAL = ROOT / "tests" / "real" / "iperf3"


class _Test:
    id = "t1"
    imixes: dict = {}


def _rows(data: bytes, name: str = "run.json", **spec):
    return import_iperf3(data, name, {"test": "t1", **spec}, _Test())


def _summary(rows, **keys) -> dict[str, str]:
    (r,) = [r for r in rows if r.kind == "measurements" and all(str(r.keys.get(k)) == v for k, v in keys.items())]
    return {m: c.figure.text for m, c in r.cells.items()}


def _samples(rows):
    return [r for r in rows if r.kind == "samples"]


# --- real public files ---------------------------------------------------------------------------

def test_iperf_3_6_tcp_four_streams():
    """ekfoury/iperf3_plotter sample/my_test.json: iperf 3.6, -P 4, 60 s, `start` with duplicate keys."""
    rows, problems, n = _rows((REAL / "ekfoury_iperf3.6_tcp_P4_60s_mininet.json").read_bytes())
    assert problems == [] and n == 61
    assert _summary(rows) == {
        "goodput": "17535714055.21963",  # end.sum_received.bits_per_second
        "retransmits": "2",  # end.sum_sent.retransmits
        "rtt_min": "19",  # the least of end.streams[].sender.min_rtt (19 in all four)
        "rtt_avg": "55.0",  # the mean of the four streams' mean_rtt: (60 + 55 + 54 + 51) / 4
        "rtt_max": "515",  # the largest max_rtt (515, 456, 472, 405)
        "cwnd": "8609808",  # the largest max_snd_cwnd (stream 2)
        "duration": "60.002227783203125",  # end.sum_sent.seconds
    }
    first = _samples(rows)[0]
    # intervals[0].sum: 16979382602.686094 bit/s, 0 retransmits; its four streams' rtt 45, 40, 39, 41 µs, snd_cwnd up to 7083616
    assert {m: c.figure.text for m, c in first.cells.items()} == {"goodput": "16979382602.686094", "retransmits": "0", "cwnd": "7083616", "rtt_avg": "41.25"}
    assert len(_samples(rows)) == 60


def test_iperf_3_0_7_tcp_one_line():
    """opnfv/yardstick iperf3_sample_output.json: iperf 3.0.7 re-serialised on one line; its stream
    sender block has no RTT or cwnd at all (the version did not report them)."""
    rows, problems, _ = _rows((REAL / "yardstick_iperf3.0.7_iperf3_sample_output.json").read_bytes())
    assert problems == []
    assert _summary(rows) == {"goodput": "154521000.0", "retransmits": "81", "duration": "10.0112"}
    assert [s.cells["cwnd"].figure.text for s in _samples(rows)][:2] == ["451776", "713864"]  # intervals[0..1].streams[0].snd_cwnd


def test_iperf_3_0_7_udp_end_sum_only():
    """yardstick iperf3_sample_output_udp.json: iperf 3.0.7 client, UDP, `end` holds only `sum`. Its
    datagrams are 8192 bytes (test_start.blksize): six fragments each, so their counts are not frames."""
    rows, problems, _ = _rows((REAL / "yardstick_iperf3.0.7_iperf3_sample_output_udp.json").read_bytes())
    assert problems == []
    # end.sum: bits_per_second 19804500.0, jitter_ms 0.0113579, seconds 10.0002 (packets 3022, lost 0: not frames)
    assert _summary(rows) == {"goodput": "19804500.0", "interarrival_jitter": "0.0113579", "duration": "10.0002"}
    first = _samples(rows)[0]  # intervals[0].sum: 18018400.0 bit/s sent; no datagram rate, loss or jitter
    assert {m: c.figure.text for m, c in first.cells.items()} == {"goodput": "18018400.0"}
    plan = describe((REAL / "yardstick_iperf3.0.7_iperf3_sample_output_udp.json").read_bytes(), "x")
    assert "8192-byte datagrams are not one frame each" in plan.tests[0].fields["description"]


def test_iperf_3_19_tcp_reverse_server_keeps_the_sending_side():
    """iperf3-lib native/3.19.1/tcp-reverse-server.json: the server's file of a -R run, -P 2: the server
    sent, so its RTT, cwnd and retransmits are measured; the client's receive figures are not in it
    (end.sum_received.bytes 0: iperf3's placeholder), so no goodput."""
    rows, problems, n = _rows((REAL / "iperf3-lib_3.19.1_tcp-reverse-server.json").read_bytes())
    assert problems == [] and n == 2
    assert _summary(rows) == {
        "retransmits": "0",  # end.sum_sent.retransmits
        "rtt_min": "38", "rtt_avg": "42.5", "rtt_max": "47",  # end.streams[].sender min/mean/max_rtt: 38, 38, 38 and 47, 47, 47
        "cwnd": "654830",  # end.streams[].sender.max_snd_cwnd (654830 in both)
        "duration": "1.000943",  # end.sum_sent.seconds
    }
    # intervals[0].sum: 8385982.821795221 bit/s sent, 0 retransmits; streams' rtt 38 and 47 µs, snd_cwnd 654830
    assert {m: c.figure.text for m, c in _samples(rows)[0].cells.items()} == {
        "goodput": "8385982.821795221", "retransmits": "0", "cwnd": "654830", "rtt_avg": "42.5"}


def test_iperf_3_19_sctp_has_no_retransmits_nor_rtt():
    """iperf3-lib native/3.19.1/sctp-reverse-server.json: iperf3 counts retransmits for TCP only (the
    intervals hold the uninitialised 3684054920433006592, end.sum_sent has none) and an SCTP RTT is
    SCTP_STATUS's smoothed RTT in whole ms (1 and 0 here), not TCP's µs: neither is published."""
    rows, problems, _ = _rows((REAL / "iperf3-lib_3.19.1_sctp-reverse-server.json").read_bytes())
    assert problems == []
    assert _summary(rows) == {"cwnd": "131064", "duration": "1.001182"}  # end.streams[].sender.max_snd_cwnd; end.sum_sent.seconds
    assert {m: c.figure.text for m, c in _samples(rows)[0].cells.items()} == {"goodput": "8379775.310083894", "cwnd": "131064"}


def test_iperf_3_21_udp_server_and_bidir_client():
    """iperf3-lib native/3.21: the server's file of a UDP run keeps what it received (end.sum_received:
    834 datagrams of 1200 bytes, 0 lost, 8002278.8264044 bit/s, jitter 0.021325017457362826 ms, end.streams
    out_of_order 0 and 0); sum_sent (all 0) is the client's, unknown here."""
    rows, problems, _ = _rows((REAL / "iperf3-lib_3.21_udp-server.json").read_bytes())
    assert problems == []
    assert _summary(rows) == {"rx": "834", "lost": "0", "goodput": "8002278.8264044", "interarrival_jitter": "0.021325017457362826",
                              "out_of_sequence": "0", "duration": "1.000515"}
    rows, problems, _ = _rows((REAL / "iperf3-lib_3.21_udp-bidirectional-client.json").read_bytes())
    assert problems == []
    # client->server: end.sum_sent.packets 834, end.sum_received (the server's count) 834, 0 lost, its rate and jitter
    assert _summary(rows, port="client->server") == {"tx": "834", "rx": "834", "lost": "0", "goodput": "8001687.006353258",
                                                     "interarrival_jitter": "0.058592613230546244", "duration": "1.000518"}
    # server->client: end.sum_sent_bidir_reverse / sum_received_bidir_reverse; out_of_order of the streams it received (11, 13)
    assert _summary(rows, port="server->client") == {"tx": "834", "rx": "834", "lost": "0", "goodput": "8001687.006353258",
                                                     "interarrival_jitter": "0.028477405992488672", "out_of_sequence": "0",
                                                     "duration": "1.000518"}


def test_iperf_3_22_udp_reverse_client():
    """iperf3-lib native/3.22/udp-reverse-client.json: the client received (-R): end.sum_sent (the server's,
    exchanged) 836 datagrams; end.sum_received 836, 0 lost, 8017061.829151953 bit/s, jitter 0.015015323265549343 ms."""
    rows, problems, _ = _rows((REAL / "iperf3-lib_3.22_udp-reverse-client.json").read_bytes())
    assert problems == []
    assert _summary(rows) == {"tx": "836", "rx": "836", "lost": "0", "goodput": "8017061.829151953",
                              "interarrival_jitter": "0.015015323265549343", "out_of_sequence": "0", "duration": "1.001101"}


def test_describe_real_files():
    plan = describe((REAL / "ekfoury_iperf3.6_tcp_P4_60s_mininet.json").read_bytes(), "x.json")
    assert [t.id for t in plan.tests] == ["tcp"] and plan.tests[0].fields["flows"] == 4
    assert plan.instrument["software"] == [{"name": "iperf3", "version": "3.6"}]
    assert plan.campaign == {"start": "2019-02-18", "end": "2019-02-18"}  # start.timestamp.timesecs 1550506570
    plan = describe((REAL / "yardstick_iperf3.0.7_iperf3_sample_output_udp.json").read_bytes(), "x.json")
    assert [t.id for t in plan.tests] == ["udp"] and plan.instrument["software"] == [{"name": "iperf3", "version": "3.0.7"}]


# --- loopback runs of iperf 3.12: what a host did not measure is absent -----------------------------

def test_udp_client_summary_and_intervals():
    rows, problems, n = _rows((EXAMPLES / "udp.json").read_bytes())
    assert problems == [] and n == 3
    # sum_sent.packets 2499; sum_received: packets 2499, lost 16 (2483 arrived), jitter from the server;
    # out_of_order is the receiver's count: the client sent, so it is left out
    assert _summary(rows) == {"tx": "2499", "rx": "2483", "lost": "16", "goodput": "9928371.18033359",
                              "interarrival_jitter": "0.013293522837439628", "duration": "2.000214"}
    samples = _samples(rows)
    assert [r.keys["t_s"].text for r in samples] == ["0.0", "1.001532"]
    assert samples[0].cells["goodput"].figure.text == "9729095.42878207" and samples[0].value("tx_rate") == 1218 / 1.001531958580017
    assert all("tx_l2" not in r.cells and "rx_l2" not in r.cells for r in rows)  # goodput is not a layer-2 rate


def test_tcp_client_goodput_retransmits_rtt_cwnd():
    rows, problems, n = _rows((EXAMPLES / "tcp.json").read_bytes())
    assert problems == [] and n == 3
    assert _summary(rows) == {"goodput": "100126642.35966858", "retransmits": "2", "rtt_min": "275", "rtt_avg": "275", "rtt_max": "276",
                              "cwnd": "785796", "duration": "2.0001"}
    first = _samples(rows)[0]
    assert {m: c.figure.text for m, c in first.cells.items()} == {"goodput": "100645779.04874764", "retransmits": "2", "cwnd": "785796", "rtt_avg": "275"}


def test_reverse_client_has_no_rtt_or_cwnd():
    """-R: the client received. Its end.streams[].sender holds max_rtt 0 and max_snd_cwnd 0 ("not
    measured"): they are left out; the server's retransmits (2) came in the results exchange."""
    rows, problems, _ = _rows((EXAMPLES / "tcp-reverse.json").read_bytes())
    assert problems == []
    assert _summary(rows) == {"goodput": "200271407.04356757", "retransmits": "2", "duration": "3.00076"}
    assert all(set(s.cells) == {"goodput"} for s in _samples(rows))
    assert [t.id for t in describe((EXAMPLES / "tcp-reverse.json").read_bytes(), "x").tests] == ["tcp-200m-reverse"]


def test_server_side_keeps_only_its_own_figures():
    """The server of a -P 2 TCP run received: its sum_sent is all zeros (not measured)."""
    rows, problems, _ = _rows((EXAMPLES / "tcp-p2-server.json").read_bytes())
    assert problems == [] and _summary(rows) == {"goodput": "100656182.96307062", "duration": "3.000212"}
    # UDP server (-P 2 -l 1400): sum_sent all zeros is not taken; the server received 10712 datagrams
    # (sum_received.packets 10712, lost 0) and measured jitter and order itself
    rows, problems, _ = _rows((EXAMPLES / "udp-p2-server.json").read_bytes())
    assert problems == []
    assert _summary(rows) == {"rx": "10712", "lost": "0", "goodput": "39989014.0071409", "interarrival_jitter": "0.008031458257996404",
                              "out_of_sequence": "0", "duration": "3.000184"}
    first = _samples(rows)[0]  # intervals[0].sum: 3570 datagrams, 0 lost, in 1.0000890493392944 s
    assert first.value("rx_rate") == 3570 / 1.0000890493392944 and first.cells["lost"].figure.text == "0"
    plan = describe((EXAMPLES / "udp-p2-server.json").read_bytes(), "x")
    assert [t.id for t in plan.tests] == ["udp-20m-server"] and "measured by the server" in plan.tests[0].fields["description"]


def test_udp_reverse_client_received():
    """-R -l 1400: the client received (sum_received: packets 2679, lost 0, jitter 0.007153930551541192);
    the server's 2679 sent came in the results exchange."""
    rows, problems, _ = _rows((EXAMPLES / "udp-reverse.json").read_bytes())
    assert problems == []
    assert _summary(rows) == {"tx": "2679", "rx": "2679", "lost": "0", "goodput": "10001569.995290015", "interarrival_jitter": "0.007153930551541192",
                              "out_of_sequence": "0", "duration": "3.000176"}


def test_bidir_one_row_per_direction():
    """--bidir: the client's socket of the reverse flow reports its own (ACK-sending) RTT of 7 µs and
    cwnd 360448: not the flow's, so left out; the server sent that flow and measured 80/89/93 µs."""
    rows, problems, _ = _rows((EXAMPLES / "tcp-bidir.json").read_bytes())
    assert problems == []
    assert _summary(rows, port="client->server") == {"goodput": "100304977.2636599", "retransmits": "0", "rtt_min": "48", "rtt_avg": "51",
                                                     "rtt_max": "57", "cwnd": "1178694", "duration": "3.000111"}
    assert _summary(rows, port="server->client") == {"goodput": "100304977.2636599", "retransmits": "0", "duration": "3.000111"}
    rows, problems, _ = _rows((EXAMPLES / "tcp-bidir-server.json").read_bytes())
    assert _summary(rows, port="client->server") == {"goodput": "100304977.2636599", "duration": "3.000263"}
    assert _summary(rows, port="server->client") == {"retransmits": "0", "rtt_min": "80", "rtt_avg": "89", "rtt_max": "93", "cwnd": "1178694", "duration": "3.000263"}
    assert {s.keys["port"] for s in _samples(rows)} == {"client->server", "server->client"}
    plan = describe((EXAMPLES / "tcp-bidir.json").read_bytes(), "x")
    assert plan.tests[0].id == "tcp-100m-bidir" and plan.tests[0].fields["direction"] == "bidirectional"


# --- several runs in one file ---------------------------------------------------------------------

def test_array_and_sequence_of_runs():
    one, two = (EXAMPLES / "udp.json").read_text(), (EXAMPLES / "tcp.json").read_text()
    for data in (f"[{one},{two}]", f"{one}\n{two}\n", f"{one}\n{one}"):
        plan = describe(data.encode(), "runs.json")
        assert plan.problems == [] and [t.native for t in plan.tests] == [[{"part": "run-1"}], [{"part": "run-2"}]]
        rows, problems, _ = _rows(data.encode(), part="run-2")
        assert problems == [] and _summary(rows)["duration"] in ("2.0001", "2.000214")
    assert [t.id for t in describe(f"{one}\n{one}".encode(), "x").tests] == ["udp-10m", "udp-10m-run-2"]
    assert [t.id for t in describe(f"[{one},{two}]".encode(), "x").tests] == ["udp-10m", "tcp-100m"]
    rows, problems, _ = _rows(f"[{one},{two}]".encode())
    assert rows == [] and [str(p) for p in problems] == ['run.json: part: the file holds 2 iperf3 runs: expected part = "run-1" … "run-2" [import.iperf3]']


# --- quirks and refusals --------------------------------------------------------------------------

def test_nan_and_omitted_intervals_are_tolerated():
    doc = json.loads((EXAMPLES / "udp.json").read_bytes())
    doc["intervals"][0]["sum"]["omitted"] = True
    text = json.dumps(doc, indent="\t").replace('"jitter_ms": 0.013293522837439628', '"jitter_ms": -nan')
    rows, problems, _ = _rows(text.encode())
    assert problems == []
    assert len(_samples(rows)) == 1  # the omitted (warm-up) interval is left out
    summary = _summary(rows)
    assert "interarrival_jitter" not in summary and summary["lost"] == "16"


def test_loss_that_iperf3_did_not_count_is_not_published_as_counted():
    doc = json.loads((EXAMPLES / "udp.json").read_bytes())
    doc["end"]["sum_received"]["packets"] = 2490  # the last 9 datagrams lost: iperf3's count stops at the last arrival
    rows, problems, _ = _rows(json.dumps(doc).encode())
    assert _summary(rows)["rx"] == "2474" and "lost" not in _summary(rows)
    assert [str(p) for p in problems] == ["run.json: end.sum_received: warning: 16 datagrams lost by iperf3's count, but 2499 sent − 2474 received is 25: "
                                          "the loss count is left out [import.iperf3]"]


def test_truncated_interrupted_and_other_files_are_refused_in_one_line():
    udp = (EXAMPLES / "udp.json").read_bytes()
    cut = udp[: len(udp) // 2]
    rows, problems, _ = _rows(cut, "cut.json")
    line = cut.decode().count("\n") + 1
    assert rows == [] and [str(p) for p in problems] == [f"cut.json:{line}: the JSON stops at line {line} before it closes: a truncated or interrupted iperf3 run [import.iperf3]"]
    other = (ROOT / "docs" / "importers" / "examples" / "csit" / "ndrpdr-64b-2t1c-l3fwd.info.json").read_bytes()
    assert [str(p) for p in _rows(other, "csit.json")[1]] == [
        "csit.json: not iperf3 --json output: expected an object with 'start', 'intervals' and 'end' (or a JSON array or a sequence of them) [import.iperf3]"]
    doc = json.loads(udp)
    doc["intervals"][1]["sum"]["bits_per_second"] = "fast"
    assert [str(p) for p in _rows(json.dumps(doc).encode())[1]] == ["run.json: intervals[1].sum: expected 'start' and 'bits_per_second' numbers [import.iperf3]"]
    doc = json.loads(udp)
    doc["error"] = "interrupt - the client has terminated"
    assert [str(p) for p in _rows(json.dumps([json.loads(udp), doc]).encode())[1]] == [
        "run.json: [1].error: iperf3 reported an error: interrupt - the client has terminated (the run did not finish) [import.iperf3]"]
    doc = json.loads(udp)
    doc["end"] = {}
    assert [str(p) for p in _rows(json.dumps(doc).encode())[1]] == ["run.json: end: no summary (sum_sent, sum_received or sum): the run did not finish [import.iperf3]"]


def test_sniff():
    assert IMPORTER.sniff((EXAMPLES / "tcp.json").read_bytes()[:65536], "x") > 0
    assert IMPORTER.sniff(b"[" + (EXAMPLES / "tcp.json").read_bytes()[:1000], "x") > 0
    assert IMPORTER.sniff((REAL / "yardstick_iperf3.0.7_iperf3_sample_output.json").read_bytes(), "x") > 0
    assert IMPORTER.sniff(b'{"results": {}}', "x.json") == 0
