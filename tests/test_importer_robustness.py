"""Every new importer on every example file, truncated and with corrupted bytes: never an
exception, and a file that yields no rows always says why (no silent drop)."""

from __future__ import annotations

import random
import tomllib

import pytest

from importer_sets import EXAMPLES, FakeTest, all_examples
from wirespeed.importers import csit, ixnetwork, loadtest_viz, spirent, trex, trex_sweep

MODULES = [trex, trex_sweep, loadtest_viz, spirent, ixnetwork, csit]
MAPPING = tomllib.loads((EXAMPLES / "trex-sweep" / "sweep.mapping.toml").read_text())


def _variants(data: bytes) -> list[bytes]:
    rnd = random.Random(len(data))
    out = [data[:k] for k in range(0, len(data), max(1, len(data) // 25))]
    for _ in range(25):
        b = bytearray(data)
        b[rnd.randrange(len(b))] = rnd.choice(b'{}[],"0.:-\n /\xff')
        out.append(bytes(b))
    return out


@pytest.mark.parametrize("path", all_examples(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_damaged_examples_never_crash_and_never_drop_silently(path):
    for data in _variants(path.read_bytes()):
        for mod in MODULES:
            assert 0.0 <= mod.sniff(data[:65536], path.name) <= 1.0
            rows, problems, _n = mod.IMPORTER(data, path.name, {"test": "t1", "mapping": MAPPING}, FakeTest())
            assert rows or problems, (mod.__name__, data[:80])
            assert all("\n" not in str(p) for p in problems)
            plan = mod.describe(data, str(path))
            assert plan.tests or plan.problems, (mod.__name__, data[:80])
