"""The capture engine's entry points: a pair of captures, or one capture carrying the signature."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from wirespeed.capture import decode
from wirespeed.capture.errors import CaptureError
from wirespeed.capture.matching import match
from wirespeed.capture.metrics import PairResult, one_capture, pair, signature_index
from wirespeed.capture.reader import CHUNK_BYTES, Frames, read_frames


@dataclass
class Analysis:
    tx: dict
    rx: dict
    result: PairResult
    method: str  # "pair" | "signature"
    tx_frames: Frames
    rx_frames: Frames


def _timed(f: Frames) -> None:
    if (f.flags & decode.NO_TIME).all():
        raise CaptureError(f.file, "", "no frame has a timestamp (simple packet blocks only)", "capture.no-time")


def pair_of(tx: Frames, rx: Frames, clock_offset: int | str | None = None, by_size: bool = True, max_rows: int | None = None) -> Analysis:
    """Frames captured before (tx) and after (rx) the device, matched by key (max_rows: metrics.pair)."""
    _timed(tx), _timed(rx)
    with ThreadPoolExecutor(1) as pool:  # each capture's own figures on the second core, beside matching
        own = (pool.submit if second_core_free() else _now)(lambda: (one_capture(tx.ts, tx.size), one_capture(rx.ts, rx.size)))
        idx = match(tx.key, rx.key)
        res = _named(lambda: pair(tx.ts, tx.size, rx.ts, rx.size, idx, tx.file, rx.file, clock_offset, by_size, max_rows), rx.file)
        return Analysis(*own.result(), res, "pair", tx, rx)


def second_core_free() -> bool:
    """Whether a second thread would run on an idle core: at least two cores and a one-minute load
    average below cores − 1 (this process counts one). On the shared 2-core build machine at load
    14-20, two threads (or two processes) took more time and 40-60 % more CPU than one after the
    other, for the same work (bench/README.md); so the work goes to a second thread only when a core is free."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        return n >= 2 and os.getloadavg()[0] < n - 1
    except OSError:
        return False


class _now:
    """A computation run at once, with the interface of a submitted one (result())."""

    def __init__(self, fn):
        self.value = fn()

    def result(self):
        return self.value


def _named(run, file: str):
    """Run a computation; a CaptureError without a file gets this one."""
    try:
        return run()
    except CaptureError as exc:
        if exc.problem.file:
            raise
        raise CaptureError(file, exc.problem.field, exc.problem.message, exc.problem.rule) from None


def signature_of(rx: Frames, clock_offset: int | str | None = None, by_size: bool = True, max_rows: int | None = None) -> Analysis:
    """One capture whose frames carry the wirespeed signature (sequence number, transmit time); max_rows: metrics.pair."""
    _timed(rx)
    tx_ts, idx = signature_index(rx.seq, rx.flags, rx.txts, decode.SIGNATURE)
    if idx is None and tx_ts is not None:
        raise CaptureError(rx.file, "", f"the signature's sequence numbers span {tx_ts:,} values for {len(rx):,} frames: "
                           "not the numbering of one test", "capture.signature")
    if tx_ts is None:
        raise CaptureError(rx.file, "", "no frame carries the wirespeed signature with a transmit time "
                           "(UDP payload \"WSPD\", sequence number, time)", "capture.no-signature")
    tx_size = np.zeros(tx_ts.size, np.uint16)
    tx_size[idx[idx >= 0]] = rx.size[idx >= 0]
    sizes = np.unique(tx_size[tx_size > 0])
    if (tx_size == 0).any():  # a lost frame's size is unknown: the one size of the test, or no grouping
        if sizes.size == 1:
            tx_size[tx_size == 0] = sizes[0]
        else:
            by_size = False
    res = _named(lambda: pair(tx_ts, tx_size, rx.ts, rx.size, idx, rx.file, rx.file, clock_offset, by_size, max_rows), rx.file)
    return Analysis({}, one_capture(rx.ts, rx.size), res, "signature", rx, rx)


def read_pair(tx_path: str | os.PathLike, rx_path: str | os.PathLike, chunk_bytes: int = CHUNK_BYTES) -> tuple[Frames, Frames]:
    """Both captures: at the same time on two threads when a second core is free (the scanners and
    pread release the GIL), else one after the other. The first error, in the order tx, rx, is raised."""
    if not second_core_free():
        return read_frames(tx_path, None, chunk_bytes), read_frames(rx_path, None, chunk_bytes)
    with ThreadPoolExecutor(2) as pool:
        jobs = [pool.submit(read_frames, p, None, chunk_bytes) for p in (tx_path, rx_path)]
        return jobs[0].result(), jobs[1].result()


def analyse_pair(tx_path: str | os.PathLike, rx_path: str | os.PathLike, clock_offset: int | str | None = None,
                 chunk_bytes: int = CHUNK_BYTES, by_size: bool = True) -> Analysis:
    return pair_of(*read_pair(tx_path, rx_path, chunk_bytes), clock_offset, by_size)
