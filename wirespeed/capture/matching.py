"""Pairing the frames of two capture points by match key (numba), in two sequential passes.

Semantics: each received frame, in arrival order, takes the first not-yet-matched transmit frame
(in capture order) with its key; if all frames of its key are matched already it is a DUPLICATE,
if no transmit frame has its key it is UNMATCHED.

A device mostly keeps the order, so pass 1 looks for each received frame's key from a cursor up to
WINDOW frames past the last match. Transmit frames before the cursor are matched, or were passed
unmatched (lost, or far overtaken) and have their key marked in a bitmap; a received frame whose key
is marked goes to pass 2, so the first unmatched equal key in the window is the first overall. Frames not found there — duplicates,
frames of other traffic, frames overtaken by more than WINDOW — are resolved in pass 2 with a small
hash table of their keys and one sequential scan of the transmit keys. Both passes read memory in
order, which is what makes them fast; a hash table of every transmit frame would be random access.
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNMATCHED, DUPLICATE = -1, -2
WINDOW = 64
PENDING = -3
SKIP_BITS = 1 << 20
SKIP_MASK = np.uint64(SKIP_BITS - 1)


@njit(cache=True, nogil=True)
def _window_pass(tx_key, rx_key, owner, out):
    n_tx = tx_key.size
    c = 0
    last = 0
    pending = 0
    skipped = np.zeros(SKIP_BITS, np.bool_)  # keys of unmatched transmit frames the cursor passed
    for j in range(rx_key.size):
        k = rx_key[j]
        if skipped[k & SKIP_MASK]:  # an earlier transmit frame may have this key: pass 2 decides
            out[j] = PENDING
            pending += 1
            continue
        found = -1
        for i in range(c, min(n_tx, max(c, last) + WINDOW)):
            if tx_key[i] == k and owner[i] < 0:
                found = i
                break
        if found < 0:
            out[j] = PENDING
            pending += 1
            continue
        owner[found] = j
        out[j] = found
        last = found
        # the cursor passes matched frames, and unmatched ones (lost, or overtaken by more than
        # WINDOW) once matching has moved WINDOW beyond them
        while c < n_tx and (owner[c] >= 0 or c < found - WINDOW):
            if owner[c] < 0:
                skipped[tx_key[c] & SKIP_MASK] = True
            c += 1
    return pending


@njit(cache=True, nogil=True)
def _slot(slot_key, taken, k, mask):
    s = k & mask
    while taken[s] and slot_key[s] != k:
        s = (s + np.uint64(1)) & mask
    return s


@njit(cache=True, nogil=True)
def _pending_pass(tx_key, rx_key, owner, out, bits):
    cap = np.int64(1) << bits
    mask = np.uint64(cap - 1)
    slot_key = np.zeros(cap, np.uint64)
    taken = np.zeros(cap, np.bool_)
    for j in range(rx_key.size):  # the keys still wanted
        if out[j] == PENDING:
            s = _slot(slot_key, taken, rx_key[j], mask)
            taken[s] = True
            slot_key[s] = rx_key[j]
    # the transmit frames with a wanted key, chained per key in transmit order
    head = np.full(cap, -1, np.int64)
    last = np.full(cap, -1, np.int64)
    txi = np.empty(64, np.int64)
    link = np.empty(64, np.int64)
    n = 0
    for i in range(tx_key.size):
        s = _slot(slot_key, taken, tx_key[i], mask)
        if not taken[s]:
            continue
        if n == txi.size:
            txi2, link2 = np.empty(2 * n, np.int64), np.empty(2 * n, np.int64)
            txi2[:n], link2[:n] = txi[:n], link[:n]
            txi, link = txi2, link2
        txi[n], link[n] = i, -1
        if head[s] == -1:
            head[s] = n
        else:
            link[last[s]] = n
        last[s] = n
        n += 1
    # in arrival order: the first transmit frame not taken by an EARLIER arrival; one taken by a
    # later arrival (possible after pass 1) is given to this one, and the later arrival is looked
    # up again when the loop reaches it
    for j in range(rx_key.size):
        if out[j] != PENDING:
            continue
        e = head[_slot(slot_key, taken, rx_key[j], mask)]
        if e == -1:
            out[j] = UNMATCHED
            continue
        while e != -1 and 0 <= owner[txi[e]] < j:
            e = link[e]
        if e == -1:
            out[j] = DUPLICATE
            continue
        t = txi[e]
        if owner[t] > j:
            out[owner[t]] = PENDING
        owner[t] = j
        out[j] = t


def match(tx_key: np.ndarray, rx_key: np.ndarray) -> np.ndarray:
    """For each received frame: the index of its transmit frame, DUPLICATE or UNMATCHED."""
    owner = np.full(tx_key.size, -1, np.int64)
    out = np.empty(rx_key.size, np.int64)
    pending = _window_pass(tx_key, rx_key, owner, out)
    if pending:
        _pending_pass(tx_key, rx_key, owner, out, max(4, int(2 * pending - 1).bit_length() + 1))
    return out
