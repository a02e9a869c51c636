"""Frame decoding (numba): Ethernet with 802.1Q/802.1ad tags, Linux cooked, raw IP; IPv4, IPv6, UDP.

For each frame: its Ethernet frame size (FCS included), flags, a 64-bit match key and, when the UDP
payload carries the wirespeed signature, a sequence number and a transmit timestamp.

Match key: a hash of the bytes a router does not change — IPv4 source, destination, identification
and protocol (IPv6: source, destination, next header), the UDP ports and the first 24 bytes of the
UDP payload (or of the layer-4 bytes for other protocols). MAC addresses, VLAN tags, TTL / hop limit
and checksums are left out. A field past the captured length (caplen < len) is unknown, never read:
the key then covers the bytes captured and the frame has the TRUNCATED flag.

Signature (docs/captures.md): UDP payload bytes 0-3 "WSPD", 4-11 sequence number, 12-19 transmit
time in ns since the Unix epoch, both unsigned big-endian.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wirespeed.capture.loads import be16, be32, be64

IPV4, IPV6, UDP, TRUNCATED, SIGNATURE, NO_TIME = 1, 2, 4, 8, 16, 32
ETHERNET, RAW, IPV4_ONLY, IPV6_ONLY, LINUX_SLL = 1, 101, 228, 229, 113
LINKTYPES = {ETHERNET: "Ethernet", RAW: "raw IP", IPV4_ONLY: "raw IPv4", IPV6_ONLY: "raw IPv6", LINUX_SLL: "Linux cooked (SLL)"}
PAYLOAD_KEY_BYTES = 24
MAGIC = 0x57535044  # "WSPD"
M1 = np.uint64(0x9E3779B97F4A7C15)
M2 = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True)
def _be(buf, p, nbytes):
    if nbytes == 8:
        return be64(buf, p)
    if nbytes == 4:
        return be32(buf, p)
    if nbytes == 2:
        return be16(buf, p)
    v = np.uint64(0)
    for k in range(nbytes):
        v = (v << np.uint64(8)) | np.uint64(buf[p + k])
    return v


@njit(cache=True)
def _head(buf, p, avail):
    """The `avail` (1-7) bytes from p as the top bytes of a big-endian word, the others zero."""
    if p + 8 <= buf.size:
        s = np.uint64(8 * (8 - avail))
        return (be64(buf, p) >> s) << s
    return _be(buf, p, avail) << np.uint64(8 * (8 - avail))


@njit(cache=True)
def _mix(h, w):
    h = (h ^ w) * M1
    return h ^ (h >> np.uint64(31))


@njit(cache=True)
def _words(buf, h, p, avail):
    """Mix `avail` bytes from p in big-endian 8-byte words (a short last word is zero-padded)."""
    while avail >= 8:
        h = _mix(h, _be(buf, p, 8))
        p += 8
        avail -= 8
    if avail > 0:
        h = _mix(h, _head(buf, p, avail))
    return h


@njit(cache=True)
def decode_one(buf, p, caplen, wirelen, lt):
    """The frame of `caplen` captured bytes at p (of `wirelen` on the wire): (size, flags, key, seq, txts).

    Values are returned, not stored into the caller's arrays: arrays handed to an inlined function
    cost reference counting in the scanners' loop (measured: 40 % of the decode time)."""
    end = p + caplen
    f = 0
    h = np.uint64(0x243F6A8885A308D3)
    sz = np.int64(0)
    sq = np.int64(-1)
    tx = np.int64(-1)
    et = -1
    l3 = p
    if lt == ETHERNET:
        sz = wirelen + 4
        q = p + 12
        while q + 2 <= end:
            t = (np.int64(buf[q]) << 8) | np.int64(buf[q + 1])
            if t == 0x8100 or t == 0x88A8 or t == 0x9100:
                q += 4
            else:
                et = t
                break
        l3 = q + 2
    elif lt == LINUX_SLL:
        sz = wirelen - 16 + 18
        if p + 16 <= end:
            et = (np.int64(buf[p + 14]) << 8) | np.int64(buf[p + 15])
        l3 = p + 16
    else:
        if p < end:
            v = buf[p] >> 4
            et = 0x0800 if v == 4 else (0x86DD if v == 6 else -1)
        sz = wirelen + 18
    l4 = -1
    proto = -1
    if et == 0x0800:
        if l3 + 20 <= end:
            f |= IPV4
            ihl = np.int64(buf[l3] & 15) * 4
            proto = np.int64(buf[l3 + 9])
            if lt != ETHERNET and lt != LINUX_SLL:
                sz = ((np.int64(buf[l3 + 2]) << 8) | np.int64(buf[l3 + 3])) + 18
            h = _mix(h, _be(buf, l3 + 12, 8))
            h = _mix(h, (_be(buf, l3 + 4, 2) << np.uint64(8)) | np.uint64(proto))
            frag = ((np.int64(buf[l3 + 6]) & 0x1F) << 8) | np.int64(buf[l3 + 7])
            if frag == 0:
                l4 = l3 + ihl
        else:
            f |= TRUNCATED
    elif et == 0x86DD:
        if l3 + 40 <= end:
            f |= IPV6
            proto = np.int64(buf[l3 + 6])
            if lt != ETHERNET and lt != LINUX_SLL:
                sz = ((np.int64(buf[l3 + 4]) << 8) | np.int64(buf[l3 + 5])) + 40 + 18
            h = _words(buf, h, l3 + 8, 32)
            h = _mix(h, np.uint64(proto))
            l4 = l3 + 40
        else:
            f |= TRUNCATED
    elif et == -1:
        f |= TRUNCATED
    if l4 >= 0:
        if proto == 17:
            if l4 + 8 <= end:
                f |= UDP
                h = _mix(h, _be(buf, l4, 4))
                pl = l4 + 8
                avail = min(end - pl, np.int64(_be(buf, l4 + 4, 2)) - 8)
                if end - pl < PAYLOAD_KEY_BYTES and avail < np.int64(_be(buf, l4 + 4, 2)) - 8:
                    f |= TRUNCATED
                n = min(avail, PAYLOAD_KEY_BYTES)
                if n > 0:
                    h = _words(buf, h, pl, n)
                if avail >= 12 and _be(buf, pl, 4) == MAGIC:
                    f |= SIGNATURE
                    sq = np.int64(_be(buf, pl + 4, 8))
                    if avail >= 20:
                        tx = np.int64(_be(buf, pl + 12, 8))
            else:
                f |= TRUNCATED
        else:
            n = min(end - l4, PAYLOAD_KEY_BYTES)
            if n < PAYLOAD_KEY_BYTES:
                f |= TRUNCATED
            if n > 0:
                h = _words(buf, h, l4, n)
    h = h ^ (h >> np.uint64(33))
    h = h * M2
    return sz, f, h ^ (h >> np.uint64(29)), sq, tx


@njit(cache=True)
def decode(buf, off, caplen, wirelen, iface, linktypes, size, flags, key, seq, txts):
    """decode_one over arrays of record offsets (for tests and tools that find records themselves)."""
    for i in range(off.size):
        size[i], flags[i], key[i], seq[i], txts[i] = decode_one(buf, off[i], caplen[i], wirelen[i], linktypes[iface[i]])
