"""Issue 28, item 6: captures whose lengths and shapes are hostile end in one line, before the work they drive.

- a pcap or pcapng original length above the schema's largest frame (16,000 bytes) is refused, never stored
  modulo 65,536 (67,050 bytes was published as a 1,518-byte frame, 2^32 - 4 as 0 bytes);
- pcapng interface blocks alternating with packet blocks read correctly, and more interfaces than the limit
  are refused (the reader's linearity is measured in bench/capture_blocks.py, not timed here);
- a capture that would make more rows than the row limit is refused before the rows are made.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from capture_files import T0, pcap, pcapng_section, udp_frame
from importer_sets import FakeTest
from wirespeed.capture.errors import CaptureError
from wirespeed.capture import metrics
from wirespeed.capture.reader import frames_from_bytes, read_frames
from wirespeed.importers import importers
from wirespeed.resultset import limits

MAX = limits.value("frame_bytes")


def _with_wire_length(frame: bytes, wire: int) -> bytes:
    """A one-frame pcap whose record says the frame was `wire` bytes on the wire (caplen stays the frame's)."""
    data = bytearray(pcap([(T0, frame)]))
    struct.pack_into("<I", data, 24 + 12, wire)
    return bytes(data)


def test_the_frame_limit_is_the_schemas_largest_frame():
    from wirespeed.resultset.schemacheck import schema

    test = schema()["$defs"]["test"]["properties"] if "test" in schema()["$defs"] else None
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "max_frame_bytes" in node.get("properties", {}):
                found.append(node["properties"]["max_frame_bytes"]["maximum"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema())
    assert found and set(found) == {MAX}, (found, test)


@pytest.mark.parametrize("wire,size", [(67_050, 67_054), (2**32 - 4, 2**32), (65_532, 65_536), (MAX - 3, MAX + 1)])
def test_pcap_length_above_the_largest_frame_is_refused_not_wrapped(tmp_path, wire, size):
    data = _with_wire_length(udp_frame(1, 128), wire)
    path = tmp_path / "big.pcap"
    path.write_bytes(data)
    for read in (lambda: frames_from_bytes(data, "big.pcap"), lambda: read_frames(path, "big.pcap")):
        with pytest.raises(CaptureError) as err:
            read()
        line = str(err.value)
        assert line == (f"big.pcap: byte 24: a frame of {size:,} bytes on the wire: above the largest frame a result set takes "
                        f"(16,000 bytes, the schema's largest max_frame_bytes) [limit.frame]"), line


def test_the_largest_frame_itself_is_read_with_its_size():
    f = frames_from_bytes(_with_wire_length(udp_frame(1, 128), MAX - 4), "max.pcap")
    assert f.size.tolist() == [MAX]


def test_pcapng_original_length_above_the_largest_frame_is_refused():
    frame = udp_frame(1, 128)
    data = bytearray(pcapng_section([(1, 9)], [("epb", 0, T0, frame)]))
    epb = data.index(struct.pack("<I", 6))
    struct.pack_into("<I", data, epb + 24, 67_050)  # original packet length
    with pytest.raises(CaptureError) as err:
        frames_from_bytes(bytes(data), "big.pcapng")
    assert str(err.value).endswith("[limit.frame]") and "67,054 bytes" in str(err.value) and f"byte {epb}" in str(err.value)


def _alternating(n: int) -> bytes:
    """One section where every packet block follows an interface block of its own (interface i carries packet i)."""
    section = pcapng_section([(1, 9)], [])
    e = "<"
    idb = section[28:]  # the interface block as the helper writes it
    out = [section[:28]]
    for i in range(n):
        frame = udp_frame(i, 128)
        out.append(idb)
        units = (T0 + i * 1000)
        body = struct.pack(e + "IIIII", i, units >> 32, units & 0xFFFFFFFF, len(frame), len(frame)) + frame
        body += bytes(-len(body) % 4)
        out.append(struct.pack(e + "II", 6, len(body) + 12) + body + struct.pack(e + "I", len(body) + 12))
    return b"".join(out)


def test_alternating_interface_and_packet_blocks_read_every_frame():
    f = frames_from_bytes(_alternating(1000), "alt.pcapng")
    assert len(f) == 1000 and f.seq.tolist() == list(range(1000)) and len(f.linktypes) == 1000
    assert (np.diff(f.ts) == 1000).all()


def test_more_interfaces_than_the_limit_are_refused():
    n = limits.value("capture_interfaces")
    frames_from_bytes(_alternating(n), "ok.pcapng")
    with pytest.raises(CaptureError) as err:
        frames_from_bytes(_alternating(n + 1), "many.pcapng")
    assert str(err.value).startswith("many.pcapng: byte ") and str(err.value).endswith(
        "more interface description blocks than the limit of 1,024 interfaces [limit.interfaces]")


def test_interface_block_too_short_for_its_fields_is_one_line():
    data = bytearray(pcapng_section([(1, 9)], [("epb", 0, T0, udp_frame(1))]))
    idb = 28
    struct.pack_into("<II", data, idb, 1, 12)
    struct.pack_into("<I", data, idb + 8, 12)  # a 12-byte interface block: no room for its link type
    with pytest.raises(CaptureError) as err:
        frames_from_bytes(bytes(data[: idb + 12]), "short.pcapng")
    assert "\n" not in str(err.value) and str(err.value).startswith("short.pcapng: byte 28:")


def test_a_capture_making_more_rows_than_the_limit_is_refused_before_the_rows_are_made(monkeypatch):
    """Signature frames of 16 sizes, one a second each for 6,400 s: 102,400 sample rows, past the limit of
    100,000 rows of one native file. The seconds are counted before any row exists."""
    sizes = [128 + 64 * k for k in range(16)]  # 64-byte frames have no room for the transmit time
    records = [(T0 + s * 10**9 + k, udp_frame(s * 16 + k, size, txts=T0 + s * 10**9 + k - 1000)) for s in range(6400) for k, size in enumerate(sizes)]
    data = pcap(records)
    made = []
    real = metrics.samples

    def spy(*a, **kw):
        made.append(None)
        made[-1] = len(real(*a, **kw))  # stays None when samples() refuses before making its rows
        return [{}] * made[-1]

    monkeypatch.setattr(metrics, "samples", spy)
    rows, problems, n = importers()["pcap"].convert(data, "signed.pcap", {"path": "signed.pcap", "importer": "pcap", "test": "t1"}, FakeTest())
    assert rows == [] and n == 0 and len(problems) == 1, problems
    line = str(problems[0])
    assert line.startswith("signed.pcap: the capture makes at least ") and line.endswith("more than the limit of 100,000 rows of one native file [limit.rows]"), line
    assert made == [6400] * 15 + [None]  # the 16th frame size's 6,400 seconds are counted, never made into rows


def test_samples_count_the_busy_seconds_before_making_rows():
    ts = np.arange(0, 50 * 10**9, 10**9, dtype=np.int64)
    size = np.full(ts.size, 64, np.uint16)
    lat = np.full(ts.size, 10, np.int64)
    assert len(metrics.samples(0, ts, size, ts, size, lat, room=50)) == 50
    with pytest.raises(CaptureError) as err:
        metrics.samples(0, ts, size, ts, size, lat, room=49)
    assert err.value.problem.rule == "limit.rows" and "at least 50 rows" in str(err.value)
