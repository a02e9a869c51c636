"""The capture engine's alternative paths give the same results: the pair read on two threads or one
after the other, columns that grow while they are filled, every chunk size."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from capture_files import T0, pcap, udp_frame
from wirespeed.capture import analysis
from wirespeed.capture.reader import frames_from_bytes, read_frames

TX = pcap([(T0 + i * 5_000, udp_frame(i, (64, 128, 1518)[i % 3])) for i in range(3_000)])
RX = pcap([(T0 + i * 5_000 + 7_000 + (i % 11) * 900, udp_frame(i, (64, 128, 1518)[i % 3], ttl=63)) for i in range(3_000) if i % 97])
COLUMNS = ("ts", "size", "flags", "key", "seq", "txts")


def _same(a, b):
    assert len(a) == len(b) and all(np.array_equal(getattr(a, c), getattr(b, c)) for c in COLUMNS)


def test_pair_on_two_threads_equals_one_after_the_other(tmp_path, monkeypatch):
    (tmp_path / "tx.pcap").write_bytes(TX)
    (tmp_path / "rx.pcap").write_bytes(RX)
    out = {}
    for free in (True, False):
        monkeypatch.setattr(analysis, "second_core_free", lambda free=free: free)
        a = analysis.analyse_pair(tmp_path / "tx.pcap", tmp_path / "rx.pcap")
        out[free] = a
    one, two = out[False], out[True]
    _same(one.tx_frames, two.tx_frames), _same(one.rx_frames, two.rx_frames)
    assert one.tx == two.tx and one.rx == two.rx
    assert [dataclasses.asdict(g) for g in one.result.groups] == [dataclasses.asdict(g) for g in two.result.groups]
    assert one.result.groups[0].values["lost"] == 3_000 // 3 - len([i for i in range(0, 3_000, 3) if i % 97])


@pytest.mark.parametrize("chunk", [4096, 1 << 16, 64 << 20])
def test_columns_that_grow_while_filled_hold_every_frame(tmp_path, chunk):
    # snaplen 40: 56-byte records, more than the first guess of one frame per 64 bytes of file (4,375), so the columns grow
    data = pcap([(T0 + i * 100, udp_frame(i, 64)) for i in range(5_000)], snaplen=40)
    (tmp_path / "cut.pcap").write_bytes(data)
    streamed, in_memory = read_frames(tmp_path / "cut.pcap", chunk_bytes=chunk), frames_from_bytes(data, "cut.pcap", chunk_bytes=chunk)
    _same(streamed, in_memory)
    assert len(streamed) == 5_000 and np.array_equal(streamed.ts, T0 + np.arange(5_000) * 100)
