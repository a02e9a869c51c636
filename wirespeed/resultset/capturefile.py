"""pcap and pcapng attachments: the whole file must be records of its format, read to its last byte.

pcap: a global header (a known magic, version 2.x) and records whose header fits, whose fraction of
a second is below one second, and whose captured length is at most 256 KiB (tcpdump's largest
snapshot length) and fits in the file. pcapng: blocks from a Section Header Block (with its
byte-order magic) on, each of a length that is a multiple of 4, at least 12 bytes, inside the file
and repeated at the block's end. Either must end exactly where its last record or block does, so
a cut file, trailing data or a file that is something else behind a capture's magic is refused.

Only the structure is read here; the capture importer (wirespeed.capture) decodes the frames of
the captures it is given as native files.
"""

from __future__ import annotations

import struct

PCAP_MAGIC = {  # first four bytes -> (struct byte order, fractions per second)
    b"\xd4\xc3\xb2\xa1": ("<", 1_000_000), b"\xa1\xb2\xc3\xd4": (">", 1_000_000),
    b"\x4d\x3c\xb2\xa1": ("<", 1_000_000_000), b"\xa1\xb2\x3c\x4d": (">", 1_000_000_000),
}
MAX_CAPTURED = 262_144  # tcpdump's MAXIMUM_SNAPLEN
PCAPNG_SHB = 0x0A0D0D0A


def pcap_problem(data: bytes) -> str | None:
    """Why this file is not one complete pcap capture (one line), or None."""
    kind = PCAP_MAGIC.get(data[:4])
    if kind is None:
        return "does not start with a pcap magic number"
    order, per_second = kind
    if len(data) < 24:
        return "ends inside the pcap file header"
    major, minor = struct.unpack(order + "HH", data[4:8])
    if major != 2:
        return f"pcap version {major}.{minor} is not 2.x"
    record = struct.Struct(order + "IIII")
    pos, n, count = 24, len(data), 0
    while pos < n:
        if pos + 16 > n:
            return f"ends inside the header of record {count + 1} (byte {pos})"
        _sec, frac, captured, _original = record.unpack_from(data, pos)
        if frac >= per_second:
            return f"record {count + 1} (byte {pos}): a fraction of a second of {frac:,} is not below one second"
        if captured > MAX_CAPTURED:
            return f"record {count + 1} (byte {pos}): a captured length of {captured:,} bytes is above {MAX_CAPTURED:,}"
        if pos + 16 + captured > n:
            return f"record {count + 1} (byte {pos}) runs past the end of the file"
        pos += 16 + captured
        count += 1
    return None


def pcapng_problem(data: bytes) -> str | None:
    """Why this file is not one complete pcapng capture (one line), or None."""
    pos, n, count = 0, len(data), 0
    order = "<"
    while pos < n:
        if pos + 12 > n:
            return f"ends inside block {count + 1} (byte {pos})"
        (btype,) = struct.unpack_from(order + "I", data, pos)
        if data[pos:pos + 4] == b"\x0a\x0d\x0d\x0a":
            if pos + 12 > n:
                return f"ends inside the section header at byte {pos}"
            magic = data[pos + 8:pos + 12]
            if magic == b"\x4d\x3c\x2b\x1a":
                order = "<"
            elif magic == b"\x1a\x2b\x3c\x4d":
                order = ">"
            else:
                return f"the section header at byte {pos} has no byte-order magic"
            btype = PCAPNG_SHB
        elif count == 0:
            return "does not start with a pcapng section header block"
        (length,) = struct.unpack_from(order + "I", data, pos + 4)
        if length < 12 or length % 4 or (btype == PCAPNG_SHB and length < 28):
            return f"block {count + 1} (byte {pos}) has a length of {length:,} bytes"
        if pos + length > n:
            return f"block {count + 1} (byte {pos}) runs past the end of the file"
        (trailer,) = struct.unpack_from(order + "I", data, pos + length - 4)
        if trailer != length:
            return f"block {count + 1} (byte {pos}) ends with a length of {trailer:,}, not {length:,}"
        pos += length
        count += 1
    return None if count else "is empty: not a pcapng capture"
