"""Small capture files built byte by byte with struct, for the capture tests (no capture library)."""

from __future__ import annotations

import struct

T0 = 1_790_000_000 * 10**9


def udp_frame(seq: int, size: int = 128, vlans: tuple[int, ...] = (), ipv6: bool = False, txts: int | None = None,
              ttl: int = 64, mac: bytes = b"\x02\x00\x00\x00\x00\x01", src: bytes = bytes([198, 18, 0, 1])) -> bytes:
    """An Ethernet frame of `size` bytes on the wire (FCS included; returned without it) carrying the signature."""
    l3 = 40 if ipv6 else 20
    payload_len = size - 4 - 14 - 4 * len(vlans) - l3 - 8
    sig = b"WSPD" + struct.pack(">Q", seq) + (struct.pack(">Q", txts) if txts is not None else b"")
    payload = sig[:payload_len].ljust(payload_len, b"\0")
    udp = struct.pack(">HHHH", 49152, 7, 8 + payload_len, 0xBEEF) + payload
    if ipv6:
        ip = struct.pack(">IHBB16s16s", 0x60000000, len(udp), 17, ttl, b"\x20\x01\x0d\xb8" + bytes(11) + b"\x01",
                         b"\x20\x01\x0d\xb8" + bytes(11) + b"\x02") + udp
        et = 0x86DD
    else:
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xFFFF, 0, ttl, 17, ttl * 7, src, bytes([198, 19, 0, 1])) + udp
        et = 0x0800
    tags = b"".join(struct.pack(">HH", 0x88A8 if i == 0 and len(vlans) > 1 else 0x8100, v) for i, v in enumerate(vlans))
    return b"\x02\x00\x00\x00\x00\x02" + mac + tags + struct.pack(">H", et) + ip


def pcap(records: list[tuple[int, bytes]], nano: bool = True, big: bool = False, linktype: int = 1,
         snaplen: int = 65535) -> bytes:
    """records: (timestamp ns, frame); frames longer than snaplen are cut (caplen < len)."""
    e = ">" if big else "<"
    out = [struct.pack(e + "IHHiIII", 0xA1B23C4D if nano else 0xA1B2C3D4, 2, 4, 0, 0, snaplen, linktype)]
    for ts, frame in records:
        frac = ts % 10**9 if nano else (ts % 10**9) // 1000
        cap = frame[:snaplen]
        out.append(struct.pack(e + "IIII", ts // 10**9, frac, len(cap), len(frame)) + cap)
    return b"".join(out)


def _block(e: str, btype: int, body: bytes) -> bytes:
    body += bytes(-len(body) % 4)
    n = len(body) + 12
    return struct.pack(e + "II", btype, n) + body + struct.pack(e + "I", n)


def _opt(e: str, code: int, value: bytes) -> bytes:
    return struct.pack(e + "HH", code, len(value)) + value + bytes(-len(value) % 4)


def pcapng_section(interfaces: list[tuple[int, int | None]], packets: list[tuple], big: bool = False,
                   snaplen: int = 0) -> bytes:
    """interfaces: (linktype, if_tsresol byte or None for the default 10^-6);
    packets: ("epb", interface, ts_ns, frame) | ("spb", frame) | ("unknown", block type, body)."""
    e = ">" if big else "<"
    out = [_block(e, 0x0A0D0D0A, struct.pack(e + "IHHq", 0x1A2B3C4D, 1, 0, -1))]
    resols = []
    for lt, resol in interfaces:
        opts = (_opt(e, 9, bytes([resol])) if resol is not None else b"") + _opt(e, 0, b"")
        out.append(_block(e, 1, struct.pack(e + "HHI", lt, 0, snaplen) + opts))
        resols.append(6 if resol is None else resol)
    for p in packets:
        if p[0] == "epb":
            _, i, ts, frame = p
            r = resols[i]
            units = (ts * (1 << (r & 0x7F))) // 10**9 if r & 0x80 else ts // 10 ** (9 - r)
            cap = frame[:snaplen] if snaplen else frame
            out.append(_block(e, 6, struct.pack(e + "IIIII", i, units >> 32, units & 0xFFFFFFFF, len(cap), len(frame)) + cap))
        elif p[0] == "spb":
            out.append(_block(e, 3, struct.pack(e + "I", len(p[1])) + p[1]))
        else:
            out.append(_block(e, p[1], p[2]))
    return b"".join(out)


def erf(records: list[tuple], align: int = 8) -> bytes:
    """Endace ERF records (ts_ns, type, frame[, flags, lctr, ext_headers]): the header's 64-bit
    little-endian timestamp in 2^-32 s, big-endian rlen/lctr/wlen, extension headers after it (type bit
    7), a 2-byte pad before an Ethernet frame, the 4 FCS bytes captured (wlen counts them) and rlen
    padded to `align` bytes, as Endace cards and T-Rex's writer (src/common/erf.cpp) write them.
    For IPv4/IPv6 types (22, 23) `frame` is the IP packet, with no pad nor FCS."""
    out = []
    for ts, rtype, frame, *rest in records:
        flags, lctr, ext = (list(rest) + [4, 0, 0][len(rest):])[:3]
        eth = (rtype & 0x7F) in (2, 11, 16, 20)
        body = b"".join(bytes([0x80 if i < ext - 1 else 0]) + bytes(7) for i in range(ext))
        body += (b"\0\0" + frame + b"\xde\xad\xbe\xef") if eth else frame
        wlen = len(frame) + 4 if eth else len(frame)
        rlen = 16 + len(body)
        pad = -rlen % align
        stamp = (ts // 10**9 << 32) | ((ts % 10**9 << 32) // 10**9)
        out.append(struct.pack("<Q", stamp) + struct.pack(">BBHHH", rtype | (0x80 if ext else 0), flags, rlen + pad, lctr, wlen) + body + bytes(pad))
    return b"".join(out)
