"""Line numbers of result.toml's fields, so schema and semantic problems say file:line like CSV ones.

A small index of the source (table headers, arrays of tables and `key =` lines), not a second TOML
parser: it maps a field path as problems name it ("tests[1].methodology.frame_sizes") to the line
that sets it, or to the line of the nearest table that holds it (a missing field: its table)."""

from __future__ import annotations

import re
from dataclasses import replace

from wirespeed.problems import Problem

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\")(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"))*)\s*=")


def _parts(dotted: str) -> list[str]:
    return [p.strip().strip('"') for p in re.findall(r'"[^"]*"|[^.]+', dotted)]


def index(text: str) -> dict[str, int]:
    """Field path → line number (1-based) of every table, array-of-tables element and key line."""
    lines: dict[str, int] = {}
    counts: dict[str, int] = {}
    prefix = ""
    in_string = False
    for n, line in enumerate(text.splitlines(), 1):
        if in_string:
            in_string = line.count('"""') % 2 == 0 and line.count("'''") % 2 == 0
            continue
        if (m := _HEADER.match(line)) and not line.lstrip().startswith("[ "):
            parts = _parts(m.group(2))
            path = ""
            for i, part in enumerate(parts):
                path = f"{path}.{part}" if path else part
                last = i == len(parts) - 1
                if last and m.group(1) == "[[":
                    counts[path] = counts.get(path, -1) + 1
                    path = f"{path}[{counts[path]}]"
                elif path in counts:
                    path = f"{path}[{counts[path]}]"
            prefix = path
            lines.setdefault(path, n)
            continue
        if m := _KEY.match(line):
            path = ".".join([prefix, *_parts(m.group(1))] if prefix else _parts(m.group(1)))
            lines.setdefault(path, n)
            rest = line[m.end():]
            if rest.count('"""') % 2 == 1 or rest.count("'''") % 2 == 1:
                in_string = True
    return lines


def line_of(lines: dict[str, int], field: str) -> int | None:
    """The line of a field, else of the closest enclosing table or element that the source writes."""
    path = field
    while path:
        if path in lines:
            return lines[path]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return None


def with_lines(problems: list[Problem], file: str, text: str) -> list[Problem]:
    """The problems, those about fields of this TOML file given the line that sets the field."""
    if not any(p.file == file and p.line is None and p.field for p in problems):
        return problems
    lines = index(text)
    return [replace(p, line=line_of(lines, p.field)) if p.file == file and p.line is None and p.field else p for p in problems]
