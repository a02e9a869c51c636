"""Endace ERF captures: the record reader (wirespeed.resultset.erf, scan.scan_erf) on small records built
here and on T-Rex's real ERF outputs (tests/real/trex-capture), read by the pcap importer as it reads
pcap and pcapng, with the same bounds, and kept in a set as a native file of kind erf."""

from __future__ import annotations

import struct

import pytest

from capture_files import T0, erf, pcap, udp_frame
from conftest import ROOT
from importer_sets import import_and_validate
from wirespeed.capture import decode
from wirespeed.resultset import erf as erf_format
from wirespeed.capture.errors import CaptureError
from wirespeed.capture.reader import frames_from_bytes, read_frames
from wirespeed.importers import pcap as pcap_importer
from wirespeed.importers.kinds import content_kinds

REAL = ROOT / "tests" / "real" / "trex-capture"
FRAMES = [(T0 + i * 1_234_567_891, udp_frame(i, 64 + 101 * i % 1400, txts=T0 + i)) for i in range(30)]


def test_ethernet_records_read_as_the_same_frames_as_pcap():
    f = frames_from_bytes(erf([(ts, 2, fr) for ts, fr in FRAMES]), "c.erf")
    ref = frames_from_bytes(pcap(FRAMES), "c.pcap")
    assert f.format == "erf" and f.resolution == "2^-32 s" and len(f) == 30
    assert f.ts.tolist() == [ts for ts, _ in FRAMES]  # 2^-32 s fractions rounded to the nearest ns
    assert f.size.tolist() == ref.size.tolist() == [len(fr) + 4 for _, fr in FRAMES]  # wlen: the frame with its FCS
    assert (f.key == ref.key).all() and f.seq.tolist() == list(range(30)) and (f.flags & decode.SIGNATURE).all()


def test_colour_types_extension_headers_pad_meta_ip_records_and_loss_counters():
    a, b, c = udp_frame(1, 200), udp_frame(2, 300), udp_frame(3, 400, ipv6=True)
    data = erf([(T0, 2, a, 4, 3), (T0 + 1, 48, b"\0" * 24), (T0 + 2, 11, b, 5, 9, 2), (T0 + 3, 27, b"provenance"),
                (T0 + 4, 23, c[14:]), (T0 + 5, 16, a, 4, 0, 1), (T0 + 6, 2, b, 4, 2)])
    f = frames_from_bytes(data, "mix.erf")
    assert f.seq.tolist() == [1, 2, 3, 1, 2] and f.size.tolist() == [200, 300, 400, 200, 300]
    assert f.ts.tolist() == [T0, T0 + 2, T0 + 4, T0 + 5, T0 + 6]
    assert f.flags[2] & decode.IPV6 and f.key[0] == f.key[3]
    assert f.skipped_blocks == 2  # the PAD and META records
    assert f.lost_records == 5  # lctr of the ETH records (3 + 2); a colour type's lctr (9) is a colour, not a loss
    warnings = pcap_importer.skipped([f])
    assert [w.rule for w in warnings] == ["capture.skipped-blocks", "capture.lost-records"]
    assert "the capture card lost 5 records" in warnings[1].message


def _wlen(record: bytes, wlen: int) -> bytes:
    return record[:14] + struct.pack(">H", wlen) + record[16:]


@pytest.mark.parametrize("data,place,rule,text", [
    (erf([(T0, 2, udp_frame(1)), (T0, 2, udp_frame(2)), (T0, 3, b"\0" * 52)]), "byte 312", "capture.linktype",  # two records of 152 bytes
     "ERF record type 3 (ATM) carries no frame this reader decodes; supported: Ethernet (ERF types 2, 11, 16, 20), IPv4 (22), IPv6 (23)"),
    (erf([(T0 + i, 2, udp_frame(i)) for i in range(3)])[:-20], "byte 304", "capture.truncated",
     "the ERF record at this place runs past the end of the file (436 bytes): the capture is truncated"),
    (erf([(T0 + i, 2, udp_frame(i, 1500)) for i in range(3)]) + _wlen(erf([(T0 + 3, 2, udp_frame(3, 9000))]), 16004),
     "byte 4560", "limit.frame", "a frame of 16,004 bytes on the wire: above the largest frame a result set takes"),
])
def test_bad_records_are_one_line(data, place, rule, text):
    with pytest.raises(CaptureError) as exc:
        frames_from_bytes(data, "bad.erf")
    p = exc.value.problem
    assert (p.field, p.rule) == (place, rule) and p.message.startswith(text)


