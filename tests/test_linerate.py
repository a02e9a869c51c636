"""The line-rate models, pinned to the figures the seed publications print."""

from __future__ import annotations

import pytest

from wirespeed.engine import linerate
from wirespeed.engine.imix import PROFILES, from_genome
from wirespeed.engine.rfc5180 import minimum_ipv6_frame

G100 = linerate.parse_speed("100G")
G10 = linerate.parse_speed("10G")
OC12 = linerate.parse_speed("OC-12c")


def test_ethernet_port_rates():
    assert linerate.port_fps(64, G10) == pytest.approx(14_880_952.38, abs=0.01)
    assert linerate.port_fps(1518, G10) == pytest.approx(812_743.82, abs=0.01)
    assert linerate.port_fps(64, linerate.parse_speed("800G")) == pytest.approx(1_190_476_190.5, abs=0.1)
    assert linerate.port_fps(64, linerate.parse_speed("1G")) == pytest.approx(1_488_095.24, abs=0.01)


def test_nexus_64_byte_full_mesh():
    """Table 1: 19,047,430,585 frames/s of 64-byte frames on 128 × 100G = 9.752 Tbit/s, 99.999 % of line rate."""
    line = linerate.line_rate_fps(64, G100, linerate.streams("full-mesh", 128, "bidirectional"))
    assert line == pytest.approx(19_047_619_047.6, abs=0.1)
    fps = 19_047_430_585
    assert round(linerate.l2_bps(fps, 64) / 1e12, 3) == 9.752
    assert round(fps / line * 100, 3) == 99.999


def test_nexus_86_byte_ipv6():
    """Table 4: 86-byte IPv6 frames (RFC 5180 minimum with a 20-byte signature): 10.385 Tbit/s."""
    assert minimum_ipv6_frame() == 86
    line = linerate.line_rate_fps(86, G100, 128)
    assert line == pytest.approx(15_094_339_622.6, abs=0.1)
    fps = 15_094_190_275
    assert round(linerate.l2_bps(fps, 86) / 1e12, 3) == 10.385
    assert round(fps / line * 100, 3) == 99.999


def test_nexus_multicast_127_receivers():
    """Table 6: one transmitter, 127 receivers: the line rate counts every replicated copy."""
    n = linerate.streams("multicast", 128, "unidirectional", receivers=127)
    assert n == 127
    line = linerate.line_rate_fps(64, G100, n)
    assert line == pytest.approx(18_898_809_523.8, abs=0.1)
    fps = 18_898_622_534
    assert round(linerate.l2_bps(fps, 64) / 1e12, 3) == 9.676
    assert round(fps / line * 100, 3) == 99.999


def test_sonet_payload_rates():
    assert linerate.sonet_payload_bps(3) == pytest.approx(149.76e6)
    assert linerate.sonet_payload_bps(12) == pytest.approx(599.04e6)
    assert linerate.sonet_payload_bps(48) == pytest.approx(2396.16e6)
    assert linerate.sonet_payload_bps(192) == pytest.approx(9584.64e6)
    assert OC12.bps == pytest.approx(622.08e6)
    assert linerate.parse_speed("STM-4").payload_bps == OC12.payload_bps


@pytest.mark.parametrize("size, mpps, published_pct", [(64, 26.9, 91.2), (128, 15.5, 99.7), (256, 7.97, 100)])
def test_cisco_7600_actual_vs_max_theoretical(size, mpps, published_pct):
    """Table 1 of the 7600 report: 28 OC-12c POS ports, bidirectional pairs, 7 bytes of framing."""
    line = linerate.line_rate_fps(size, OC12, linerate.streams("port-pairs", 28, "bidirectional"), encapsulation_bytes=7)
    mx = linerate.max_theoretical_fps(line, 30e6)
    pct = mpps * 1e6 / mx * 100
    decimals = 0 if published_pct == 100 else 1
    lo, hi = (mpps - 0.005 if mpps < 10 else mpps - 0.05) * 1e6 / mx * 100, (mpps + 0.005 if mpps < 10 else mpps + 0.05) * 1e6 / mx * 100
    assert lo <= published_pct + 0.5 * 10**-decimals and hi >= published_pct - 0.5 * 10**-decimals, pct


def test_cisco_7600_40_byte_is_capped_at_30_mpps():
    """Footnote of Table 1: for 40- and 46-byte packets the 30 Mpps forwarding cap, not the links, is the maximum."""
    line = linerate.line_rate_fps(40, OC12, 28, encapsulation_bytes=7)
    assert line > 30e6
    assert linerate.max_theoretical_fps(line, 30e6) == 30e6
    assert round(28.7e6 / 30e6 * 100, 1) == 95.7  # 28.7 rounds from 28.65–28.75: 95.5–95.8, the report prints 95.6
    assert 28.65e6 / 30e6 * 100 <= 95.65 and 28.75e6 / 30e6 * 100 >= 95.55


def test_asr9006_l1_bit_rates():
    """Test 1.1/1.2 tables: L1 Gbps from pps and the profile (frame + 20 bytes on the wire)."""
    assert round(linerate.l1_bps(810e3, 1514, G10) / 1e9, 2) == 9.94
    imix = PROFILES["trex-imix"].average_frame()
    assert imix == pytest.approx(361.833, abs=0.001)
    assert linerate.l1_bps(3.245e6, imix, G10) / 1e9 <= 9.945 <= linerate.l1_bps(3.255e6, imix, G10) / 1e9 + 0.01
    assert round(linerate.l1_bps(3.25e6, imix, G10) / 1e9, 2) == 9.93
    assert round(linerate.l1_bps(14.82e6, 64, G10) / 1e9, 2) == 9.96
    assert round(linerate.l1_bps(29.44e6, 64, G10) / 1e9, 1) == 19.8
    # 40 Gbit/s of 64-byte frames "boils down to 59.52 Mpps"
    assert round(linerate.line_rate_fps(64, G10, 4) / 1e6, 2) == 59.52


def test_frame_size_conventions_and_vlan_tags():
    assert linerate.frame_bytes(60, "trex-packet") == 64
    assert linerate.frame_bytes(64, "ethernet-frame", vlan_tags=1) == 68
    assert linerate.frame_bytes(40, "ip-packet") == 40
    with pytest.raises(ValueError):
        linerate.frame_bytes(64, "bogus")


def test_imix_profiles_and_genome():
    assert PROFILES["simple-imix"].average_frame() == pytest.approx(PROFILES["trex-imix"].average_frame())
    mix = from_genome("aaaaaaadddg")
    assert mix.average_frame() == pytest.approx((7 * 64 + 3 * 512 + 1518) / 11)
    assert from_genome("az", mtu=1500).average_frame() == pytest.approx(782)
    with pytest.raises(ValueError):
        from_genome("x")


def test_streams_per_topology():
    assert linerate.streams("port-pairs", 2, "unidirectional") == 1
    assert linerate.streams("port-pairs", 4, "bidirectional") == 4
    assert linerate.streams("full-mesh", 130, "bidirectional") == 130
    with pytest.raises(ValueError):
        linerate.streams("port-pairs", 3, "unidirectional")
