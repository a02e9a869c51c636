"""The site data of one result set (build/hugo-data/wirespeed/sets/<slug>.json) as a contract: its JSON Schema
(wirespeed/schema/site-set.v1.schema.json) and the rules a schema cannot say (a table's rows as wide as its
columns, a chart's or table's id its key). `wirespeed site` checks a set's data before writing it, so a broken
export leaves that set out in one line instead of reaching Hugo; `wirespeed report` checks it again on reading,
so a file changed or left over from another version is refused, not typeset."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

SCHEMA = "site-set.v1.schema.json"


class SetDataError(ValueError):
    """The site data breaks its contract: `where: rule`."""


@functools.cache
def _validator():
    import jsonschema

    schema = json.loads(resources.files("wirespeed.schema").joinpath(SCHEMA).read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def problems(data: Any) -> list[str]:
    """Every way `data` breaks the contract, one line each (`JSON path: rule`); [] when it holds."""
    found = []
    for e in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        where = "/".join(map(str, e.absolute_path)) or "(top)"
        found.append(f"{where}: {e.message[:200]}")
    if not isinstance(data, dict):
        return found
    for kind in ("tables", "charts"):
        items = data.get(kind)
        for key, item in (items.items() if isinstance(items, dict) else ()):
            if isinstance(item, dict) and item.get("id") != key:
                found.append(f"{kind}/{key}/id: {item.get('id')!r} is not its key {key!r}")
    tables = data.get("tables")
    for key, table in (tables.items() if isinstance(tables, dict) else ()):
        if not isinstance(table, dict) or not isinstance(table.get("columns"), list):
            continue
        width = len(table["columns"])
        for grid in ("rows",):  # what the pages and the PDF index by column
            rows = table.get(grid)
            for i, row in enumerate(rows if isinstance(rows, list) else ()):
                if isinstance(row, list) and len(row) != width:
                    found.append(f"tables/{key}/{grid}/{i}: {len(row)} cells for {width} columns")
                    break
    return found


def check(data: Any, name: str) -> None:
    """Raise SetDataError naming `name` (the file or the set) and the first problem, with how many more."""
    found = problems(data)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise SetDataError(f"{name}: site data breaks {SCHEMA}: {found[0]}{more}")
