"""A synthetic capture pair for the capture benchmark (benchmark input, never published data).

tx.pcap: Ethernet/IPv4/UDP frames 198.18.0.1 -> 198.19.0.1 carrying the wirespeed signature, sizes
cycling through `sizes`, `gap_ns` apart. rx.pcap: the same frames `latency_ns` (+ up to `jitter_ns`)
later in arrival order, with a `loss` fraction dropped and a `dup` fraction duplicated; jitter larger
than the gap reorders frames. Written with numpy in chunks, nanosecond pcap, little-endian.
"""

from __future__ import annotations

import struct

import numpy as np

HEADER = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1)
T0 = 1_790_000_000 * 10**9


def template(size: int) -> bytes:
    """An Ethernet frame of `size` bytes with FCS, as captured (without the FCS)."""
    payload = size - 4 - 14 - 20 - 8
    udp = struct.pack(">HHHH", 49152, 7, 8 + payload, 0) + b"WSPD" + bytes(payload - 4)
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                     bytes([198, 18, 0, 1]), bytes([198, 19, 0, 1])) + udp
    return b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" + b"\x08\x00" + ip


def _gather(src: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    total = int(lens.sum())
    first = np.zeros(lens.size, np.int64)
    np.cumsum(lens[:-1], out=first[1:])
    idx = np.repeat(starts - first, lens) + np.arange(total, dtype=np.int64)
    return src[idx]


def _put(buf, at, value: np.ndarray, nbytes: int, big: bool):
    for k in range(nbytes):
        shift = 8 * (nbytes - 1 - k) if big else 8 * k
        buf[at + k] = (value >> shift) & 0xFF


def generate(tx_path, rx_path, n: int, sizes=(64,), gap_ns=100, latency_ns=20_000, jitter_ns=150,
             loss=0.001, dup=0.0005, seed=7, chunk=250_000) -> None:
    rng = np.random.default_rng(seed)
    tmpls = [np.frombuffer(template(s), np.uint8) for s in sizes]
    tlen = np.array([t.size for t in tmpls], np.int64)
    tstart = np.concatenate([[0], np.cumsum(tlen + 16)[:-1]])
    pool = np.concatenate([np.concatenate([np.zeros(16, np.uint8), t]) for t in tmpls])
    with open(tx_path, "wb") as ftx, open(rx_path, "wb") as frx:
        ftx.write(HEADER)
        frx.write(HEADER)
        for a in range(0, n, chunk):
            seq = np.arange(a, min(n, a + chunk), dtype=np.int64)
            kind = seq % len(sizes)
            lens = tlen[kind] + 16
            buf = _gather(pool, tstart[kind], lens)
            off = np.zeros(seq.size, np.int64)
            np.cumsum(lens[:-1], out=off[1:])
            ts = T0 + seq * gap_ns
            _put(buf, off, ts // 10**9, 4, False)
            _put(buf, off + 4, ts % 10**9, 4, False)
            _put(buf, off + 8, lens - 16, 4, False)
            _put(buf, off + 12, lens - 16, 4, False)
            _put(buf, off + 16 + 18, seq & 0xFFFF, 2, True)           # IPv4 identification
            _put(buf, off + 16 + 42 + 4, seq, 8, True)               # signature: sequence number
            room = lens - 16 >= 42 + 20                              # 64-byte frames have room for 12
            _put(buf, off[room] + 16 + 42 + 12, ts[room], 8, True)   # signature: transmit time
            ftx.write(buf.tobytes())
            keep = np.flatnonzero(rng.random(seq.size) >= loss)
            copies = keep[rng.random(keep.size) < dup]
            pick = np.concatenate([keep, copies])
            arrive = ts[pick] + latency_ns + rng.integers(0, jitter_ns + 1, pick.size)
            arrive[keep.size:] += 1000  # a copy comes a microsecond after the original
            order = np.argsort(arrive, kind="stable")
            pick, arrive = pick[order], arrive[order]
            rbuf = _gather(buf, off[pick], lens[pick])
            roff = np.zeros(pick.size, np.int64)
            np.cumsum(lens[pick][:-1], out=roff[1:])
            _put(rbuf, roff, arrive // 10**9, 4, False)
            _put(rbuf, roff + 4, arrive % 10**9, 4, False)
            frx.write(rbuf.tobytes())
