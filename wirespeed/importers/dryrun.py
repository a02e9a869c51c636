"""The machine-readable account of an import (`wirespeed import … --json`): the rows each file would
load, with their keys and their metrics in their units, so that scripts and CI can check an import
without writing it.

    {"set": "acme-2024", "folder": "data/results/acme-2024", "action": "create", "written": false,
     "files": [{"file": "run.json", "format": "iperf3", "native": "native/run.json", "rows": [
        {"kind": "measurements", "line": 0, "keys": {"test": "udp-10m"},
         "metrics": {"goodput_mbps": {"metric": "goodput", "unit": "mbps", "value": 9.93, "text": "9.93"}}}]}],
     "tests": ["udp-10m"], "unstated": ["dut.vendor", …], "problems": [...]}

`value` is the number as JSON carries it; `text` is the figure exactly as the file wrote it (all its
digits). A refused import prints the same object with `"ok": false` and its problems.
"""

from __future__ import annotations

from typing import Any

from wirespeed.problems import Problem


def number(text: str) -> int | float:
    """A figure's text as a JSON number: an integer stays an integer."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def _key(value: Any) -> Any:
    text = getattr(value, "text", None)
    return number(text) if text is not None else value


def row_json(row) -> dict:
    """One row (wirespeed.resultset.model.Row): its kind, its line in the file, keys and metrics."""
    metrics = {}
    for metric, cell in row.cells.items():
        metrics[f"{metric}_{cell.unit.name}"] = {"metric": metric, "unit": cell.unit.name, "value": number(cell.figure.value.__str__()),
                                                 "text": cell.figure.text}
    return {"kind": row.kind, "line": row.line, "keys": {k: _key(v) for k, v in row.keys.items()}, "metrics": metrics}


def problem_json(p: Problem) -> dict:
    return {"file": p.file, "line": p.line, "field": p.field, "message": p.message, "rule": p.rule, "severity": p.severity}


def outcome_json(out) -> dict:
    """An Outcome of wirespeed.importers.importing.import_files as a JSON object."""
    chosen = dict(out.chosen)
    files = []
    for rel in out.native:
        if rel not in out.kept:
            continue  # the second file of a pair: read with the first
        source = out.sources.get(rel, rel)
        files.append({"file": source, "format": out.kept[rel], "detected": source in chosen, "native": rel,
                      "rows": [row_json(r) for r in out.loaded.get(rel, [])]})
    return {"ok": True, "set": out.folder.name, "folder": str(out.folder), "action": "create" if out.created else "update",
            "written": out.written, "files": files, "tests": out.tests, "unstated": out.unstated,
            "problems": [problem_json(p) for p in out.warnings]}


def refused_json(slug: str, problems: list[Problem]) -> dict:
    return {"ok": False, "set": slug, "written": False, "problems": [problem_json(p) for p in problems]}