def test_recognised_by_its_records_not_by_a_magic_number():
    three = erf([(T0 + i, 2, udp_frame(i)) for i in range(3)])
    assert erf_format.looks_like(three) and erf_format.looks_like(erf([(T0, 2, udp_frame(1))]))  # a whole file of one record
    assert not erf_format.looks_like(three[:150])  # one record, then a cut one: fewer than three
    assert erf_format.looks_like(three[:-20])  # three records, the last cut: ERF, which the reader calls truncated
    # text whose bytes read as three chained headers (type 10 '\\n', flags ',', rlen "0," = 12332): no NUL, so no ERF
    text = b"".join((b"x" * 8 + b"\n,0," + b"7" * 12324) for _ in range(3))
    assert erf_format._record(text, 0) == 12332 and not erf_format.looks_like(text)
    for other in (pcap(FRAMES[:3]), b"Tx Port Name,Rx Port Names\n" * 40, bytes(range(256)) * 4, b""):
        assert not erf_format.looks_like(other)
    assert [k.name for k in content_kinds(three, "x.bin")] == ["erf"]
    assert pcap_importer.sniff(three, "x.bin") == 0.9 and pcap_importer.sniff(pcap(FRAMES[:3]), "x") == 1.0
    with pytest.raises(CaptureError, match="neither pcap nor pcapng, and the first records are not ERF records"):
        frames_from_bytes(b"\x01" * 64, "junk.bin")


# --- T-Rex's ERF outputs (cisco-system-traffic-generator/trex-core scripts/exp) -------------------

def test_stl_vm_enable1_flow_stat_ten_udp_packets_a_second_apart():
    """Ten records of type 2 (ETH), flags 4 (varying length, interface 0), rlen 616, wlen 594 (0x0252):
    590-byte frames with their FCS; timestamps 0x0 to 0x900000000 (0 to 9 s, fraction 0); IPv4 UDP from
    16.0.0.1 (0x10000001) to 102.0.0.1."""
    f = read_frames(REAL / "stl_vm_enable1_flow_stat-0-ex.erf")
    assert len(f) == 10 and f.size.tolist() == [594] * 10
    assert f.ts.tolist() == [i * 10**9 for i in range(10)]
    assert (f.flags & decode.IPV4).all() and (f.flags & decode.UDP).all() and len(set(f.key.tolist())) == 10
    plan = pcap_importer.describe((REAL / "stl_vm_enable1_flow_stat-0-ex.erf").read_bytes(), "flow.erf")
    assert not plan.campaign and "campaign.start" in plan.unstated  # the simulator's clock starts at 1970-01-01
    assert [p.rule for p in plan.problems] == ["capture.dates"]
    assert plan.instrument["product"] == "packet capture (ERF)"


def test_trex_ipv6_imix_dual_port_and_equal_timestamps():
    # imix_v6-0-ex.erf: 168 ETH records of wlen 84 (90), 614 (65) and 1538 (13), ethertype 86dd
    f = read_frames(REAL / "imix_v6-0-ex.erf")
    assert sorted(f.size.tolist()) == [84] * 90 + [614] * 65 + [1538] * 13 and (f.flags & decode.IPV6).all()
    # remote_test_dual.erf: 100 records on interfaces 2 and 3 (flags 6 and 7); first timestamp 0x57894ef92521bb60:
    # 1468616441 s + 622967648 / 2^32 s (0.145045958 s); last 0x57894efe2dc5d700: 1468616446 s + 767940352 / 2^32 s
    f = read_frames(REAL / "remote_test_dual.erf")
    assert len(f) == 100 and int(f.ts[0]) == 1_468_616_441_145_045_958 and int(f.ts[-1]) == 1_468_616_446_178_800_046
    assert sorted(f.size.tolist()).count(1046) == 93
    # sctp-ex.erf: 8 records of wlen 66, every timestamp 0x19999999 (0.1 s): no duration was measured
    rows, problems, _n = pcap_importer.convert((REAL / "sctp-ex.erf").read_bytes(), "sctp.erf", {"test": "capture"}, type("T", (), {"id": "capture"})())
    assert problems == [] and [{m: c.figure.text for m, c in r.cells.items()} for r in rows] == [{"rx": "8"}]
    plan = pcap_importer.describe((REAL / "sctp-ex.erf").read_bytes(), "sctp.erf")
    assert [p.rule for p in plan.problems] == ["capture.dates", "capture.duration"]


def test_an_erf_capture_imports_validates_and_loads_as_a_set(tmp_path):
    stdout, rs = import_and_validate(tmp_path, "auto", [REAL / "remote_test_dual.erf"], "trex-dual")
    assert "native/remote_test_dual.erf: 1 rows" in stdout
    (row,) = [r for r in rs.rows if r.kind == "measurements"]
    cells = {m: c.figure.text for m, c in row.cells.items()}
    # 100 frames from 1468616441.145045958 s to 1468616446.178800046 s: 5,033,754,088 ns apart; the time the frames
    # occupied is that span plus one mean gap (capture.metrics.occupied_ns)
    assert cells["rx"] == "100" and cells["duration"] == str(round(5_033_754_088 * 100 / 99))
    assert {k: str(v) for k, v in rs.meta["campaign"].items()} == {"start": "2016-07-15", "end": "2016-07-15"}
