"""An independent, slow reading of captures and the figures of a pair, straight from the definitions:
struct parsing, dict matching, RFC 4737 / RFC 3393 / RFC 3550 written out (no wirespeed code)."""

from __future__ import annotations

import struct


def ref_parse(data: bytes):
    """(ts_ns, wire size, key) per record: an independent reader for little-endian ns pcap + Ethernet/IPv4/UDP."""
    assert data[:4] == b"\x4d\x3c\xb2\xa1"
    out, p = [], 24
    while p < len(data):
        sec, ns, cap, wire = struct.unpack_from("<IIII", data, p)
        frame = data[p + 16:p + 16 + cap]
        p += 16 + cap
        q = 12
        while frame[q:q + 2] in (b"\x81\x00", b"\x88\xa8"):
            q += 4
        ip = frame[q + 2:]
        ihl = (ip[0] & 15) * 4
        udp = ip[ihl:]
        key = (ip[12:16], ip[16:20], ip[4:6], ip[9], udp[0:4], udp[8:8 + 24])
        out.append((sec * 10**9 + ns, wire + 4, key))
    return out


def ref_pair(tx, rx, offset=0):
    """The figures, straight from the definitions (RFC 4737, RFC 3393, RFC 3550)."""
    by_key: dict = {}
    for i, (_, _, k) in enumerate(tx):
        by_key.setdefault(k, []).append(i)
    used, arrivals, dup, unmatched = set(), [], 0, 0
    for ts, _, k in rx:
        cands = by_key.get(k)
        if not cands:
            unmatched += 1
            continue
        free = [i for i in cands if i not in used]
        if not free:
            dup += 1
            continue
        used.add(free[0])
        arrivals.append((free[0], ts - tx[free[0]][0] - offset))
    seqs = [s for s, _ in arrivals]
    lat = [d for _, d in arrivals]
    next_exp, reordered, extents = seqs[0], 0, []
    for i, s in enumerate(seqs):
        if s >= next_exp:
            next_exp = s + 1
        else:
            reordered += 1
            extents.append(i - min(j for j in range(i) if seqs[j] > s))
    delay = {s: d for s, d in arrivals}
    ipdv = [abs(delay[i + 1] - delay[i]) for i in range(len(tx) - 1) if i in delay and i + 1 in delay]
    j = 0.0
    for a, b in zip(lat, lat[1:]):
        j += (abs(b - a) - j) / 16
    return {"tx": len(tx), "rx": len(arrivals), "lost": len(tx) - len(arrivals), "duplicate": dup, "unmatched": unmatched,
            "reordered": reordered, "reorder_extent_max": max(extents, default=0), "latency_min": min(lat), "latency_max": max(lat),
            "latency_avg": sum(lat) / len(lat), "ipdv_avg": sum(ipdv) / len(ipdv), "ipdv_max": max(ipdv), "interarrival_jitter": j,
            "sorted": sorted(lat)}
