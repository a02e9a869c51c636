"""Helpers of the importer tests: the example files, and a result set that declares one of them
as a native file (a copy of a small archive set with one more test), loaded for real."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import ARCHIVE, ROOT
from wirespeed.resultset.load import load

EXAMPLES = ROOT / "docs" / "importers" / "examples"
BASE = "keysight-ixnetwork-ve-dpdk-400g-2022"


class FakeTest:
    id = "t1"


def example(fmt: str, name: str) -> bytes:
    return (EXAMPLES / fmt / name).read_bytes()


def all_examples() -> list[Path]:
    """Every example file of every importer (mapping files are configuration, not examples)."""
    return sorted(p for p in EXAMPLES.rglob("*") if p.is_file() and not p.name.endswith(".mapping.toml"))


def load_native(tmp_path: Path, files: dict[str, bytes], native: str, test_toml: str):
    """Load a copy of the base set with `files` added, `native` (inline TOML tables, comma-separated)
    as its [files].native and `test_toml` appended as one more [[tests]] table."""
    folder = tmp_path / BASE
    shutil.copytree(ARCHIVE / BASE, folder)
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    toml = folder / "result.toml"
    text = toml.read_text().replace('[files]\nmeasurements = ["throughput.csv"]', f'[files]\nmeasurements = ["throughput.csv"]\nnative = [{native}]')
    toml.write_text(text + "\n" + test_toml)
    return load(folder)


TEST_TOML = """
[[tests]]
id = "imported"
title = "Imported"
rfc = ["vendor"]
scenario = "generator-capacity"
topology = "port-pairs"
ports = 2
port_speed = "10G"
direction = "bidirectional"
{extra}
"""
