"""Figures of one capture and of a matched pair: counts, rates, latency, loss, reordering, delay variation.

All times are int64 ns. Definitions:
- latency of a frame = receive timestamp − transmit timestamp − clock offset (stated, see pair());
- lost = transmit frames never received; duplicate = received copies of a frame already received;
  unmatched = received frames of no transmit frame (not part of the test: reported, not counted);
- reordered (RFC 4737 §3.3): a frame whose sequence number (its transmit order) is below the next
  expected one, NextExp = 1 + the largest sequence number received so far; reordering extent
  (§4.2.2): arrival position minus the earliest arrival position of a frame with a larger number;
- IPDV (RFC 3393): D(i+1) − D(i) for frames consecutive in transmit order and both received;
  ipdv_avg is the mean of |IPDV|, ipdv_max the largest |IPDV|;
- interarrival jitter (RFC 3550 §6.4.1): J += (|D(i−1,i)| − J)/16 over frames in arrival order, the
  value after the last frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from wirespeed.capture.errors import CaptureError
from wirespeed.capture.histogram import hdr, percentiles
from wirespeed.capture.matching import DUPLICATE, UNMATCHED

NS = 1_000_000_000
L1_OVERHEAD = 20  # preamble + start delimiter + inter-frame gap, bytes
MAX_GROUPS = 32
MAX_SECONDS = 100_000  # one-second samples of one test: the row limit of a table (resultset/limits.py)


@dataclass
class Group:
    """Figures of the frames of one frame size (or all frames when frame_size is None)."""

    frame_size: int | None
    values: dict[str, float | int] = field(default_factory=dict)
    samples: list[dict] = field(default_factory=list)
    histogram: list[tuple[float, float, int]] = field(default_factory=list)


@dataclass
class PairResult:
    groups: list[Group]
    clock_offset_ns: int
    clock_method: str
    unmatched: int
    t0_ns: int


@njit(cache=True, nogil=True)
def _bins(t, size, lat, t0, nb):
    """Per one-second bin: frames, bytes, latency sum and max (lat < 0: no latency)."""
    cnt = np.zeros(nb, np.int64)
    byt = np.zeros(nb, np.int64)
    lsum = np.zeros(nb, np.float64)
    lcnt = np.zeros(nb, np.int64)
    lmax = np.full(nb, -1, np.int64)
    for i in range(t.size):
        b = (t[i] - t0) // 1_000_000_000
        if b < 0 or b >= nb:
            continue
        cnt[b] += 1
        byt[b] += size[i]
        if lat[i] >= 0:
            lsum[b] += lat[i]
            lcnt[b] += 1
            if lat[i] > lmax[b]:
                lmax[b] = lat[i]
    return cnt, byt, lsum, lcnt, lmax


@njit(cache=True, nogil=True)
def _jitter3550(lat):
    j = 0.0
    for i in range(1, lat.size):
        d = lat[i] - lat[i - 1]
        j += (abs(d) - j) / 16.0
    return j


@njit(cache=True, nogil=True)
def _first_copies(idx, n_tx):
    """Mark later copies of an already received transmit index as DUPLICATE (in place)."""
    seen = np.zeros(n_tx, np.bool_)
    for j in range(idx.size):
        t = idx[j]
        if t >= 0:
            if seen[t]:
                idx[j] = DUPLICATE
            else:
                seen[t] = True
    return idx


@njit(cache=True, nogil=True)
def _reordering(idx):
    """RFC 4737 over transmit indexes in arrival order: frames below NextExp (a larger index arrived
    before), and the largest extent: arrival position minus the first position whose running
    maximum exceeds the frame's index (binary search over the running maximum, non-decreasing)."""
    n = idx.size
    runmax = np.empty(n, np.int64)
    m = idx[0]
    count, extent = 0, 0
    for j in range(n):
        if j and idx[j] < m:
            count += 1
            lo, hi = 0, j  # first k with runmax[k] > idx[j] (exists: runmax[j-1] = m > idx[j])
            while lo < hi:
                mid = (lo + hi) // 2
                if runmax[mid] > idx[j]:
                    hi = mid
                else:
                    lo = mid + 1
            extent = max(extent, j - lo)
        m = max(m, idx[j])
        runmax[j] = m
    return count, extent


