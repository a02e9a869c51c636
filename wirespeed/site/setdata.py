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
def _schema(schema_file: str) -> dict[str, Any]:
    """The JSON Schema `schema_file` (package data of wirespeed.schema). That it is a valid schema of its draft is
    a test's (tests/test_setdata.py), not every build's: checking it cost half a second a process."""
    return json.loads(resources.files("wirespeed.schema").joinpath(schema_file).read_text("utf-8"))


@functools.cache
def _validator(schema_file: str):
    import jsonschema

    return jsonschema.Draft202012Validator(_schema(schema_file))


@functools.cache
def _fast(schema_file: str):
    """The same schema compiled by jsonschema-rs: it only answers "valid?", about 30 times sooner."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(_schema(schema_file))


def _valid(doc: Any, schema_file: str) -> bool:
    """True when the fast validator finds `doc` valid; False when it does not, or cannot read `doc` (a value that is not
    JSON): the reference validator then decides, and words the errors."""
    try:
        return bool(_fast(schema_file).is_valid(doc))
    except (ValueError, TypeError, OverflowError):
        return False


def schema_lines(doc: Any, schema_file: str = SCHEMA) -> list[str]:
    """Every way `doc` breaks the JSON Schema `schema_file` (package data of wirespeed.schema), one line each
    (`JSON path: rule`), in path order; the site's data contracts (this one and the set index) share it.
    A document jsonschema-rs finds valid is passed at once (every set's data, on every build); any other is
    judged by the Python reference validator, so what is refused, and the words, are jsonschema's."""
    if _valid(doc, schema_file):
        return []
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}"
            for e in sorted(_validator(schema_file).iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]


def breach(found: list[str], name: str, what: str, schema_file: str = SCHEMA) -> str | None:
    """The one-line error of a contract's problems (`name: what breaks schema: first (and N more)`), or None."""
    if not found:
        return None
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return f"{name}: {what} breaks {schema_file}: {found[0]}{more}"


def problems(data: Any) -> list[str]:
    """Every way `data` breaks the contract, one line each (`JSON path: rule`); [] when it holds."""
    found = schema_lines(data)
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
    line = breach(problems(data), name, "site data")
    if line:
        raise SetDataError(line)
