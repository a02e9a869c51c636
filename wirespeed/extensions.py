"""The extension points, found by Python entry points. Built-ins register the same way.

Groups (each entry point's object has a one-line docstring that `wirespeed plugins` prints):
- wirespeed.importers: read a native tool format (importers/contract.py: Importer).
- wirespeed.checks: semantic checks of a loaded result set (checks/).
- wirespeed.charts: chart types that compile a table into one Vega-Lite spec (charts/).
- wirespeed.collectors: run a traffic generator and write a new result set (collectors/).
"""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

GROUPS = ("importers", "checks", "charts", "collectors")


@lru_cache(maxsize=None)
def registry(group: str) -> dict[str, Any]:
    """Name → loaded object for one extension point."""
    if group not in GROUPS:
        raise KeyError(group)
    return {ep.name: ep.load() for ep in sorted(entry_points(group=f"wirespeed.{group}"), key=lambda e: e.name)}


def describe(group: str) -> list[tuple[str, str]]:
    """(name, first docstring line) for every plugin of a group."""
    out = []
    for name, obj in registry(group).items():
        summary = getattr(obj, "summary", None)  # importers (importers/contract.py) carry theirs
        doc = (summary if isinstance(summary, str) else obj.__doc__ or "").strip().splitlines()
        out.append((name, doc[0] if doc else ""))
    return out
