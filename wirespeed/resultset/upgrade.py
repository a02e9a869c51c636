"""Format upgrades: one small function per historical change, applied in order on load.

A result set written by a newer wirespeed (a higher format_version) is refused with a clear
message rather than misread.
"""

from __future__ import annotations

from typing import Any, Callable

from wirespeed import FORMAT_VERSION
# UPGRADES[n] turns a format-n document into format n+1. Empty while format 1 is the only one.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


class FormatVersionError(ValueError):
    """The document's format_version cannot be read by this wirespeed."""


def upgrade(doc: dict[str, Any]) -> dict[str, Any]:
    """Bring a parsed result.toml up to the current format, or raise FormatVersionError."""
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise FormatVersionError("format_version must be a whole number (1 for this format)")
    if version > FORMAT_VERSION:
        raise FormatVersionError(
            f"format_version {version} was written by a newer wirespeed; this one reads up to {FORMAT_VERSION}: upgrade wirespeed"
        )
    if version < 1:
        raise FormatVersionError(f"format_version {version} does not exist; the first format is 1")
    while version < FORMAT_VERSION:
        doc = UPGRADES[version](doc)
        version += 1
        doc["format_version"] = version
    return doc