@njit(cache=True, nogil=True)
def _ipdv(idx, lat, n_tx):
    """|D(i+1) − D(i)| (RFC 3393) for transmit frames i, i+1 both received, in transmit order."""
    d = np.empty(n_tx, np.int64)
    have = np.zeros(n_tx, np.bool_)
    for j in range(idx.size):
        d[idx[j]] = lat[j]
        have[idx[j]] = True
    out = np.empty(max(n_tx - 1, 0), np.int64)
    k = 0
    for i in range(n_tx - 1):
        if have[i] and have[i + 1]:
            out[k] = abs(d[i + 1] - d[i])
            k += 1
    return out[:k]


def one_capture(ts: np.ndarray, size: np.ndarray) -> dict:
    """Counts, bytes, duration, mean rates and inter-arrival statistics of one capture's frames."""
    t = ts[ts >= 0]
    n = int(size.size)
    gaps = np.diff(np.sort(t)) if t.size > 1 and not np.all(t[1:] >= t[:-1]) else np.diff(t)
    dur = int(t[-1] - t[0]) if t.size > 1 else 0
    total = int(size.sum(dtype=np.int64))
    out = {"frames": n, "bytes": total, "duration_ns": dur,
           "rate_pps": n / (dur / NS) if dur else None, "l1_bps": (total + L1_OVERHEAD * n) * 8 / (dur / NS) if dur else None}
    if gaps.size:
        out.update(gap_min_ns=int(gaps.min()), gap_mean_ns=float(gaps.mean()), gap_max_ns=int(gaps.max()),
                   gap_std_ns=float(gaps.std()), gap_p50_ns=float(np.median(gaps)))
    return out


class RowsPast(CaptureError):
    """More rows than a limit allows, found before they are made: `rows` is how many at least."""

    def __init__(self, rows: int, limit: int):
        self.rows = rows
        super().__init__("", "", f"the capture makes at least {rows:,} rows (one a second per frame size, with the latency buckets): "
                         f"more than the limit of {limit:,} rows of one native file", "limit.rows")


def samples(t0: int, tx_ts, tx_size, rx_ts, rx_size, rx_lat, room: int | None = None) -> list[dict]:
    """One row a second from t0: frames, rates (L1 counts 20 bytes a frame more) and latency.
    With `room`, the seconds that have frames are counted first and more than `room` of them raise
    CaptureError (limit.rows) before any row is made."""
    end = max(int(tx_ts.max()) if tx_ts.size else t0, int(rx_ts.max()) if rx_ts.size else t0)
    nb = (end - t0) // NS + 1
    if nb > MAX_SECONDS:
        raise CaptureError("", "timestamps", f"the frames span {nb:,} s: more than {MAX_SECONDS:,} one-second samples "
                           "(a damaged timestamp, or captures of different days)", "capture.duration")
    none = np.full(tx_ts.size, -1, np.int64)
    tc, tb, _, _, _ = _bins(tx_ts, tx_size.astype(np.int64), none, t0, nb)
    rc, rb, ls, lc, lm = _bins(rx_ts, rx_size.astype(np.int64), rx_lat, t0, nb)
    if room is not None and (busy := int(np.count_nonzero((tc > 0) | (rc > 0)))) > room:
        raise RowsPast(busy, room)
    rows = []
    for b in range(nb):
        if not tc[b] and not rc[b]:
            continue
        r = {"t_s": b, "tx": int(tc[b]), "rx": int(rc[b]), "tx_rate": int(tc[b]), "rx_rate": int(rc[b]),
             "tx_l1": int((tb[b] + L1_OVERHEAD * tc[b]) * 8), "rx_l1": int((rb[b] + L1_OVERHEAD * rc[b]) * 8)}
        if lc[b]:
            r["latency_avg"] = float(ls[b] / lc[b])
            r["latency_max"] = int(lm[b])
        rows.append(r)
    return rows


