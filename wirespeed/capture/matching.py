"""Pairing the frames of two capture points: an open-addressing hash table on the match key (numba).

Transmit frames are inserted in capture order; frames with the same key are chained in that order.
Each received frame takes the first not-yet-matched transmit frame of its key. The result per
received frame: the transmit index it matched, DUPLICATE (its key's frames were all matched
already: a copy) or UNMATCHED (no transmit frame has its key).
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNMATCHED, DUPLICATE = -1, -2


@njit(cache=True)
def _match(tx_key, rx_key, bits):
    cap = np.int64(1) << bits
    mask = np.uint64(cap - 1)
    slot_key = np.zeros(cap, np.uint64)
    head = np.full(cap, -1, np.int64)
    tail = np.full(cap, -1, np.int64)
    nxt = np.full(tx_key.size, -1, np.int64)
    for i in range(tx_key.size):
        k = tx_key[i]
        s = k & mask
        while head[s] != -1 and slot_key[s] != k:
            s = (s + np.uint64(1)) & mask
        if head[s] == -1:
            slot_key[s] = k
            head[s] = i
        else:
            nxt[tail[s]] = i
        tail[s] = i
    used = np.zeros(tx_key.size, np.bool_)
    cursor = head.copy()  # first transmit frame of the slot's key that may still be unmatched
    out = np.empty(rx_key.size, np.int64)
    for j in range(rx_key.size):
        k = rx_key[j]
        s = k & mask
        while head[s] != -1 and slot_key[s] != k:
            s = (s + np.uint64(1)) & mask
        if head[s] == -1:
            out[j] = UNMATCHED
            continue
        t = cursor[s]
        while t != -1 and used[t]:
            t = nxt[t]
        if t == -1:
            out[j] = DUPLICATE
        else:
            used[t] = True
            out[j] = t
            if t == cursor[s]:
                cursor[s] = nxt[t]
    return out


def match(tx_key: np.ndarray, rx_key: np.ndarray) -> np.ndarray:
    """For each received frame: the index of its transmit frame, DUPLICATE or UNMATCHED."""
    bits = max(4, int(2 * max(1, tx_key.size) - 1).bit_length())
    return _match(tx_key, rx_key, bits)
