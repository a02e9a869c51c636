"""iperf 2 CSV (`iperf -y C`): golden values read by hand from iperf 2.1.8 loopback runs made on this
project's machine (docs/importers/examples/iperf2: client and server, TCP and UDP, -P 2), the field
layout of iperf2's src/ReportCSV.c (9 fields, 14 for UDP), the sender's UDP lines of iperf 2.1 whose
jitter and loss were not measured, and one-line refusals."""

from __future__ import annotations

from conftest import ROOT
from wirespeed.importers.iperf2 import IMPORTER, convert, describe

EX = ROOT / "docs" / "importers" / "examples" / "iperf2"


class _Test:
    id = "t1"
    imixes: dict = {}


def _rows(data: bytes, name: str = "run.csv"):
    return convert(data, name, {"test": "t1"}, _Test())


def _cells(r) -> dict[str, str]:
    return {m: c.figure.text for m, c in r.cells.items()}


def test_udp_server_reports():
    rows, problems, n = _rows((EX / "udp-server.csv").read_bytes())
    assert problems == [] and n == 4
    (whole,) = [r for r in rows if r.kind == "measurements"]
    # "…,1,0.0-3.0,3936800,10492942,0.001,0,2812,0.000,0": 2812 datagrams, none lost, 1400 bytes each (one frame)
    assert _cells(whole) == {"goodput": "10492942", "interarrival_jitter": "0.001", "lost": "0", "rx": "2812", "out_of_sequence": "0", "duration": "3.0"}
    first = [r for r in rows if r.kind == "samples"][0]  # "…,0.0-1.0,1313200,10505600,0.001,0,938,0.000,0"
    assert first.keys["t_s"].text == "0.0" and _cells(first) == {"goodput": "10505600", "interarrival_jitter": "0.001", "lost": "0", "rx": "938", "out_of_sequence": "0"}
    assert all(m not in r.cells for r in rows for m in ("throughput_l1", "throughput_l2", "tx_l2", "rx_l2"))


def test_udp_client_lines_are_the_senders():
    """iperf 2.1's client prints 14 fields with jitter 0.000 and lost 0, its final total −1: not measured."""
    rows, problems, _ = _rows((EX / "udp-client.csv").read_bytes())
    assert problems == []
    (whole,) = [r for r in rows if r.kind == "measurements"]
    assert _cells(whole) == {"goodput": "10492900", "duration": "3.0"}  # "…,0.0-3.0,3936800,10492900,0.000,0,-1,-0.000,0"
    assert all(set(r.cells) == {"goodput"} for r in rows if r.kind == "samples")
    assert "the sender's reports" in describe((EX / "udp-client.csv").read_bytes(), "x").tests[0].fields["description"]


def test_tcp_and_parallel_streams():
    rows, problems, _ = _rows((EX / "tcp-client.csv").read_bytes())
    assert problems == [] and [_cells(r) for r in rows if r.kind == "measurements"] == [{"goodput": "209560333", "duration": "3.0"}]
    rows, problems, _ = _rows((EX / "tcp-p2-server.csv").read_bytes())
    got = {r.keys["port"]: _cells(r) for r in rows if r.kind == "measurements"}
    # id 1: "0.0-3.0,26345532,69600806"; id 2 ran "0.0-0.0" (under 0.05 s): its rate as printed, no duration
    assert got == {"id 1": {"goodput": "69600806", "duration": "3.0"}, "id 2": {"goodput": "16069156767"}}
    plan = describe((EX / "tcp-p2-server.csv").read_bytes(), "x")
    assert [t.id for t in plan.tests] == ["tcp"] and plan.campaign == {"start": "2026-11-25", "end": "2026-11-25"}
    # iperf 2.1 stamps final lines 19700101000000: no date is taken from them
    assert describe((EX / "tcp-p2-server.csv").read_bytes().replace(b"20261125", b"19700101"), "x").campaign == {}


def test_banner_lines_are_skipped_and_bad_lines_refused():
    banner = b"------------------------------------------------------------\nServer listening on UDP port 5001\n"
    rows, problems, _ = _rows(banner + (EX / "udp-server.csv").read_bytes())
    assert problems == [] and len(rows) == 4
    rows, problems, _ = _rows(b"20191213142907,189.40.186.130,5001,150.165.13.86,51991,3,0.0-1.0,100752330\n", "short.csv")
    assert rows == [] and [str(p) for p in problems] == [
        "short.csv:1: not an iperf 2 CSV report line: 8 fields: expected 9 (TCP or sending) or 14 (UDP with jitter and loss) [import.iperf2]"]
    assert [str(p) for p in _rows(b"Server listening\n", "empty.csv")[1]] == [
        "empty.csv: no iperf 2 CSV report line (iperf -y C: timestamp,address,port,address,port,id,interval,bytes,bits/s) [import.iperf2]"]


def test_sniff():
    assert IMPORTER.sniff((EX / "udp-server.csv").read_bytes(), "x") > 0
    assert IMPORTER.sniff(b"Driver,Profile,Same node\n", "x") == 0
