"""Tolerant reading of the tables instruments export (CSV and fixed-width text).

Real exports carry `N/A`, empty cells, stray whitespace, thousands separators, unit suffixes in
cells ("10 Mbps", "3.2 %") and units in headers ("Avg Latency (us)"). These helpers read them into
plain values or say exactly which cell broke which rule; they never guess a unit.

Every line ending a spreadsheet writes is read (LF, CRLF and a lone CR, as classic Mac Office saves
CSV), and the limits of wirespeed.resultset.limits hold before the work they bound: a line longer than
line_bytes, a table longer than table_rows, a cell longer than cell_chars or a number with more
digits than number_digits is refused (CellError for a cell; InputError, which the importer gate
reports as one problem, for a table), before the CSV parser, int() or float() sees it.
"""

from __future__ import annotations

import csv
import io
import math
import re

from wirespeed.problems import InputError, Problem
from wirespeed.resultset import limits

MISSING = {"", "n/a", "na", "-", "--", "none", "null", "unknown", "nan", "-nan"}
_NUM = re.compile(r"^([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+)\s*(%|[A-Za-zµ/]+)?$")
_HEADER_UNIT = re.compile(r"\(\s*([^()]*?)\s*\)\s*$")
_DIGIT = re.compile(r"\d")
_LINE_END = re.compile(r"\r\n?|\n")

UNIT_ALIASES = {
    "ns": "ns", "us": "us", "µs": "us", "μs": "us", "usec": "us", "ms": "ms", "s": "s", "sec": "s", "secs": "s",
    "fps": "fps", "pps": "pps", "frames/sec": "fps", "frames": "frames",
    "bps": "bps", "kbps": "kbps", "mbps": "mbps", "gbps": "gbps", "b/s": "bps",
    "%": "pct", "pct": "pct",
}


class CellError(ValueError):
    """A cell that is not a number in the expected form; the message says what was expected."""


def header_unit(name: str) -> str | None:
    """The unit a header states in its last parentheses ('Avg Latency (us)' -> 'us'), or None."""
    m = _HEADER_UNIT.search(name)
    if not m:
        return None
    return UNIT_ALIASES.get(m.group(1).lower()) or UNIT_ALIASES.get(m.group(1))


def header_base(name: str) -> str:
    """A header without its unit and spacing, lower-case: 'Avg Latency (us)' -> 'avg latency'."""
    return " ".join(_HEADER_UNIT.sub("", name).split()).lower()


def digits(text: str) -> int:
    """How many digits a number's text has (integer, fraction and exponent together)."""
    return len(_DIGIT.findall(text))


def number(text: str | None, unit: str | None = None) -> int | float | None:
    """A numeric cell: None when it says nothing (empty, N/A), the value otherwise.

    Thousands separators are accepted in the usual 1,234,567 grouping; a unit suffix is accepted
    only when it is the column's unit (`unit`, a units.py name): anything else is a mixed unit.
    A cell longer than cell_chars, with more digits than number_digits, or whose value is not
    finite (1e999, inf, nan written as a number) is a CellError."""
    if text is None:
        return None
    raw = str(text)
    if len(raw) > limits.value("cell_chars"):
        raise CellError(f"a cell of {len(raw):,} characters: longer than the limit of {limits.describe('cell_chars')}")
    t = " ".join(raw.split())
    if t.lower() in MISSING:
        return None
    m = _NUM.match(t)
    if not m:
        raise CellError(f"{t[:60]!r} is not a number")
    suffix = m.group(2)
    if suffix is not None:
        got = UNIT_ALIASES.get(suffix) or UNIT_ALIASES.get(suffix.lower())
        if got is None:
            raise CellError(f"{t!r}: unknown unit {suffix!r}")
        if unit is not None and got != unit:
            raise CellError(f"{t!r}: unit {suffix!r} in a column of {unit}")
    body = m.group(1).replace(",", "")
    if (n := digits(body)) > limits.value("number_digits"):
        raise CellError(f"a number of {n:,} digits: more than the limit of {limits.describe('number_digits')}")
    value = int(body) if body.lstrip("+-").isdigit() else float(body)
    if isinstance(value, float) and not math.isfinite(value):
        raise CellError(f"{t!r} is not a finite number")
    return value


def lines(text: str) -> str:
    """The text with every line ending read as LF (a lone CR too); InputError for a line over the limit."""
    limit = limits.value("line_bytes")
    if len(text) > limit:  # a long text: look for a line longer than the limit (a cheap test first)
        start = 0
        for n, m in enumerate(_LINE_END.finditer(text + "\n"), 1):
            if m.start() - start > limit // 4 and len(text[start:m.start()].encode("utf-8")) > limit:
                raise InputError([Problem("", n, "", f"a line longer than the limit of {limits.describe('line_bytes')}", "limit.line")])
            start = m.end()
    return text if "\r" not in text else _LINE_END.sub("\n", text)


def _too_many(rows: int) -> None:
    if rows > limits.value("table_rows"):
        raise InputError([Problem("", None, "", f"more than the limit of {limits.describe('table_rows')} in one table", "limit.rows")])


def csv_rows(text: str) -> list[tuple[int, list[str]]]:
    """(line number, stripped cells) of every non-blank CSV record; a sep=, hint line is skipped.

    Any line ending is read; InputError (one problem) for a line, a table or a field over its limit
    or a record the CSV parser cannot read."""
    out = []
    reader = csv.reader(io.StringIO(lines(text)))
    line = 1
    try:
        for cells in reader:
            start, line = line, reader.line_num + 1
            cells = [c.strip() for c in cells]
            if not any(cells) or (len(cells) == 1 and cells[0].lower().startswith("sep=")):
                continue
            out.append((start, cells))
            _too_many(len(out))
    except csv.Error as exc:
        raise InputError([Problem("", reader.line_num or None, "", f"malformed CSV: {exc}", "import.csv")]) from None
    return out


def preamble(text: str, upto: int) -> dict[str, str]:
    """'Key: value' or 'Key,value' lines before line `upto` (report title, date, software version)."""
    meta = {}
    for ln in lines(text).split("\n")[: max(upto - 1, 0)]:
        k, sep, v = ln.partition(":") if ":" in ln else ln.partition(",")
        if sep and k.strip() and v.strip():
            meta[k.strip().strip('"').lower()] = v.strip().strip('"').strip(",").strip()
    return meta


def is_summary(cells: list[str]) -> bool:
    """A totals/summary row mixed into the data ("Total", "Summary", "All Ports" in a leading cell)."""
    lead = [c.strip().lower() for c in cells[:3]]
    return any(c in ("total", "totals", "summary", "all ports", "aggregate", "sum") or c.startswith(("total ", "totals:")) for c in lead)
