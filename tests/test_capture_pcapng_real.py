"""pcapng files that other tools wrote (the-tcpdump-group/tcpdump tests/, tests/real/tcpdump-pcapng): the
pcap importer's one-capture rows, its date and duration warnings, and its one-line refusals. Values read
by hand from the files' enhanced packet blocks (64-bit timestamps in µs, the default if_tsresol)."""

from __future__ import annotations

import pytest

from conftest import ROOT
from wirespeed.importers import pcap


class _Test:
    id = "capture"


REAL = ROOT / "tests" / "real" / "tcpdump-pcapng"


def _import(name: str):
    data = (REAL / name).read_bytes()
    rows, problems, _n = pcap.convert(data, name, {"test": "capture"}, _Test())
    plan = pcap.describe(data, name)
    return [{m: c.figure.text for m, c in r.cells.items()} for r in rows], problems, plan


def test_ospf_capture_counts_and_rate():
    # 30 EPBs, the first at 1518622219014914 µs, the last at 1518622238733366 µs: 19.718452 s apart
    rows, problems, plan = _import("OSPFv2_Capture_FINAL.pcapng")
    assert problems == [] and plan.problems == []
    # the time the 30 frames occupied: that span plus one mean gap (capture.metrics.occupied_ns); the rate 29 / 19.718452
    assert rows[0]["rx"] == "30" and rows[0]["duration"] == str(round(19_718_452_000 * 30 / 29)) and rows[0]["rx_rate"] == "1.4707036840193537"
    assert plan.campaign == {"start": "2018-02-14", "end": "2018-02-14"}


def test_an_interface_statistics_block_is_skipped_with_a_warning():
    # two EPBs (342 and 365 bytes, 5739 µs apart) and one Interface Statistics Block (type 5)
    rows, problems, plan = _import("dhcp-option-108.pcapng")
    assert rows[0]["rx"] == "2" and rows[0]["duration"] == str(5_739_000 * 2)  # the span plus one mean gap
    assert [p.message for p in plan.problems] == ["1 pcapng blocks of types this reader does not use (neither section, interface nor "
                                                  "packet blocks) were skipped"]


def test_captures_of_one_instant_or_of_no_date():
    # one EPB: no duration, no rate
    rows, problems, plan = _import("nfs-seg-fault-1.pcapng")
    assert rows == [{"rx": "1"}] and [p.rule for p in plan.problems] == ["capture.duration"]
    # one EPB at 4294967296000000 µs: 2106-02-07 00:28:16 UTC, no date of a run: left to fill in
    rows, problems, plan = _import("time_2106_overflow.pcapng")
    assert rows == [{"rx": "1"}] and [p.rule for p in plan.problems] == ["capture.dates", "capture.duration"]
    assert "2106-02-07" in plan.problems[0].message and not plan.campaign


def test_a_capture_of_days():
    # 174 EPBs from 1382197969322823 µs (2013-10-19) to 1383424642396699 µs (2013-11-02): 1226673.073876 s
    rows, problems, plan = _import("of13_ericsson.pcapng")
    assert rows[0]["rx"] == "174" and rows[0]["duration"] == str(round(1_226_673_073_876_000 * 174 / 173))  # the span plus one mean gap
    assert plan.campaign == {"start": "2013-10-19", "end": "2013-11-02"}


@pytest.mark.parametrize("name,message", [
    ("empty.pcapng", "empty.pcapng: the capture holds no frames [capture.empty]"),  # a section and an interface, no packet block
    ("vsock-1.pcapng", "vsock-1.pcapng: byte 180: interface 0 link type: link type 271 is not supported; supported: Ethernet (1), "
                       "raw IP (101), raw IPv4 (228), raw IPv6 (229), Linux cooked (SLL) (113) [capture.linktype]"),
])
def test_refused_in_one_line(name, message):
    rows, problems, plan = _import(name)
    assert rows == [] and [str(p) for p in problems] == [message] and [str(p) for p in plan.problems] == [message]
