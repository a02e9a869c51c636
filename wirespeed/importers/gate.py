"""The one gate every importer's output passes, whoever wrote the importer.

`importers()` (wirespeed.importers) hands out every registered importer wrapped by `guarded`, and the
loader's `run_importer` and `wirespeed import` both go through it, so an importer added later gets the
same rules without a line of its own:

- every string of an ImportPlan (test ids and fields, variants, instrument, device, campaign, source,
  methodology, native entries) passes the text rules of result.toml (wirespeed.resultset.text) and
  its limits (string length, nesting, list length), with one problem naming the file, the field and
  the rule;
- every string key of a row (port, stream, component, variant names) passes the text rules of a CSV
  cell and its length limit (`row_problems`, called by wirespeed.importers.checked);
- an InputError raised by a shared parsing layer (a table past its limits, a CSV the parser cannot
  read, a value that is not a finite number, a row past the row limit of one file, counted by
  common.row as rows are made) becomes the file's problems: no row of that file is kept.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from wirespeed.importers.contract import Importer, ImportPlan
from wirespeed.problems import InputError, Problem
from wirespeed.resultset import limits
from wirespeed.resultset.nesting import structure_problems
from wirespeed.resultset.text import check_cell, check_document, describe, mixed_script

TEXT_KEYS = {"port", "component", "variant", "stream"}  # keys that are names (mixed scripts refused), not ids or numbers


def _filled(problems: list[Problem], file: str) -> list[Problem]:
    """Problems of a shared layer that did not know the file's name, with it."""
    return [p if p.file else dataclasses.replace(p, file=file) for p in problems]


def plan_document(plan: ImportPlan) -> dict[str, Any]:
    """Everything a plan states, shaped like the result.toml it becomes (for the text and limit rules)."""
    doc: dict[str, Any] = {}
    for name in ("source", "campaign", "dut", "instrument", "methodology"):
        if getattr(plan, name):
            doc[name] = getattr(plan, name)
    doc["tests"] = [{"id": t.id, **t.fields, "native": t.native} for t in plan.tests]
    if plan.converted is not None:
        doc["converted"] = plan.converted[0]
    return doc


def plan_problems(plan: ImportPlan, file: str) -> list[Problem]:
    """Refused characters, look-alike scripts and limits passed in the strings a plan states."""
    doc = plan_document(plan)
    found = structure_problems(doc, file)
    if found:
        return found
    tests = len(plan.tests)
    if tests > limits.value("tests"):
        return [Problem(file, None, "tests", f"{tests:,} tests: more than the limit of {limits.describe('tests')}", "limit.tests")]
    return check_document(doc, file)


def row_problems(row, file: str) -> list[Problem]:
    """Refused characters, look-alike scripts and over-long names in the string keys of one importer row."""
    out = []
    for key, value in row.keys.items():
        if not isinstance(value, str):
            continue
        if len(value) > limits.value("cell_chars"):
            out.append(Problem(file, row.line or None, key, f"a name of {len(value):,} characters: longer than the limit of {limits.describe('cell_chars')}", "limit.cell"))
        elif (bad := check_cell(value, file, row.line or None, key)) is not None:
            out.append(bad)
        elif key in TEXT_KEYS and (m := mixed_script(value)) is not None:
            out.append(Problem(file, row.line or None, key, f"{m[0]!r} mixes {m[1]} letters ({describe(m[2])}): a look-alike of another name", "text.mixed-script"))
    return out


def _describe(fn):
    def describe_checked(*args) -> ImportPlan:
        file = args[1] if len(args) > 1 else ""
        try:
            plan = fn(*args)
        except InputError as exc:
            plan = ImportPlan("")
            plan.problems = _filled(exc.problems, file)
            return plan
        plan.problems = _filled(plan.problems, file) + plan_problems(plan, file)
        return plan

    return describe_checked


def _convert(fn):
    def convert_checked(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
        from wirespeed.importers.common import row_budget

        try:
            with row_budget(limits.value("table_rows")):  # counted as rows are made, not after
                rows, problems, n = fn(data, file, spec, test)
        except InputError as exc:
            return [], _filled(exc.problems, file), 0
        return rows, _filled(problems, file), n

    return convert_checked


def guarded(importer: Importer) -> Importer:
    """The importer with its describe, describe_pair and convert behind the gate."""
    return dataclasses.replace(importer, describe=_describe(importer.describe), convert=_convert(importer.convert),
                               describe_pair=_describe(importer.describe_pair) if importer.describe_pair else None)
