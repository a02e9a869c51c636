"""Record scanners (numba): walk pcap records and pcapng blocks of a byte buffer sequentially.

Offsets of variable-length records can only be found one after another, so this loop is compiled.
Each scanner fills preallocated arrays for at most `room` records and stops at `stop` (a chunk
boundary: a record that starts before it is read whole, even when it ends after it) or at a block it
leaves to Python. Status codes: 0 chunk done or end of data, 1 record runs past the end of the file,
2 implausible length, 3 a pcapng block Python must read (section header, interface description).
"""

from __future__ import annotations

import numpy as np
from numba import njit

OK, TRUNCATED, BAD_LENGTH, NEEDS_PYTHON = 0, 1, 2, 3
MAX_RECORD = 1 << 18  # 256 KiB: above any snaplen tcpdump or Wireshark write


@njit(cache=True, inline="always")
def u32(buf, p, swap):
    if swap:
        return (np.uint32(buf[p]) << 24) | (np.uint32(buf[p + 1]) << 16) | (np.uint32(buf[p + 2]) << 8) | np.uint32(buf[p + 3])
    return np.uint32(buf[p]) | (np.uint32(buf[p + 1]) << 8) | (np.uint32(buf[p + 2]) << 16) | (np.uint32(buf[p + 3]) << 24)


@njit(cache=True)
def scan_pcap(buf, pos, stop, swap, nano, ts, caplen, wirelen, off, room):
    """pcap records from pos: 16-byte header (sec, µs|ns, caplen, len) then caplen bytes."""
    n = 0
    size = buf.size
    mult = 1 if nano else 1000
    while n < room and pos < stop and pos < size:
        if pos + 16 > size:
            return n, pos, TRUNCATED
        sec = np.int64(u32(buf, pos, swap))
        frac = np.int64(u32(buf, pos + 4, swap))
        cl = np.int64(u32(buf, pos + 8, swap))
        ol = np.int64(u32(buf, pos + 12, swap))
        if cl > MAX_RECORD:
            return n, pos, BAD_LENGTH
        if pos + 16 + cl > size:
            return n, pos, TRUNCATED
        ts[n] = sec * 1_000_000_000 + frac * mult
        caplen[n] = cl
        wirelen[n] = ol
        off[n] = pos + 16
        pos += 16 + cl
        n += 1
    return n, pos, OK


@njit(cache=True)
def _ns(units, resol, offset_s):
    """Timestamp units of an interface (if_tsresol: bit 7 set = 2^-k, else 10^-k) to ns."""
    k = resol & 0x7F
    if resol & 0x80:
        u = np.uint64(units)
        whole = np.int64(u >> np.uint64(k))
        part = np.int64(((u & np.uint64((1 << k) - 1)) * np.uint64(1_000_000_000)) >> np.uint64(k))
        return whole * 1_000_000_000 + part + offset_s * 1_000_000_000
    if k <= 9:
        return np.int64(units) * np.int64(10 ** (9 - k)) + offset_s * 1_000_000_000
    return np.int64(units // np.int64(10 ** (k - 9))) + offset_s * 1_000_000_000


@njit(cache=True)
def scan_pcapng(buf, pos, stop, swap, if_base, n_if, resol, tsoff, snap,
                ts, caplen, wirelen, off, iface, room):
    """Blocks of one section from pos: EPB and SPB become records, SHB/IDB return to Python,
    every other block type is skipped (its count is the fifth value returned)."""
    n = 0
    skipped = 0
    size = buf.size
    while n < room and pos < stop and pos < size:
        if pos + 12 > size:
            return n, pos, TRUNCATED, skipped
        btype = u32(buf, pos, swap)
        blen = np.int64(u32(buf, pos + 4, swap))
        if blen < 12 or blen % 4 != 0 or blen > MAX_RECORD + 64:
            return n, pos, BAD_LENGTH, skipped
        if pos + blen > size:
            return n, pos, TRUNCATED, skipped
        if btype == 0x0A0D0D0A or btype == 1:
            return n, pos, NEEDS_PYTHON, skipped
        if btype == 6:  # enhanced packet block
            if blen < 32:
                return n, pos, BAD_LENGTH, skipped
            i = np.int64(u32(buf, pos + 8, swap))
            if i >= n_if:
                return n, pos, BAD_LENGTH, skipped
            units = (np.int64(u32(buf, pos + 12, swap)) << 32) | np.int64(u32(buf, pos + 16, swap))
            cl = np.int64(u32(buf, pos + 20, swap))
            if 28 + cl > blen - 4:
                return n, pos, BAD_LENGTH, skipped
            ts[n] = _ns(units, resol[if_base + i], tsoff[if_base + i])
            caplen[n] = cl
            wirelen[n] = u32(buf, pos + 24, swap)
            off[n] = pos + 28
            iface[n] = if_base + i
            n += 1
        elif btype == 3:  # simple packet block: interface 0, no timestamp
            if n_if < 1:
                return n, pos, BAD_LENGTH, skipped
            ol = np.int64(u32(buf, pos + 8, swap))
            cl = min(ol, blen - 16)
            s = snap[if_base]
            if s > 0 and cl > s:
                cl = s
            ts[n] = -1
            caplen[n] = cl
            wirelen[n] = ol
            off[n] = pos + 12
            iface[n] = if_base
            n += 1
        else:
            skipped += 1
        pos += blen
    return n, pos, OK, skipped
