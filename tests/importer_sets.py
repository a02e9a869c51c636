"""Helpers of the importer tests: the example files, and a result set that declares one of them
as a native file (a copy of a small archive set with one more test), loaded for real."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import ARCHIVE, ROOT
from wirespeed.catalog.load import load

EXAMPLES = ROOT / "docs" / "importers" / "examples"
BASE = "keysight-ixnetwork-ve-dpdk-400g-2022"


class FakeTest:
    id = "t1"


def example(fmt: str, name: str) -> bytes:
    return (EXAMPLES / fmt / name).read_bytes()


def all_examples() -> list[Path]:
    """Every example file of every importer (mapping files are configuration and SOURCES.md provenance, not examples)."""
    return sorted(p for p in EXAMPLES.rglob("*") if p.is_file() and not p.name.endswith((".mapping.toml", ".md")))


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


FILL = {"title": "Imported example", "licence": "CC0-1.0", "dut.vendor": "Example", "dut.model": "Device under test", "instrument.vendor": "Example",
        "source.publisher": "wirespeed test suite", "source.published": "2024-03-14", "scenario": "ipv4-routing",
        "topology": "port-pairs", "ports": 2, "port_speed": "10G", "direction": "bidirectional"}


def import_and_validate(tmp_path: Path, fmt: str, files: list[Path], slug: str):
    """`wirespeed import FMT FILES --into SLUG`; `wirespeed validate` then fails on exactly fields the
    command named as unstated; filled in, the set validates and loads. Returns (stdout, loaded set)."""
    import re

    import tomlkit

    from conftest import run_cli

    proc = run_cli("import", fmt, *map(str, files), "--into", slug, "--root", str(tmp_path / "results"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    folder = tmp_path / "results" / slug
    listed = proc.stdout.split("then run: wirespeed validate")[1].splitlines()[1:]
    unstated = {line.strip().split(" (test ")[0] for line in listed}
    check = run_cli("validate", str(folder), cwd=tmp_path)
    assert check.returncode == 1
    lines = [ln for ln in check.stdout.splitlines() if ln.endswith("]")]
    missing = [re.match(r"\S+: (\S+): missing required field '\w+' \[schema.required\]$", ln) for ln in lines]
    assert lines and all(missing), lines
    assert {m.group(1) for m in missing} <= unstated, (missing, unstated)
    doc = tomlkit.parse((folder / "result.toml").read_text())
    for m in missing:
        path = m.group(1)
        t = re.match(r"tests\[(\d+)\]\.(\w+)$", path)
        if t:
            doc["tests"][int(t.group(1))][t.group(2)] = FILL[t.group(2)]
        else:
            node = doc
            *parents, last = path.split(".")
            for p in parents:
                node = node[p]
            node[last] = FILL[path]
    (folder / "result.toml").write_text(tomlkit.dumps(doc))
    check = run_cli("validate", str(folder), cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    rs, problems = load(folder)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    return proc.stdout, rs
