"""Nesting depth and string length of TOML and JSON, measured before the recursive parsers run.

tomllib and json recurse once per level, so 100,000 nested brackets end in RecursionError. These
scanners skip strings and comments, count open brackets (and, in TOML, the segments of dotted
keys and table headers) and stop at the depth limit with the line it was passed on.
"""

from __future__ import annotations

import re
from typing import Any

from wirespeed.problems import Problem
from wirespeed.resultset.limits import describe, value

_JSON = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]', re.S)
_TOML = re.compile(r'"""|\'\'\'|["\'#\[\]{}=,\n.]')
_TOML_END = {
    '"""': re.compile(r'(?:[^"\\]++|\\.|"(?!""))*+"""(?:""?)?', re.S),  # up to two quotes may end the content
    "'''": re.compile(r"(?:[^']++|'(?!''))*+'''(?:''?)?"),
    '"': re.compile(r'(?:[^"\\\n]++|\\.)*+"'),
    "'": re.compile(r"[^'\n]*+'"),
}


def _too_deep(text: str, pos: int, file: str, what: str) -> Problem:
    line = text.count("\n", 0, pos) + 1
    return Problem(file, line, "", f"{what} nested deeper than the limit of {describe('depth')}", "limit.depth")


def json_depth_problem(text: str, file: str) -> Problem | None:
    """A problem when JSON arrays and objects nest deeper than the limit (strings are skipped)."""
    limit, depth = value("depth"), 0
    for m in _JSON.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > limit:
                return _too_deep(text, m.start(), file, "JSON arrays and objects")
        elif tok in "]}":
            depth = max(depth - 1, 0)
    return None


def toml_depth_problem(text: str, file: str) -> Problem | None:
    """A problem when TOML arrays, inline tables and dotted keys nest deeper than the limit.

    The depth at a point is the open brackets plus the dotted segments since the last
    separator (=, comma, bracket or line end); a float's one dot counts too, which only makes
    the measure a little cautious. Unterminated strings end the scan: tomllib reports them."""
    limit = value("depth")
    brackets, dots, pos = 0, 0, 0
    while True:
        m = _TOML.search(text, pos)
        if m is None:
            return None
        tok, pos = m.group(), m.end()
        if tok in _TOML_END:
            end = _TOML_END[tok].match(text, pos)
            if end is None:
                return None
            pos = end.end()
        elif tok == "#":
            nl = text.find("\n", pos)
            if nl < 0:
                return None
            pos = nl
        elif tok in "[{":
            brackets += 1
            dots = 0
        elif tok in "]}":
            brackets = max(brackets - 1, 0)
            dots = 0
        elif tok == ".":
            dots += 1
        else:  # = , newline
            dots = 0
        if brackets + dots > limit:
            return _too_deep(text, m.start(), file, "TOML arrays, tables and dotted keys")


def structure_problems(doc: Any, file: str) -> list[Problem]:
    """Problems of a parsed document: nesting past the depth limit (tables from [a.b.c] headers
    included), arrays longer than the list limit and strings or keys longer than the string limit.
    Iterative, never recursive."""
    limit, chars, items_limit = value("depth"), value("string_chars"), value("list_items")
    problems: list[Problem] = []
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth >= limit:
                return [Problem(file, None, where, f"nested deeper than the limit of {describe('depth')}", "limit.depth")]
            if isinstance(node, list) and len(node) > items_limit:
                problems.append(Problem(file, None, where, f"{len(node):,} items: more than the limit of {describe('list_items')}", "limit.list"))
                continue
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for k, v in items:
                if isinstance(k, str) and len(k) > chars:
                    problems.append(Problem(file, None, where, f"a key of {len(k):,} characters is longer than the limit of {describe('string_chars')}", "limit.string"))
                    continue
                sub = f"{where}[{k}]" if isinstance(k, int) else (f"{where}.{k}" if where else k)
                stack.append((v, sub, depth + 1))
        elif isinstance(node, str) and len(node) > chars:
            problems.append(Problem(file, None, where, f"{len(node):,} characters: longer than the limit of {describe('string_chars')}", "limit.string"))
    return sorted(problems, key=lambda p: p.field)
