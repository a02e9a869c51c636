"""A test's methodology: the set-level methodology is the default, the test's own keys override it.
The one place the two are merged; the loader, the tables and the site data call `merged`."""

from __future__ import annotations

from typing import Any


def merged(set_level: dict[str, Any] | None, test_level: dict[str, Any] | None) -> dict[str, Any]:
    """The methodology in force for a test: the set's, overridden key by key by the test's."""
    return {**(set_level or {}), **(test_level or {})}
