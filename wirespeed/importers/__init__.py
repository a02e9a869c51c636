"""Importers turn native tool output (declared under [files].native) into result-set rows.

An importer is a callable `(data: bytes, file: str, spec: dict, test: TestSpec) ->
(rows, problems, rows_read)` registered under the entry-point group wirespeed.importers.
"""

from __future__ import annotations

from pathlib import Path

from wirespeed.problems import Problem, display_path


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
