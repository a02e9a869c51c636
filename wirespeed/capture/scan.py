"""Record scanners (numba): walk pcap records and pcapng blocks of a byte buffer sequentially.

Offsets of variable-length records can only be found one after another, so this loop is compiled,
and each frame is decoded (decode.decode_one) as soon as it is found, while its bytes are in cache.
Each record's position depends on the one before, so a loop over a memory map would wait for memory
at every record; the pcapng scanner touches one byte per 64-byte line AHEAD bytes in front of
itself, which makes those reads sequential (measured: 2 GB/s without, over 15 GB/s with, from the
page cache). pcap is read in 1 MiB pieces that are still in the L2 cache when they are scanned.
Each scanner fills preallocated arrays for at most `room` records and stops at `stop` (a chunk
boundary: a record that starts before it is read whole, even when it ends after it) or at a block it
leaves to Python. Status codes: 0 chunk done or end of data, 1 record runs past the end of the file,
2 implausible length, 3 a pcapng block Python must read (section header, interface description),
4 a frame longer than `max_frame` bytes on the wire (its size is left in seq[n], the slot the frame
would have taken: the size column is 16-bit and a frame is never stored modulo 65,536).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wirespeed.capture.decode import NO_TIME, decode_one
from wirespeed.capture.fields import be32, le32

OK, TRUNCATED, BAD_LENGTH, NEEDS_PYTHON, TOO_LARGE = 0, 1, 2, 3, 4
MAX_RECORD = 1 << 18  # 256 KiB: above any snaplen tcpdump or Wireshark write
AHEAD = 16384


@njit(cache=True)
def _touch(buf, pf, pos, size, acc):
    lim = min(pos + AHEAD, size)
    while pf < lim:
        acc ^= buf[pf]
        pf += 64
    return pf, acc


@njit(cache=True)
def u32(buf, p, swap):
    return be32(buf, p) if swap else le32(buf, p)


@njit(cache=True, nogil=True)
def scan_pcap(buf, pos, stop, swap, nano, lt, max_frame, ts, size, flags, key, seq, txts, room):
    """pcap records from pos: 16-byte header (sec, µs|ns, caplen, len) then caplen bytes.
    Returns (records, next position, status). Called on pieces read into a buffer that stays in
    cache (reader.py), so it needs no prefetching touch."""
    n = 0
    nbytes = buf.size
    mult = 1 if nano else 1000
    while n < room and pos < stop and pos < nbytes:
        if pos + 16 > nbytes:
            return n, pos, TRUNCATED
        sec = np.int64(u32(buf, pos, swap))
        frac = np.int64(u32(buf, pos + 4, swap))
        cl = np.int64(u32(buf, pos + 8, swap))
        ol = np.int64(u32(buf, pos + 12, swap))
        if cl > MAX_RECORD:
            return n, pos, BAD_LENGTH
        if pos + 16 + cl > nbytes:
            return n, pos, TRUNCATED
        sz, fl, k, sq, tx = decode_one(buf, pos + 16, cl, ol, lt)
        if sz > max_frame:
            seq[n] = sz
            return n, pos, TOO_LARGE
        ts[n] = sec * 1_000_000_000 + frac * mult
        size[n], flags[n], key[n], seq[n], txts[n] = sz, fl, k, sq, tx
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


@njit(cache=True, nogil=True)
def scan_pcapng(buf, pos, stop, swap, if_base, n_if, resol, tsoff, snap, linktypes, max_frame,
                ts, size, flags, key, seq, txts, room):
    """Blocks of one section from pos: EPB and SPB become records, SHB/IDB return to Python,
    every other block type is skipped (its count is the fifth value returned)."""
    n = 0
    skipped = 0
    nbytes = buf.size
    pf, acc = pos, np.uint8(0)
    while n < room and pos < stop and pos < nbytes:
        pf, acc = _touch(buf, pf, pos, nbytes, acc)
        if pos + 12 > nbytes:
            return n, pos, TRUNCATED, skipped, acc
        btype = u32(buf, pos, swap)
        if btype == 0x0A0D0D0A or btype == 1:  # a new section may change the byte order: Python reads it
            return n, pos, NEEDS_PYTHON, skipped, acc
        blen = np.int64(u32(buf, pos + 4, swap))
        if blen < 12 or blen % 4 != 0 or blen > MAX_RECORD + 64:
            return n, pos, BAD_LENGTH, skipped, acc
        if pos + blen > nbytes:
            return n, pos, TRUNCATED, skipped, acc
        if btype == 6:  # enhanced packet block
            if blen < 32:
                return n, pos, BAD_LENGTH, skipped, acc
            i = np.int64(u32(buf, pos + 8, swap))
            if i >= n_if:
                return n, pos, BAD_LENGTH, skipped, acc
            units = (np.int64(u32(buf, pos + 12, swap)) << 32) | np.int64(u32(buf, pos + 16, swap))
            cl = np.int64(u32(buf, pos + 20, swap))
            if 28 + cl > blen - 4:
                return n, pos, BAD_LENGTH, skipped, acc
            sz, fl, k, sq, tx = decode_one(buf, pos + 28, cl, np.int64(u32(buf, pos + 24, swap)), linktypes[if_base + i])
            if sz > max_frame:
                seq[n] = sz
                return n, pos, TOO_LARGE, skipped, acc
            ts[n] = _ns(units, resol[if_base + i], tsoff[if_base + i])
            size[n], flags[n], key[n], seq[n], txts[n] = sz, fl, k, sq, tx
            n += 1
        elif btype == 3:  # simple packet block: interface 0, no timestamp
            if n_if < 1:
                return n, pos, BAD_LENGTH, skipped, acc
            ol = np.int64(u32(buf, pos + 8, swap))
            cl = min(ol, blen - 16)
            s = snap[if_base]
            if s > 0 and cl > s:
                cl = s
            sz, fl, k, sq, tx = decode_one(buf, pos + 12, cl, ol, linktypes[if_base])
            if sz > max_frame:
                seq[n] = sz
                return n, pos, TOO_LARGE, skipped, acc
            ts[n] = -1
            size[n], flags[n], key[n], seq[n], txts[n] = sz, fl | NO_TIME, k, sq, tx
            n += 1
        else:
            skipped += 1
        pos += blen
    return n, pos, OK, skipped, acc