def _nice_width(span_ns: float, buckets: int = 50) -> int:
    raw = max(1.0, span_ns / buckets)
    mag = 10 ** math.floor(math.log10(raw))
    return int(next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw))


def histogram_rows(lat: np.ndarray) -> list[tuple[float, float, int]]:
    """Non-empty latency buckets in µs, of a 1-2-5 width giving at most about 50 buckets."""
    lo, hi = int(lat.min()), int(lat.max())
    w = _nice_width(hi - lo + 1)
    first = lo // w
    counts = np.bincount(lat // w - first)
    return [((first + k) * w / 1000, (first + k + 1) * w / 1000, int(c)) for k, c in enumerate(counts.tolist()) if c]


def group_figures(tx_ts, tx_size, rx_ts, rx_size, rx_idx, offset: int, t0: int, room: int | None = None) -> tuple[dict, list[dict], list]:
    """The figures of one group: rx_idx maps each received frame to its transmit index or a code.
    `room`: how many sample rows it may make (samples() checks before making them)."""
    got = rx_idx >= 0
    idx = rx_idx[got]
    lat = rx_ts[got] - tx_ts[idx] - offset
    n_tx, n_rx = int(tx_ts.size), int(idx.size)
    v: dict[str, float | int] = {"tx": n_tx, "rx": n_rx, "lost": n_tx - n_rx, "loss": (n_tx - n_rx) / n_tx * 100 if n_tx else 0.0,
                                 "duplicate": int((rx_idx == DUPLICATE).sum()), "unmatched": int((rx_idx == UNMATCHED).sum())}
    if n_tx > 1:
        v["duration"] = int(tx_ts.max() - tx_ts.min())
        v["tx_rate"] = n_tx / (v["duration"] / NS) if v["duration"] else 0
    if n_rx:
        v["reordered"], v["reorder_extent_max"] = (int(x) for x in _reordering(idx))
        v["latency_min"], v["latency_max"], v["latency_avg"] = int(lat.min()), int(lat.max()), float(lat.mean())
        if n_rx > 1:
            span = int(rx_ts[got].max() - rx_ts[got].min())
            v["rx_rate"] = n_rx / (span / NS) if span else 0
        v["interarrival_jitter"] = float(_jitter3550(lat))
        ipdv = _ipdv(idx, lat, n_tx)
        if ipdv.size:
            v["ipdv_avg"], v["ipdv_max"] = float(ipdv.mean()), int(ipdv.max())
        if lat.min() >= 0:
            v.update(percentiles(hdr(lat)))
    full_lat = np.full(rx_ts.size, -1, np.int64)
    full_lat[got] = lat
    ours = rx_idx != UNMATCHED
    rows = samples(t0, tx_ts, tx_size, rx_ts[ours], rx_size[ours], full_lat[ours], room)
    hist = histogram_rows(lat) if n_rx and lat.min() >= 0 else []
    return v, rows, hist


def pair(tx_ts, tx_size, rx_ts, rx_size, rx_idx, tx_file: str, rx_file: str,
         clock_offset: int | str | None = None, by_size: bool = True, max_rows: int | None = None) -> PairResult:
    """Figures of matched frames, per transmit frame size when there are few sizes.

    clock_offset: None = both capture points stamp with the same clock (offset 0);
    an int = a known offset in ns (receive clock minus transmit clock); "min" = estimated as the
    smallest raw latency, so that the fastest frame counts as 0 ns (only variation is then measured).
    max_rows: the rows the figures may make at most (per group: one, its seconds and its latency
    buckets), checked group by group before each group's rows are made (CaptureError, limit.rows).
    """
    rx_idx = _first_copies(rx_idx.copy(), tx_ts.size)
    got = rx_idx >= 0
    if not got.any():
        raise CaptureError(rx_file, "", f"no frame matches a frame of {tx_file}: the two captures are not of the same traffic", "capture.no-match")
    raw = rx_ts[got] - tx_ts[rx_idx[got]]
    if clock_offset == "min":
        offset, method = int(raw.min()), "estimated: the smallest latency of any frame is taken as 0"
    elif clock_offset is None:
        offset, method = 0, "none: both capture points stamp frames with the same clock"
    else:
        offset, method = int(clock_offset), "known offset given at import"
    if int(raw.min()) - offset < 0:
        n_neg = int((raw - offset < 0).sum())
        raise CaptureError(rx_file, "", f"{n_neg} frames arrive before they were sent (down to {int(raw.min()) - offset} ns): "
                           "the capture clocks differ; state the offset (--clock-offset NS) or estimate it (--clock-offset min)", "capture.clock")
    t0 = int(tx_ts[tx_ts >= 0].min())
    sizes = np.unique(tx_size)
    groups: list[Group] = []
    used = 0

    def room() -> int | None:
        return None if max_rows is None else max_rows - used - 1

    def charge(g: Group) -> None:
        nonlocal used
        used += 1 + len(g.samples) + len(g.histogram)
        if max_rows is not None and used > max_rows:
            raise RowsPast(used, max_rows)

    def figures(*args) -> tuple:
        try:
            return group_figures(*args, room())
        except RowsPast as exc:  # the group's seconds alone pass what is left: say how many the capture makes at least
            raise RowsPast(used + 1 + exc.rows, max_rows) from None

    if by_size and sizes.size <= MAX_GROUPS:
        rx_size_of_tx = np.where(got, tx_size[np.maximum(rx_idx, 0)], 0)
        for s in sizes.tolist():
            sel = tx_size == s
            remap = np.cumsum(sel) - 1
            rsel = (rx_size_of_tx == s) & got | ((rx_idx == DUPLICATE) & (rx_size == s))
            ridx = np.where(rx_idx[rsel] >= 0, remap[np.maximum(rx_idx[rsel], 0)], rx_idx[rsel])
            v, rows, hist = figures(tx_ts[sel], tx_size[sel], rx_ts[rsel], rx_size[rsel], ridx, offset, t0)
            v["unmatched"] = 0
            groups.append(Group(int(s), v, rows, hist))
            charge(groups[-1])
    else:
        v, rows, hist = figures(tx_ts, tx_size, rx_ts, rx_size, rx_idx, offset, t0)
        groups.append(Group(None, v, rows, hist))
        charge(groups[-1])
    return PairResult(groups, offset, method, int((rx_idx == UNMATCHED).sum()), t0)


def signature_index(seq: np.ndarray, flags: np.ndarray, txts: np.ndarray, signature_flag: int):
    """One capture whose frames carry the signature: transmit order and times from the payload.

    Returns (tx_ts, rx_idx): transmit slots for every sequence number from the smallest to the
    largest seen (a missing one is a lost frame) and each frame's slot (UNMATCHED without signature).
    """
    has = ((flags & signature_flag) != 0) & (txts >= 0)  # 64-byte frames have room for the number only
    if not has.any():
        return None, None
    lo, hi = int(seq[has].min()), int(seq[has].max())
    n = hi - lo + 1
    if n > 16 * int(has.sum()) + 1024:
        return n, None  # far more numbers than frames: not the sequence of one test
    tx_ts = np.full(n, -1, np.int64)
    rx_idx = np.where(has, seq - lo, UNMATCHED).astype(np.int64)
    first = rx_idx[has][::-1]
    tx_ts[first] = txts[has][::-1]  # reversed so that the first copy's time wins
    return tx_ts, rx_idx
