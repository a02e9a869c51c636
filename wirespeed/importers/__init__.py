"""Importers turn native tool output into result sets: `wirespeed import` (describe) and, at load
time, the rows of every file declared under [files].native (convert).

An importer is an `Importer` object (see wirespeed.importers.contract) registered under the
entry-point group wirespeed.importers; `run_importer` is what the loader calls.
"""

from __future__ import annotations

from pathlib import Path

from wirespeed.importers.contract import Importer
from wirespeed.problems import Problem, display_path


def importers() -> dict[str, Importer]:
    """Format name → Importer, for every installed importer (entry-point group wirespeed.importers)."""
    from wirespeed.plugins import registry

    return {name: obj for name, obj in registry("importers").items() if isinstance(obj, Importer)}


def run_importer(spec: dict, path: Path, tests: dict, data: bytes | None = None) -> tuple[list, list[Problem], int]:
    """Run the importer a [files].native entry names on its file (data: its bytes, already read safely)."""
    from wirespeed.plugins import registry

    file = display_path(path)
    importer = registry("importers").get(spec["importer"])
    if importer is None:
        known = ", ".join(registry("importers")) or "none"
        return [], [Problem(file, None, "importer", f"unknown importer {spec['importer']!r} (installed: {known})", "import.unknown-importer")], 0
    test = tests.get(spec["test"])
    if test is None:
        return [], [Problem(file, None, "test", f"unknown test id {spec['test']!r}", "import.unknown-test")], 0
    return importer(path.read_bytes() if data is None else data, file, spec, test)
