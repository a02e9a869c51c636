"""Shared pieces of the importers: parsing JSON and building rows from canonical values."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

from wirespeed.engine.figures import Figure
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8
from wirespeed.resultset.model import Cell, Row
from wirespeed.resultset.nesting import json_depth_problem
from wirespeed.engine.units import UNITS


NAN = re.compile(r"([:\[,]\s*)-?nan\b", re.IGNORECASE)


def parse_json(data: bytes, file: str) -> tuple[Any, list[Problem]]:
    """Decode UTF-8 JSON, or one problem naming the line (nesting is measured before parsing)."""
    text, problems = decode_utf8(data, file)
    if text is None:
        return None, problems
    deep = json_depth_problem(text, file)
    if deep:
        return None, [deep]
    try:
        return json.loads(text), []
    except json.JSONDecodeError as exc:
        if NAN.search(text):  # iperf3 and others print C's "-nan"/"nan" as a bare value: read it as null
            try:
                return json.loads(NAN.sub(r"\1null", text)), []
            except json.JSONDecodeError:
                pass
        return None, [Problem(file, exc.lineno, "", f"not valid JSON: {exc.msg} (column {exc.colno})", "import.json")]
    except RecursionError:  # last resort: the depth scanner above is the rule
        return None, [Problem(file, None, "", "nested deeper than the parser can follow", "limit.depth")]
    except ValueError as exc:  # an integer of more than 4300 digits
        return None, [Problem(file, None, "", f"JSON cannot be read: {str(exc)[:160]}", "import.json")]


def cell(value: float | int, unit: str) -> Cell:
    """A Cell for an instrument-reported value (full precision, as the tool wrote it)."""
    fig = Figure.parse(repr(float(value)) if isinstance(value, float) else str(value))
    u = UNITS[unit]
    return Cell(fig, u, Figure(fig.text, fig.value * u.factor, fig.decimals - u.factor.adjusted(), fig.qualifier))


def row(kind: str, file: str, line: int, keys: dict[str, Any], values: dict[str, tuple[float, str]], place: str = "") -> Row:
    """A row from keys and {metric: (value, unit)}, skipping absent values; `place` names where in the
    file it comes from (a JSON path) when it has no line, for the checks' messages."""
    return Row(kind, file, line, keys, {m: cell(v, u) for m, (v, u) in values.items() if v is not None}, place)


def number(obj: Any, key: str) -> float | int | None:
    """A number from a JSON object, or None when "-nan", missing, not a number, negative or beyond
    1e±30 (nothing a tool measures). An integer stays an integer: 275 is printed 275, not 275.0."""
    v = obj.get(key) if isinstance(obj, dict) else None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    try:
        f = float(v)
    except OverflowError:
        return None
    if not (plausible(f) and f >= 0):
        return None
    return v if isinstance(v, int) else f


def plausible(f: float | None) -> bool:
    """A finite value within the magnitudes a CSV cell may hold (zero, or 1e-30 to 1e30)."""
    return f is not None and math.isfinite(f) and (f == 0 or 1e-30 <= abs(f) < 1e30)


def base_keys(spec: dict, test_id: str) -> dict[str, Any]:
    keys: dict[str, Any] = {"test": test_id}
    for k in ("frame_size", "variant", "direction"):
        if k in spec:
            keys[k] = spec[k]
    return keys


def as_decimal(x: float) -> Decimal:
    return Decimal(repr(x))


def json_head_has(head: bytes, *keys: str) -> bool:
    """True when the head of a JSON file starts an object and names every one of `keys` (for sniff)."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text[:1] == b"{" and all(f'"{k}"'.encode() in head for k in keys)


MISSING = {"", "n/a", "na", "-", "--", "none", "null", "nan", "-nan", "unknown"}


def lenient(value: Any) -> float | int | None:
    """A number as tools write them: 12, 12.5, " 12.5 ", "1,234" (a thousands separator), or None for
    N/A, n/a, -nan, empty and the like. Anything else that is not a number is None too; callers
    that need the value say which field was unreadable."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return value if value == value and abs(value) != float("inf") else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.lower() in MISSING:
        return None
    text = text.replace(",", "") if text.count(",") and all(len(g) == 3 for g in text.split(".")[0].split(",")[1:]) else text
    try:
        return int(text)
    except ValueError:
        pass
    try:
        f = float(text)
    except ValueError:
        return None
    return f if f == f and abs(f) != float("inf") else None


def keyed(obj: Any, *path: str) -> Any:
    """obj[path[0]][path[1]]…, or None where a step is missing or not an object."""
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj
