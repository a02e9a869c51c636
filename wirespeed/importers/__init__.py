"""Importers turn native tool output into result sets: `wirespeed import` (describe) and, at load
time, the rows of every file declared under [files].native (convert).

An importer is an `Importer` object (see wirespeed.importers.contract) registered under the
entry-point group wirespeed.importers; `run_importer` is what the loader calls. Both hand out every
importer behind one gate (wirespeed.importers.gate): the text rules and limits hold for what any
importer states or makes, and `checked` holds its rows to the rules of a CSV cell.
"""

from __future__ import annotations

from pathlib import Path

from wirespeed.importers.contract import Importer
from wirespeed.problems import Problem, display_path


_GUARDED: dict[str, tuple[Importer, Importer]] = {}  # name -> (registered object, the same behind the gate)


def importers() -> dict[str, Importer]:
    """Format name → Importer, for every installed importer (entry-point group wirespeed.importers),
    each behind the gate (wirespeed.importers.gate)."""
    from wirespeed.extensions import registry
    from wirespeed.importers.gate import guarded

    out = {}
    for name, obj in registry("importers").items():
        if isinstance(obj, Importer):
            hit = _GUARDED.get(name)
            if hit is None or hit[0] is not obj:
                hit = _GUARDED[name] = (obj, guarded(obj))
            out[name] = hit[1]
    return out


def run_importer(spec: dict, path: Path, tests: dict, data: bytes | None = None) -> tuple[list, list[Problem], int]:
    """Run the importer a [files].native entry names on its file (data: its bytes, already read safely)."""
    from wirespeed.extensions import registry

    file = display_path(path)
    importer = importers().get(spec["importer"])
    if importer is None:
        known = ", ".join(registry("importers")) or "none"
        return [], [Problem(file, None, "importer", f"unknown importer {spec['importer']!r} (installed: {known})", "import.unknown-importer")], 0
    test = tests.get(spec["test"])
    if test is None:
        return [], [Problem(file, None, "test", f"unknown test id {spec['test']!r}", "import.unknown-test")], 0
    if not isinstance(importer, Importer):
        return [], [Problem(file, None, "importer", f"{spec['importer']!r} is not an importer (wirespeed.importers.contract.Importer)", "import.unknown-importer")], 0
    from wirespeed.importers.kinds import opened

    data, problems = opened(spec["path"], path.read_bytes() if data is None else data, file, importer, spec["importer"])
    if data is None:
        return [], problems, 0
    rows, problems, n = importer(data, file, spec, test)
    return checked(rows, problems, file) + (n,)


def checked(rows: list, problems: list[Problem], file: str) -> tuple[list, list[Problem]]:
    """The rows an importer made, held to the rules of a CSV cell (wirespeed.resultset.csvtable):
    a refused character or an over-long name in a key (wirespeed.importers.gate), a metric the table
    kind does not take, a negative value, a magnitude beyond 1e±30 or a value above the metric's
    maximum leaves the row out with one problem."""
    from decimal import Decimal

    from wirespeed.engine.columns import METRICS, TABLE_METRICS
    from wirespeed.engine.numbers import out_of_bounds
    from wirespeed.importers.gate import row_problems

    kept, problems = [], list(problems)
    for row in rows:
        if text := row_problems(row, file):
            problems += text
            continue
        bad = None
        for metric, cell in row.cells.items():
            m = METRICS.get(metric)
            if m is None or metric not in TABLE_METRICS[row.kind]:
                bad = Problem(file, None, metric, f"{metric!r} is not a column of {row.kind} tables", "import.column")
            elif (why := out_of_bounds(cell.figure)) is not None:
                bad = Problem(file, None, metric, f"{cell.figure.text}: {why}", "csv.magnitude")
            elif cell.figure.value < 0:
                bad = Problem(file, None, metric, f"negative value {cell.figure.text}: {m.label.lower()} cannot be negative", "csv.negative")
            elif m.max_value is not None and cell.figure.value > Decimal(str(m.max_value)):
                bad = Problem(file, None, metric, f"{cell.figure.text} {cell.unit.symbol} is above the possible maximum of {m.max_value:g}", "csv.range")
            if bad:
                break
        if bad:
            problems.append(Problem(bad.file, bad.line, bad.field, f"{bad.message} ({_where(row)})", bad.rule))
        else:
            kept.append(row)
    return kept, problems


def _where(row) -> str:
    return ", ".join(f"{k} {v.text if hasattr(v, 'text') else v}" for k, v in row.keys.items())
