"""The physics gate at import time: the checks of wirespeed.checks.PHYSICS over the rows an import
would write, before anything is written, with the same lines `wirespeed validate` prints later.

An imported set may not yet state everything (a port speed the file does not give): its tests are
taken as drafted, and the rules that need a line rate skip a test without one (validate runs them
once the set states it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wirespeed.checks import PHYSICS, run_checks
from wirespeed.engine.imix import Imix
from wirespeed.engine.linerate import parse_speed
from wirespeed.problems import Problem
from wirespeed.resultset.methodology import merged
from wirespeed.resultset.model import ResultSet, Row, TestSpec

LINK_FIELDS = ("port_speed", "topology", "ports", "direction")


def _link(test: dict[str, Any]):
    if not all(k in test for k in LINK_FIELDS):
        return None
    try:
        return parse_speed(test["port_speed"])
    except (ValueError, TypeError):
        return None


def _imixes(method: dict[str, Any], link) -> dict[str, Imix]:
    conv = method.get("frame_size_convention", "ip-packet" if link is not None and link.media == "pos" else "ethernet-frame")
    out = {}
    for mix in method.get("imix", []):
        if isinstance(mix, dict) and isinstance(mix.get("sizes"), list) and len(mix["sizes"]) == len(mix.get("weights", [])):
            out[mix["id"]] = Imix(tuple(mix["sizes"]), tuple(mix["weights"]), conv)
    return out


def draft_tests(doc: dict[str, Any]) -> dict[str, TestSpec]:
    """The tests of a result.toml as far as it states them (link None where the port speed is not stated)."""
    defaults = doc.get("methodology", {})
    tests = {}
    for t in doc.get("tests", []):
        if not isinstance(t, dict) or "id" not in t:
            continue
        method = merged(defaults, t.get("methodology"))
        link = _link(t)
        tests[t["id"]] = TestSpec(t["id"], t, method, link, _imixes(method, link))
    return tests


def gate(doc: dict[str, Any], rows: list[Row], folder: Path) -> list[Problem]:
    """The physics problems of rows about to be imported into the set at `folder` (errata of an existing set acknowledge as in validate)."""
    tests = draft_tests(doc)
    rows = [r for r in rows if r.test in tests]
    if not rows:
        return []
    meta = {"errata": [], **doc, "dut": doc.get("dut") or {}}
    return run_checks(ResultSet(folder, meta, tests, rows, {}), only=PHYSICS)
