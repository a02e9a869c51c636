"""Captures too large for the repository (`wirespeed import pcap --keep-outside`), and the bad-input
cases of issue 12 through the import command: one line each, nothing written."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from capture_files import T0, pcap, pcapng_section, udp_frame
from conftest import run_cli
from wirespeed.importers.pcap import convert
from wirespeed.resultset.schemacheck import schema

TEST = type("Test", (), {"id": "capture"})()
TX = pcap([(T0 + i * 10_000, udp_frame(i, 64 if i % 3 else 512)) for i in range(300)])
RX = pcap([(T0 + i * 10_000 + 4_000 + (i % 7) * 100, udp_frame(i, 64 if i % 3 else 512, ttl=63)) for i in range(300) if i % 50 != 7])
NG_MAGIC = b"\x0a\x0d\x0d\x0a"
WHERE = "s3://lab-captures/2026-11/ (bucket of the lab)"


def _write(tmp_path: Path, *files: bytes) -> list[str]:
    paths = []
    for i, data in enumerate(files):
        p = tmp_path / f"cap{i}.{'pcapng' if data[:4] == NG_MAGIC else 'pcap'}"
        p.write_bytes(data)
        paths.append(str(p))
    return paths


def _import(tmp_path: Path, paths: list[str], *extra: str):
    root = tmp_path / "results"
    return run_cli("import", "pcap", *paths, "--into", "capture-set", "--root", str(root), *extra), root / "capture-set"


def _table(rows) -> list:
    return sorted((r.kind, repr(sorted(r.keys.items(), key=str)), repr(sorted((m, str(c.figure)) for m, c in r.cells.items())))
                  for r in rows)


def _entry(folder: Path) -> dict:
    doc = tomllib.loads((folder / "result.toml").read_text())
    (entry,) = doc["files"]["native"]
    return entry


def test_outside_pair_keeps_figures_digests_and_location_not_the_files(tmp_path):
    paths = _write(tmp_path, TX, RX)
    proc, folder = _import(tmp_path, paths, "--keep-outside", WHERE)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in folder.rglob("*") if p.is_file()) == ["cap0.capture.json", "result.toml"]
    entry = _entry(folder)
    assert entry["path"] == "native/cap0.capture.json" and "pair" not in entry
    assert entry["outside"] == [{"file": "cap0.pcap", "sha256": hashlib.sha256(TX).hexdigest(), "size": len(TX), "location": WHERE},
                                {"file": "cap1.pcap", "sha256": hashlib.sha256(RX).hexdigest(), "size": len(RX), "location": WHERE}]
    notes = tomllib.loads((folder / "result.toml").read_text())["tests"][0]["methodology"]["notes"]
    assert WHERE in notes and hashlib.sha256(RX).hexdigest() in notes and f"{len(TX):,} bytes" in notes
    # the rows from the kept figures are the rows of the captures themselves (a set keeping both files)
    figures = (folder / "native" / "cap0.capture.json").read_bytes()
    rows, probs, _ = convert(figures, "f.json", entry, TEST)
    direct, probs2, _ = convert(TX, "tx.pcap", {"path": "tx.pcap", "pair_data": RX, "pair": "rx.pcap"}, TEST)
    assert not probs and not probs2 and len(rows) > 10
    assert _table(rows) == _table(direct)


def test_outside_figures_that_do_not_match_the_entry_are_one_line(tmp_path):
    paths = _write(tmp_path, TX, RX)
    proc, folder = _import(tmp_path, paths, "--keep-outside", WHERE)
    assert proc.returncode == 0, proc.stderr
    entry, figures = _entry(folder), (folder / "native" / "cap0.capture.json").read_bytes()
    other = dict(entry, outside=[dict(entry["outside"][0], sha256="0" * 64), entry["outside"][1]])
    for data, spec in ((figures, other), (TX, entry), (json.dumps({"format": "x"}).encode(), entry),
                       (figures.replace(b'"groups"', b'"grops"'), entry)):
        rows, probs, n = convert(data, "native/cap0.capture.json", spec, TEST)
        assert rows == [] and n == 0 and len(probs) == 1, probs
        assert probs[0].rule == "capture.outside" and "\n" not in str(probs[0]) and str(probs[0]).startswith("native/cap0.capture.json")


def test_outside_schema_rules():
    s = schema()
    native = {"$defs": s["$defs"], "$ref": "#/$defs/native"}
    good = {"path": "native/a.capture.json", "importer": "pcap", "test": "capture",
            "outside": [{"file": "a.pcap", "sha256": "ab" * 32, "size": 5, "location": "tape 7"}]}
    jsonschema.validate(good, native)
    for bad in ({"sha256": "AB" * 32}, {"sha256": "ab" * 31}, {"size": 0}, {"location": ""}, {"file": "../a.pcap"}):
        item = {**good["outside"][0], **bad}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**good, "outside": [item]}, native)


def test_capture_above_the_set_limit_is_refused_unless_kept_outside(tmp_path):
    big = pcap([(T0 + i * 2_000, udp_frame(i, 1518, txts=T0 + i * 2_000 - 900)) for i in range(23_000)])  # 35 MB > 32 MiB
    paths = _write(tmp_path, big)
    proc, folder = _import(tmp_path, paths)
    assert proc.returncode == 1 and "[limit.file-size]" in proc.stderr and not folder.exists()
    proc, folder = _import(tmp_path, paths, "--keep-outside", WHERE)
    assert proc.returncode == 0, proc.stderr
    assert _entry(folder)["outside"][0]["size"] == len(big)
    assert (folder / "native" / "cap0.capture.json").stat().st_size < 100_000


@pytest.mark.parametrize("files,extra,rule", [
    ((TX, TX[:-9]), ("--keep-outside", WHERE), "capture.truncated"),
    ((TX, pcap([(T0 + i * 1000, udp_frame(90_000 + i)) for i in range(40)])), ("--keep-outside", WHERE), "capture.no-match"),
    ((pcap([]),), ("--keep-outside", WHERE), "capture.empty"),
    ((pcap([(T0, udp_frame(1))], linktype=147),), ("--keep-outside", WHERE), "capture.linktype"),
    ((TX, RX), ("--keep-outside", " "), "capture.outside"),
    ((pcapng_section([(1, 9)], [("epb", 0, T0, udp_frame(1))])[:-5],), (), "capture.truncated"),
    ((pcapng_section([(1, 9)], []),), (), "capture.empty"),
], ids=["truncated", "different-tests", "zero-frames", "unknown-link-type", "no-location", "pcapng-truncated", "pcapng-zero-frames"])
def test_bad_input_is_one_line_and_nothing_written(tmp_path, files, extra, rule):
    proc, folder = _import(tmp_path, _write(tmp_path, *files), *extra)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 1 and lines[-1] == "nothing written" and len(lines) == 2, proc.stderr
    assert lines[0].endswith(f"[{rule}]") and "Traceback" not in proc.stderr
    assert not folder.exists()


def test_pcapng_unknown_blocks_are_named_in_one_warning_line(tmp_path):
    ng = pcapng_section([(1, 9)], [("unknown", 0x80000001, b"custom"), *[("epb", 0, T0 + i * 1000, udp_frame(i, 128, txts=T0 + i * 1000 - 500))
                                                                        for i in range(20)], ("unknown", 5, b"stats")])
    p = tmp_path / "sig.pcapng"
    p.write_bytes(ng)
    proc, folder = _import(tmp_path, [str(p)])
    assert proc.returncode == 0, proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "capture.skipped-blocks" in x]
    assert line.startswith(str(p)) and "2 pcapng blocks" in line and line.endswith("[capture.skipped-blocks]")
