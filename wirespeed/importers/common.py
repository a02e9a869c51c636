"""Shared pieces of the importers: parsing JSON and building rows from canonical values."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any

from wirespeed.engine.figures import Figure
from wirespeed.importers.tabular import digits
from wirespeed.problems import InputError, Problem
from wirespeed.resultset import limits
from wirespeed.resultset.csvtable import decode_utf8
from wirespeed.resultset.model import Cell, Row
from wirespeed.resultset.nesting import json_depth_problem
from wirespeed.engine.units import UNITS


NAN = re.compile(r"([:\[,]\s*)-?nan\b", re.IGNORECASE)


class _TooLong(ValueError):
    """A JSON number or key past its limit (raised from inside json.loads)."""


def _int(text: str) -> int:
    if len(text) > limits.value("number_digits") + 1:
        raise _TooLong(f"a number of {digits(text):,} digits: more than the limit of {limits.describe('number_digits')}")
    return int(text)


def _float(text: str) -> float:
    if digits(text) > limits.value("number_digits"):
        raise _TooLong(f"a number of {digits(text):,} digits: more than the limit of {limits.describe('number_digits')}")
    return float(text)


def _long_key(doc: Any) -> str | None:
    """The first object key longer than cell_chars (keys become names and numbers), found without recursion."""
    limit = limits.value("cell_chars")
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if len(k) > limit:
                    return k
                if isinstance(v, (dict, list)):
                    stack.append(v)
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return None


def json_decoder() -> json.JSONDecoder:
    """A decoder that bounds the digits of every number before converting it (ValueError past the limit)."""
    return json.JSONDecoder(parse_int=_int, parse_float=_float)


def parse_json(data: bytes, file: str) -> tuple[Any, list[Problem]]:
    """Decode UTF-8 JSON, or one problem naming the line (nesting is measured before parsing, the digits
    of every number before it is converted, the length of every key after parsing)."""
    text, problems = decode_utf8(data, file)
    if text is None:
        return None, problems
    deep = json_depth_problem(text, file)
    if deep:
        return None, [deep]
    try:
        try:
            doc = json.loads(text, parse_int=_int, parse_float=_float)
        except json.JSONDecodeError:
            if not NAN.search(text):  # iperf3 and others print C's "-nan"/"nan" as a bare value: read it as null
                raise
            doc = json.loads(NAN.sub(r"\1null", text), parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as exc:
        return None, [Problem(file, exc.lineno, "", f"not valid JSON: {exc.msg} (column {exc.colno})", "import.json")]
    except _TooLong as exc:
        return None, [Problem(file, None, "", str(exc), "limit.number")]
    except RecursionError:  # last resort: the depth scanner above is the rule
        return None, [Problem(file, None, "", "nested deeper than the parser can follow", "limit.depth")]
    except ValueError as exc:  # last resort: an integer of more than 4300 digits
        return None, [Problem(file, None, "", f"JSON cannot be read: {str(exc)[:160]}", "import.json")]
    if (key := _long_key(doc)) is not None:
        return None, [Problem(file, None, "", f"an object key of {len(key):,} characters: longer than the limit of {limits.describe('cell_chars')}", "limit.cell")]
    return doc, []


def cell(value: float | int | str, unit: str) -> Cell:
    """A Cell for an instrument-reported value (full precision, as the tool wrote it), a number or a
    qualified figure's text ('<0.5', '>770'); ValueError for a value that is not a finite number
    (row() turns it into a problem)."""
    if isinstance(value, str):
        if len(value) > limits.value("number_digits") + 4:
            raise ValueError(f"a number of more than {limits.describe('number_digits')}")
        try:
            fig = Figure.parse(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a finite number") from None
    elif isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError(f"{value!r} is not a finite number")
    elif isinstance(value, int) and value.bit_length() > 3.33 * limits.value("number_digits"):
        raise ValueError(f"a number of more than {limits.describe('number_digits')}")
    else:
        fig = Figure.parse(repr(float(value)) if isinstance(value, float) else str(value))
    u = UNITS[unit]
    return Cell(fig, u, Figure(fig.text, fig.value * u.factor, fig.decimals - u.factor.adjusted(), fig.qualifier))


_ROWS_LEFT: ContextVar[list[int] | None] = ContextVar("rows_left", default=None)


@contextmanager
def row_budget(rows: int) -> Iterator[None]:
    """Within this block, row() makes at most `rows` rows (the gate opens one of table_rows per file converted)."""
    token = _ROWS_LEFT.set([rows])
    try:
        yield
    finally:
        _ROWS_LEFT.reset(token)


def row(kind: str, file: str, line: int, keys: dict[str, Any], values: dict[str, tuple[float, str]], place: str = "") -> Row:
    """A row from keys and {metric: (value, unit)}, skipping absent values; `place` names where in the
    file it comes from (a JSON path) when it has no line, for the checks' messages. A value that is not a
    finite number (inf, nan), or a row past the budget of the file being converted (row_budget),
    raises InputError before the row is made: the importer gate reports it and keeps no row of the file."""
    left = _ROWS_LEFT.get()
    if left is not None:
        left[0] -= 1
        if left[0] < 0:
            raise InputError([Problem(file, None, "", f"more than the limit of {limits.describe('table_rows')} in one file", "limit.rows")])
    cells = {}
    for m, (v, u) in values.items():
        if v is None:
            continue
        try:
            cells[m] = cell(v, u)
        except ValueError as exc:
            raise InputError([Problem(file, line or None, m, f"{exc}: expected a measured value", "import.number")]) from None
    return Row(kind, file, line, keys, cells, place)


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
    if len(text) > limits.value("cell_chars") or digits(text) > limits.value("number_digits"):
        return None  # not a number a tool measured; the bound holds before int() and float() see it
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
