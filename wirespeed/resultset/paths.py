"""The path rule: every path declared in result.toml names a plain file inside the set's folder.

A declared path is a relative POSIX path of plain names: no `..` or `.` segment, no absolute
path, no backslash, no empty segment, no hidden (dot) name, each name from a short allowlist of
characters, and a bounded depth. The rule holds on its own; the schema's patterns repeat it so
editors flag a bad path early.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from wirespeed.problems import Problem
from wirespeed.resultset.limits import value

SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
TABLE_KINDS = ("measurements", "samples", "histograms")
RESERVED = frozenset({"result.toml"})


def path_error(path: Any) -> tuple[str, str] | None:
    """Why a declared path breaks the rule, as (message, rule), or None when it is a plain path."""
    if not isinstance(path, str):
        return None  # the schema reports the type
    if not path:
        return "empty path", "layout.path"
    if "\\" in path:
        return f"{path!r} contains a backslash: paths use / between folders", "layout.path"
    if path.startswith("/") or re.match(r"[A-Za-z]:", path):
        return f"{path!r} is absolute: paths are relative to the result set folder", "layout.path"
    segments = path.split("/")
    if ".." in segments:
        return f"{path!r} has a '..' segment: paths stay inside the result set folder", "layout.path"
    if "" in segments:
        return f"{path!r} has an empty segment (// or a trailing /)", "layout.path"
    for seg in segments:
        if seg.startswith("."):
            return f"{path!r}: {seg!r} is a hidden name or '.': not allowed in a result set", "layout.path"
        if not SEGMENT.fullmatch(seg):
            return (f"{path!r}: {seg!r} is not a plain name (a letter or digit, then up to 99 letters, digits, '.', '_' or '-')",
                    "layout.path")
    if len(segments) > value("path_segments"):
        return f"{path!r} is {len(segments)} levels deep; the limit is {value('path_segments')}", "limit.path-depth"
    if path in RESERVED:
        return f"{path!r} is the result set's own metadata, not a declared file", "layout.path"
    return None


def declared_paths(doc: Any) -> Iterator[tuple[str, Any]]:
    """(field, path) for every path declared under [files], tolerating a document the schema rejects."""
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict):
        return
    for kind in TABLE_KINDS:
        items = files.get(kind)
        if isinstance(items, list):
            for i, p in enumerate(items):
                yield f"files.{kind}[{i}]", p
    for kind in ("native", "attachments"):
        items = files.get(kind)
        if isinstance(items, list):
            for i, item in enumerate(items):
                if isinstance(item, dict) and "path" in item:
                    yield f"files.{kind}[{i}].path", item["path"]
                if kind == "native" and isinstance(item, dict) and "pair" in item:
                    yield f"files.{kind}[{i}].pair", item["pair"]


def _native_entries(doc: Any) -> dict[str, tuple]:
    """files.native[i].path → what the entry imports (test, part, frame size, variant, direction)."""
    items = doc.get("files", {}).get("native") if isinstance(doc, dict) and isinstance(doc.get("files"), dict) else None
    return {f"files.native[{i}].path": tuple(str(item.get(k)) for k in ("test", "part", "frame_size", "variant", "direction"))
            for i, item in enumerate(items if isinstance(items, list) else []) if isinstance(item, dict)}


def path_problems(doc: Any, file: str) -> list[Problem]:
    """One problem per declared path that breaks the rule, or is declared twice. A native file that
    holds several tests is declared once per test (or part): the same path in native entries that
    import different things is read once for each."""
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    natives = _native_entries(doc)
    imports: dict[str, set[tuple]] = {}
    for field, path in declared_paths(doc):
        err = path_error(path)
        if err:
            problems.append(Problem(file, None, field, err[0], err[1]))
        elif isinstance(path, str):
            folded = path.casefold()
            if folded in seen and field in natives and seen[folded] in natives and natives[field] not in imports[folded]:
                imports[folded].add(natives[field])
            elif folded in seen:
                problems.append(Problem(file, None, field, f"{path!r} is already declared as {seen[folded]}", "layout.duplicate-path"))
            else:
                seen[folded] = field
                imports[folded] = {natives[field]} if field in natives else set()
    return problems


def is_path_field(schema_path: list) -> bool:
    """Whether a schema error's location is a declared path (so the path rule speaks for it)."""
    parts = list(schema_path)
    if len(parts) < 3 or parts[0] != "files":
        return False
    return (parts[1] in TABLE_KINDS and len(parts) == 3) or (parts[1] in ("native", "attachments") and parts[-1] in ("path", "pair"))
