"""The capture reader: pcap (µs/ns, both byte orders), pcapng (interfaces, if_tsresol, SPB, unknown
blocks, sections), VLAN/QinQ/IPv6 decoding, truncated snaplen and records straddling chunk boundaries."""

from __future__ import annotations

import numpy as np
import pytest

from capture_files import T0, pcap, pcapng_section, udp_frame
from wirespeed.capture import decode
from wirespeed.capture.reader import frames_from_bytes, read_frames

RECORDS = [(T0 + i * 1_234_567, udp_frame(i, 64 + 97 * i % 1400, txts=T0 + i)) for i in range(40)]
BIG = [(T0 + i * 1000, udp_frame(i, 1518 if i % 50 == 7 else 64 + 37 * i % 1400, txts=T0 + i)) for i in range(300)]


@pytest.mark.parametrize("nano", [True, False])
@pytest.mark.parametrize("big", [False, True])
def test_pcap_variants_read_the_same_frames(tmp_path, nano, big):
    path = tmp_path / "c.pcap"
    path.write_bytes(pcap(RECORDS, nano=nano, big=big))
    f = read_frames(path)
    want_ts = [ts if nano else ts // 1000 * 1000 for ts, _ in RECORDS]
    assert f.ts.tolist() == want_ts
    assert f.size.tolist() == [len(fr) + 4 for _, fr in RECORDS]
    assert f.seq.tolist() == list(range(40))
    assert (f.flags & decode.IPV4).all() and (f.flags & decode.UDP).all() and (f.flags & decode.SIGNATURE).all()
    assert f.resolution == ("ns" if nano else "µs")
    ref = frames_from_bytes(pcap(RECORDS), "ref")
    assert (f.key == ref.key).all()


def test_pcapng_two_interfaces_resolutions_unknown_blocks_and_sections():
    a, b, c = udp_frame(1, 200), udp_frame(2, 300), udp_frame(3, 400)
    s1 = pcapng_section([(1, 9), (1, 0x80 | 20)],
                        [("epb", 0, T0 + 5, a), ("unknown", 0x0BAD, b"ignored body"), ("epb", 1, T0 + 2_000_000, b), ("spb", c)])
    s2 = pcapng_section([(1, None)], [("epb", 0, T0 + 7_000_000_000, c)], big=True)
    f = frames_from_bytes(s1 + s2, "two.pcapng")
    assert len(f) == 4 and f.format == "pcapng" and f.skipped_blocks == 1
    assert f.ts[0] == T0 + 5                                   # 10^-9 s units
    assert abs(int(f.ts[1]) - (T0 + 2_000_000)) <= 954         # 2^-20 s units: within one unit
    assert f.ts[2] == -1 and f.flags[2] & decode.NO_TIME       # simple packet block: no time
    assert f.ts[3] == T0 + 7_000_000_000                       # big-endian section, default 10^-6 s
    assert f.seq.tolist() == [1, 2, 3, 3]
    assert f.size.tolist() == [200, 300, 400, 400]
    assert "10^-9 s" in f.resolution and "2^-20 s" in f.resolution


def test_vlan_qinq_and_ipv6():
    plain, dot1q, qinq = udp_frame(9, 200), udp_frame(9, 204, vlans=(10,)), udp_frame(9, 208, vlans=(100, 10))
    v6 = udp_frame(9, 200, ipv6=True)
    f = frames_from_bytes(pcap([(T0, x) for x in (plain, dot1q, qinq, v6)]), "v.pcap")
    assert f.seq.tolist() == [9, 9, 9, 9]
    assert f.key[0] == f.key[1] == f.key[2]                    # tags are not part of the match key
    assert f.key[3] != f.key[0]
    assert (f.flags[:3] & decode.IPV4).all() and f.flags[3] & decode.IPV6 and f.flags[3] & decode.UDP


def test_router_changes_do_not_change_the_key():
    before = udp_frame(5, 128, ttl=64, mac=b"\x02\x00\x00\x00\x00\x01")
    after = udp_frame(5, 128, ttl=63, mac=b"\x02\x00\x00\x00\x00\x77")   # TTL, checksum and MACs differ
    other = udp_frame(6, 128)
    f = frames_from_bytes(pcap([(T0, before), (T0, after), (T0, other)]), "r.pcap")
    assert f.key[0] == f.key[1] != f.key[2]


def test_truncated_snaplen_fields_past_caplen_are_unknown():
    frame = udp_frame(77, 512, txts=T0)
    cut_ip = frames_from_bytes(pcap([(T0, frame)], snaplen=30), "s.pcap")      # IPv4 header cut
    assert cut_ip.size[0] == 512 and cut_ip.flags[0] & decode.TRUNCATED and not cut_ip.flags[0] & decode.IPV4
    assert cut_ip.seq[0] == -1
    cut_sig = frames_from_bytes(pcap([(T0, frame)], snaplen=14 + 20 + 8 + 8), "s.pcap")  # signature cut
    assert cut_sig.flags[0] & decode.UDP and cut_sig.flags[0] & decode.TRUNCATED
    assert cut_sig.seq[0] == -1 and cut_sig.txts[0] == -1
    enough = frames_from_bytes(pcap([(T0, frame)], snaplen=96), "s.pcap")
    full = frames_from_bytes(pcap([(T0, frame)]), "s.pcap")
    assert enough.seq[0] == 77 and enough.key[0] == full.key[0] and not enough.flags[0] & decode.TRUNCATED


@pytest.mark.parametrize("chunk", [17, 100, 1000, 4096, 5000])
def test_records_straddling_chunk_boundaries(tmp_path, chunk):
    data = pcap(BIG)
    path = tmp_path / "c.pcap"
    path.write_bytes(data)
    assert len(data) > 4 * 5000                                  # several buffers of pread: records are cut and carried over
    whole, chunked = read_frames(path), read_frames(path, chunk_bytes=chunk)
    for name in ("ts", "size", "flags", "key", "seq", "txts"):
        assert (getattr(whole, name) == getattr(chunked, name)).all(), name
    assert whole.seq.tolist() == list(range(300))
    ng = pcapng_section([(1, 9)], [("epb", 0, ts, fr) for ts, fr in BIG])
    a, b = frames_from_bytes(ng, "n"), frames_from_bytes(ng, "n", chunk_bytes=chunk)
    assert (a.key == b.key).all() and (a.ts == b.ts).all() and (a.key == whole.key).all()


def test_raw_ip_and_linux_cooked_link_types():
    frame = udp_frame(3, 100)
    raw = frames_from_bytes(pcap([(T0, frame[14:])], linktype=101), "raw.pcap")
    sll = frames_from_bytes(pcap([(T0, b"\x00\x00\x00\x01\x00\x06" + bytes(8) + b"\x08\x00" + frame[14:])], linktype=113), "sll.pcap")
    eth = frames_from_bytes(pcap([(T0, frame)]), "eth.pcap")
    assert raw.key[0] == sll.key[0] == eth.key[0]
    assert raw.size[0] == sll.size[0] == eth.size[0] == 100
    assert np.all(raw.seq == 3)
