"""Bad captures: one clear line each (file, place, rule), from the engine and through `wirespeed import pcap`,
and nothing written."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from capture_files import T0, pcap, pcapng_section, udp_frame
from conftest import run_cli
from wirespeed.capture.analysis import analyse_pair
from wirespeed.capture.errors import CaptureError
from wirespeed.capture.reader import frames_from_bytes, read_frames

GOOD = pcap([(T0 + i * 1000, udp_frame(i, 128)) for i in range(50)])
CASES = [
    ("truncated-record", GOOD[:-10], "capture.truncated", "byte "),
    ("truncated-header", GOOD[:20], "capture.truncated", "byte 0"),
    ("unknown-link-type", pcap([(T0, udp_frame(1))], linktype=105), "capture.linktype", "link type"),
    ("not-a-capture", b"time,frames\n1,2\n", "capture.format", "byte 0"),
    ("zero-frames", pcap([]), "capture.empty", ""),
    ("impossible-record-length", GOOD[:24] + struct.pack("<IIII", 1, 0, 1 << 30, 1 << 30) + bytes(64), "capture.record", "byte 24"),
    ("pcapng-truncated-block", pcapng_section([(1, 9)], [("epb", 0, T0, udp_frame(1))])[:-7], "capture.truncated", "byte "),
    ("pcapng-bad-interface", pcapng_section([(1, 9)], [("epb", 0, T0, udp_frame(1))]).replace(struct.pack("<I", 0) + struct.pack("<I", (T0 // 1) >> 32), struct.pack("<I", 5) + struct.pack("<I", T0 >> 32), 1), "capture.record", "byte "),
    ("pcapng-unknown-link-type", pcapng_section([(147, 9)], [("epb", 0, T0, udp_frame(1))]), "capture.linktype", "interface 0 link type"),
]


@pytest.mark.parametrize("name,data,rule,place", CASES, ids=[c[0] for c in CASES])
def test_bad_capture_is_one_line(tmp_path, name, data, rule, place):
    path = tmp_path / f"{name}.pcap"
    path.write_bytes(data)
    for read in (lambda: read_frames(path, "bad.pcap"), lambda: frames_from_bytes(data, "bad.pcap")):
        with pytest.raises(CaptureError) as err:
            read()
        line = str(err.value)
        assert "\n" not in line and line.startswith("bad.pcap") and line.endswith(f"[{rule}]") and place in line


def test_pcapng_unknown_blocks_are_skipped_not_refused():
    data = pcapng_section([(1, 9)], [("unknown", 0x80000001, b"custom"), ("epb", 0, T0, udp_frame(1)), ("unknown", 5, b"stats")])
    f = frames_from_bytes(data, "ok.pcapng")
    assert len(f) == 1 and f.skipped_blocks == 2


def test_pair_from_different_tests_matches_nothing(tmp_path):
    a, b = tmp_path / "a.pcap", tmp_path / "b.pcap"
    a.write_bytes(GOOD)
    b.write_bytes(pcap([(T0 + 50_000 + i * 1000, udp_frame(10_000 + i, 128)) for i in range(50)]))
    with pytest.raises(CaptureError) as err:
        analyse_pair(a, b)
    assert err.value.problem.rule == "capture.no-match" and "\n" not in str(err.value)


def _import(tmp_path: Path, *files: bytes):
    paths = []
    for i, data in enumerate(files):
        p = tmp_path / f"in{i}.pcap"
        p.write_bytes(data)
        paths.append(str(p))
    root = tmp_path / "results"
    return run_cli("import", "pcap", *paths, "--into", "capture-set", "--root", str(root)), root


@pytest.mark.parametrize("files,rule", [
    ((GOOD, pcap([(T0 + 50_000 + i * 1000, udp_frame(10_000 + i, 128)) for i in range(50)])), "capture.no-match"),
    ((GOOD, GOOD[:-10]), "capture.truncated"),
    ((pcap([]),), "capture.empty"),
    ((pcap([(T0, udp_frame(1))], linktype=105),), "capture.linktype"),
], ids=["different-tests", "truncated-second", "zero-frames", "unknown-link-type"])
def test_import_refuses_with_one_line_and_writes_nothing(tmp_path, files, rule):
    proc, root = _import(tmp_path, *files)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines[-1] == "nothing written" and len(lines) == 2 and lines[0].endswith(f"[{rule}]"), proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (root / "capture-set").exists()


def test_import_pair_writes_a_set_that_loads(tmp_path):
    tx = pcap([(T0 + i * 10_000, udp_frame(i, 256)) for i in range(100)])
    rx = pcap([(T0 + i * 10_000 + 3_000 + i, udp_frame(i, 256, ttl=63)) for i in range(100) if i != 40])
    proc, root = _import(tmp_path, tx, rx)
    assert proc.returncode == 0, proc.stderr
    text = (root / "capture-set" / "result.toml").read_text()
    assert 'pair = "native/in1.pcap"' in text and "Clock offset between the capture points: 0 ns" in text
    assert 'latency_method = "one-way-capture"' in text  # each frame's two capture timestamps, not RFC 1242's FIFO or LIFO
    from wirespeed.importers.pcap import convert

    # the set lacks the fields the files do not state (dut, port speed, …): its rows come from convert
    spec = {"path": "native/in0.pcap", "importer": "pcap", "test": "capture", "pair": "native/in1.pcap"}
    rows, probs, n = convert((root / "capture-set" / "native" / "in0.pcap").read_bytes(),
                             str(root / "capture-set" / "native" / "in0.pcap"), spec, type("T", (), {"id": "capture"})())
    assert not probs and n == len(rows)
    (m,) = [r for r in rows if r.kind == "measurements"]
    assert m.cells["tx"].figure.value == 100 and m.cells["rx"].figure.value == 99 and m.cells["lost"].figure.value == 1
    assert m.cells["latency_min"].figure.value == 3_000 and m.cells["latency_max"].figure.value == 3_099


def test_damaged_captures_give_problems_never_exceptions():
    """Random byte damage to a real capture (the importer's example): every outcome is rows or one-line
    problems naming the file — never an exception, never an allocation sized by a damaged field."""
    import random

    from wirespeed.importers.pcap import convert, describe

    data = (Path(__file__).resolve().parent.parent / "docs/importers/examples/pcap/signature-rx.pcap").read_bytes()
    test = type("Test", (), {"id": "capture"})()
    rnd, rules = random.Random(7), set()
    for _ in range(300):
        m = bytearray(data)
        for _ in range(rnd.randrange(1, 20)):
            m[rnd.randrange(len(m))] = rnd.randrange(256)
        if rnd.random() < 0.3:
            m = m[:rnd.randrange(len(m))]
        plan = describe(bytes(m), "x.pcap")
        _rows, probs, _n = convert(bytes(m), "x.pcap", {"path": "x.pcap"}, test)
        for p in plan.problems + probs:
            assert p.file == "x.pcap" and "\n" not in str(p), str(p)
            rules.add(p.rule)
    assert {"capture.truncated", "capture.duration"} <= rules
