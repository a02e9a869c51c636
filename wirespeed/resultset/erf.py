"""Endace ERF (Extensible Record Format) captures: the record types and the content check.

ERF has no file header and no magic number: a file is a run of records, each a 16-byte header
(timestamp: 64-bit little-endian fixed point, 32 bits of seconds and 32 of fraction; then type,
flags, and big-endian rlen (the record's length), lctr (loss counter, or colour) and wlen (the
frame's length on the wire, the Ethernet FCS included)), optional 8-byte extension headers (type
bit 7, then bit 7 of each extension header's first byte: another follows), and the frame: for the
Ethernet types after a 2-byte pad. A file is recognised as Wireshark does (wiretap/erf.c, erf.h):
its first records, up to RECORDS_FOR_CHECK, must be well formed — a known type, reserved flag bits
clear, an rlen that holds the header — and chain record to record; at least MIN_RECORDS of them,
unless the file ends sooner, exactly at a record's end. The records are decoded by wirespeed.capture.scan.scan_erf.
"""

from __future__ import annotations

import struct

HEAD = 65536  # the bytes the check reads: importers' sniff head, and the first chunk loading checks
MIN_RECORDS, RECORDS_FOR_CHECK = 3, 20  # wiretap/erf.h: MIN_RECORDS_FOR_ERF_CHECK, RECORDS_FOR_ERF_CHECK

ETHERNET_TYPES = (2, 11, 16, 20)  # ETH, COLOR_ETH, DSM_COLOR_ETH, COLOR_HASH_ETH: a 2-byte pad before the frame
NAMES = {1: "HDLC_POS", 2: "ETH", 3: "ATM", 4: "AAL5", 5: "MC_HDLC", 6: "MC_RAW", 7: "MC_ATM", 8: "MC_RAW_CHANNEL",
         9: "MC_AAL5", 10: "COLOR_HDLC_POS", 11: "COLOR_ETH", 12: "MC_AAL2", 13: "IP_COUNTER", 14: "TCP_FLOW_COUNTER",
         15: "DSM_COLOR_HDLC_POS", 16: "DSM_COLOR_ETH", 17: "COLOR_MC_HDLC_POS", 18: "AAL2", 19: "COLOR_HASH_POS",
         20: "COLOR_HASH_ETH", 21: "INFINIBAND", 22: "IPV4", 23: "IPV6", 24: "RAW_LINK", 25: "INFINIBAND_LINK",
         27: "META", 28: "OPA_SNC", 29: "OPA_9B", 48: "PAD"}
SUPPORTED = "Ethernet (ERF types 2, 11, 16, 20), IPv4 (22), IPv6 (23)"


def type_name(rtype: int) -> str:
    base = rtype & 0x7F
    return f"{base} ({NAMES.get(base, 'unknown')})"


def _record(head: bytes, pos: int) -> int:
    """The length of the well-formed record at pos, or 0."""
    rtype, flags, rlen = struct.unpack_from(">BBH", head, pos + 8)
    if (rtype & 0x7F) not in NAMES or flags & 0xC0 or rlen < 16:
        return 0
    hdr, more = 16, rtype & 0x80
    while more:
        if hdr + 8 > rlen or pos + hdr >= len(head):
            return 0
        more, hdr = head[pos + hdr] & 0x80, hdr + 8
    if (rtype & 0x7F) in ETHERNET_TYPES and rlen < hdr + 2:
        return 0
    return rlen


def looks_like(head: bytes) -> bool:
    """True when the bytes (the first HEAD of a file, or the whole of a shorter one) are ERF records.
    Text never is (it has no NUL byte; an ERF record of an Ethernet type has two, its pad), however
    its characters happen to read as record headers."""
    if b"\0" not in head:
        return False
    pos, good = 0, 0
    while good < RECORDS_FOR_CHECK and pos + 16 <= len(head):
        rlen = _record(head, pos)
        if not rlen:
            return False
        pos, good = pos + rlen, good + 1
    return good >= MIN_RECORDS or (len(head) < HEAD and good >= 1 and pos == len(head))
