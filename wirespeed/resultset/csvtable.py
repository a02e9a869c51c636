"""Reading the CSV tables of a result set: strict UTF-8, one header row, units in column names."""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any, BinaryIO

from wirespeed.engine.columns import KEYS, METRICS, REQUIRED_KEYS, TABLE_METRICS
from wirespeed.engine.figures import Figure, FigureSyntaxError
from wirespeed.engine.linerate import streams
from wirespeed.engine.numbers import out_of_bounds
from wirespeed.problems import Problem
from wirespeed.resultset import limits
from wirespeed.resultset.model import Cell, Row, TestSpec
from wirespeed.resultset.suggest import did_you_mean, listing
from wirespeed.resultset.text import check_cell, describe, mixed_script
from wirespeed.engine.units import CANONICAL, UNITS, split_column

DIRECTIONS = ("unidirectional", "bidirectional")
MAX_FRAME_SIZE = 65535  # the largest IP packet; Ethernet frames are checked against 16,000 bytes by the frame-size check


def decode_utf8(data: bytes, file: str) -> tuple[str | None, list[Problem]]:
    """Decode bytes as UTF-8 (a leading BOM is allowed), or say where it is not UTF-8."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, [Problem(file, line, "", f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}", "encoding.utf8")]
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        return None, [Problem(file, line, "", "contains a NUL byte: not a text file", "encoding.text")]
    return text, []


class _Columns:
    """The parsed header of one table."""

    def __init__(self, kind: str, header: list[str], file: str):
        self.kind, self.file = kind, file
        self.keys: dict[int, str] = {}
        self.values: dict[int, tuple[str, Any]] = {}
        self.problems: list[Problem] = []
        seen: dict[str, int] = {}
        for i, raw in enumerate(header):
            if (bad := check_cell(raw, file, 1, f"column {i + 1}")) is not None:
                self.problems.append(bad)
                continue
            name = raw.strip()
            if name != raw:
                self.problems.append(Problem(file, 1, name, "column name has surrounding spaces", "csv.header"))
            if not name:
                self.problems.append(Problem(file, 1, f"column {i + 1}", "empty column name", "csv.header"))
                continue
            if name in seen:
                self.problems.append(Problem(file, 1, name, f"column appears twice (columns {seen[name] + 1} and {i + 1})", "csv.duplicate-column"))
                continue
            seen[name] = i
            if name in KEYS[kind]:
                self.keys[i] = name
                continue
            parts = split_column(name)
            if parts is None:
                self.problems.append(_unknown_column(name, kind, file))
                continue
            metric, unit = parts
            if metric not in METRICS or metric not in TABLE_METRICS[kind]:
                metrics = sorted(TABLE_METRICS[kind])
                hint = did_you_mean(metric, metrics) or did_you_mean(name, list(KEYS[kind]))
                self.problems.append(Problem(file, 1, name, f"unknown metric {metric!r} for a {kind} table{hint}; metrics of a {kind} table: {listing(metrics)} (docs/columns.md)", "csv.unknown-column"))
                continue
            m = METRICS[metric]
            if unit.dimension != m.dimension:
                allowed = ", ".join(u.name for u in UNITS.values() if u.dimension == m.dimension)
                self.problems.append(Problem(file, 1, name, f"wrong unit {unit.name!r} for {metric} ({m.dimension.replace('_', ' ')}); use one of: {allowed}", "csv.wrong-unit"))
                continue
            if metric in (v[0] for v in self.values.values()):
                self.problems.append(Problem(file, 1, name, f"metric {metric} appears in two units", "csv.duplicate-column"))
                continue
            self.values[i] = (metric, unit)
        for key in REQUIRED_KEYS[kind]:
            if key not in self.keys.values():
                self.problems.append(Problem(file, 1, key, f"required column {key!r} is missing", "csv.missing-column"))
        if not self.values and not self.problems:
            self.problems.append(Problem(file, 1, "", "no value columns (<metric>_<unit>)", "csv.missing-column"))


def _unknown_column(name: str, kind: str, file: str) -> Problem:
    """A column that is neither a key nor <metric>_<unit>: the closest key, metric or unit, and what is allowed."""
    metric, sep, unit = name.rpartition("_")
    metrics = sorted(TABLE_METRICS[kind])
    if sep and metric in TABLE_METRICS[kind]:
        units = [u.name for u in UNITS.values() if u.dimension == METRICS[metric].dimension]
        return Problem(file, 1, name, f"unknown unit {unit!r} for {metric}{did_you_mean(unit, units)}; use one of: {listing(units)}", "csv.unknown-unit")
    names = list(KEYS[kind]) + [f"{m}_{CANONICAL[METRICS[m].dimension]}" for m in metrics]
    hint = did_you_mean(name, names) or did_you_mean(metric or name, metrics)
    return Problem(file, 1, name, f"unknown column{hint}: not a key of a {kind} table ({listing(KEYS[kind])}) and not <metric>_<unit> with a known unit (docs/columns.md)", "csv.unknown-column")


def _number(text: str, file: str, line: int, col: str) -> tuple[Figure | None, Problem | None]:
    try:
        fig = Figure.parse(text)
    except FigureSyntaxError:
        hint = " (no thousands separators or units in cells)" if any(c in text for c in ",% ") else ""
        return None, Problem(file, line, col, f"not a number: {_shown(text)}{hint}", "csv.non-numeric")
    if not math.isfinite(float(fig.value)):
        return None, Problem(file, line, col, f"not a finite number: {_shown(text)}", "csv.non-numeric")
    if (why := out_of_bounds(fig)) is not None:
        return None, Problem(file, line, col, f"{_shown(text)}: {why}", "csv.magnitude")
    return fig, None


def _shown(text: str) -> str:
    """A cell as quoted in a message, cut short when long."""
    return repr(text) if len(text) <= 60 else repr(text[:60]) + "…"


def _key(name: str, text: str, kind: str, tests: dict[str, TestSpec], row_keys: dict[str, Any], file: str, line: int):
    """Parse one key cell; returns (value, problem)."""
    ktype = KEYS[kind][name][0]
    if ktype == "test":
        if text not in tests:
            return None, Problem(file, line, name, f"unknown test id {_shown(text)}{did_you_mean(text, sorted(tests))} (declared: {', '.join(sorted(tests)) or 'none'})", "csv.unknown-test")
        return text, None
    if ktype == "frame_size":
        if text.isascii() and text.isdigit():
            size = int(text) if len(text) <= 9 else MAX_FRAME_SIZE + 1
            if size < 1 or size > MAX_FRAME_SIZE:
                return None, Problem(file, line, name, f"frame size must be 1 to {MAX_FRAME_SIZE:,} bytes", "csv.range")
            return size, None
        test = tests.get(row_keys.get("test", ""))
        if test is not None and text in test.imixes:
            return text, None
        imixes = sorted(test.imixes) if test is not None else []
        return None, Problem(file, line, name, f"frame size {_shown(text)} is neither a whole number of bytes nor an IMIX id of the test{did_you_mean(text, imixes)}"
                             f" (IMIX ids: {', '.join(imixes) or 'none'})", "csv.frame-size")
    if ktype == "direction":
        if text not in DIRECTIONS:
            return None, Problem(file, line, name, f"direction must be one of {', '.join(DIRECTIONS)}, not {_shown(text)}{did_you_mean(text, DIRECTIONS)}", "csv.enum")
        test = tests.get(row_keys.get("test", ""))
        if test is not None:
            try:
                streams(test.meta["topology"], test.meta["ports"], text, test.meta.get("receivers"))
            except ValueError as exc:
                return None, Problem(file, line, name, f"{text} traffic is impossible for test {test.id!r}: {exc}", "csv.direction")
        return text, None
    if ktype == "variant":
        test = tests.get(row_keys.get("test", ""))
        declared = (test.meta.get("variants") or {}) if test else {}
        if test is not None and text not in declared:
            return None, Problem(file, line, name, f"variant {_shown(text)} is not declared in tests.variants of test {test.id!r}{did_you_mean(text, sorted(declared))}"
                                 f" (declared: {', '.join(sorted(declared)) or 'none'})", "csv.unknown-variant")
        return text, None
    if ktype == "integer":
        if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
            return None, Problem(file, line, name, f"must be a whole number from 1 to 999,999,999, not {_shown(text)}", "csv.non-numeric")
        return int(text), None
    if ktype in ("percent", "seconds", "microseconds"):
        fig, prob = _number(text, file, line, name)
        if prob:
            return None, prob
        v = float(fig.value)
        if v < 0 or (ktype == "percent" and not 0 < v <= 100):
            rng = "in (0, 100]" if ktype == "percent" else "0 or more"
            return None, Problem(file, line, name, f"must be {rng}, not {text}", "csv.range")
        return fig, None
    if (m := mixed_script(text)) is not None:
        return None, Problem(file, line, name, f"{m[0]!r} mixes {m[1]} letters ({describe(m[2])}): a look-alike of another name", "text.mixed-script")
    return text, None


class _Lines:
    """The lines of a table streamed from a binary file: hashed, decoded one line at a time, and
    stopped at the first line that is too long, not UTF-8 or contains NUL (kept in .problem).
    A line ends at LF, CRLF or a lone CR (classic Mac Office saves CSV with CR only)."""

    _END = re.compile(rb"\r\n|\r|\n")

    def __init__(self, stream: BinaryIO, file: str, hasher=None):
        self.stream, self.file, self.hasher = stream, file, hasher
        self.problem: Problem | None = None

    def _raw(self, limit: int) -> Iterator[bytes]:
        """Raw lines with their ending; a line longer than the limit is yielded cut at limit + 1 bytes."""
        buf, pos, eof = b"", 0, False
        while True:
            m = self._END.search(buf, pos)
            if m is not None and (m.group() != b"\r" or m.end() < len(buf) or eof):  # a CR at the end may start a CRLF
                if m.start() - pos > limit:
                    yield buf[pos:pos + limit + 1]
                    return
                yield buf[pos:m.end()]
                pos = m.end()
                continue
            if len(buf) - pos > limit + 1 or eof:
                if pos < len(buf):
                    yield buf[pos:pos + limit + 1] if len(buf) - pos > limit + 1 else buf[pos:]
                return
            chunk = self.stream.read(1 << 16)
            if self.hasher is not None and chunk:
                self.hasher.update(chunk)
            eof = not chunk
            buf, pos = buf[pos:] + chunk, 0

    def __iter__(self) -> Iterator[str]:
        limit, offset, n = limits.value("line_bytes"), 0, 0
        for raw in self._raw(limit):
            n += 1
            if len(raw.rstrip(b"\r\n")) > limit:
                self.problem = Problem(self.file, n, "", f"line longer than the limit of {limits.describe('line_bytes')}", "limit.line")
                return
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                self.problem = Problem(self.file, n, "", f"not UTF-8: byte 0x{raw[exc.start]:02x} at offset {offset + exc.start}", "encoding.utf8")
                return
            if n == 1 and text.startswith("\ufeff"):
                text = text[1:]
            if "\x00" in text:
                self.problem = Problem(self.file, n, "", "contains a NUL byte: not a text file", "encoding.text")
                return
            offset += len(raw)
            yield text


def read_table(kind: str, data: bytes | BinaryIO, file: str, tests: dict[str, TestSpec], hasher=None) -> tuple[list[Row], list[Problem], int]:
    """Parse one table, streamed from a binary file (or bytes), feeding the hasher with every byte read.

    Returns the good rows, the problems, and the count of data rows read. A line that is not
    text, or any limit passed, ends the table: its rows are dropped and the problem says where."""
    lines = _Lines(io.BytesIO(data) if isinstance(data, bytes) else data, file, hasher)
    problems: list[Problem] = []
    reader = csv.reader(iter(lines), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        if lines.problem:
            return [], [lines.problem], 0
        return [], [Problem(file, 1, "", "empty file: a header row is required", "csv.empty")], 0
    except csv.Error as exc:
        return [], [Problem(file, 1, "", f"malformed CSV: {exc}", "csv.syntax")], 0
    if len(header) > limits.value("table_columns"):
        return [], [Problem(file, 1, "", f"{len(header):,} columns: more than the limit of {limits.describe('table_columns')}", "limit.columns")], 0
    long = next((i for i, c in enumerate(header) if len(c) > limits.value("cell_chars")), None)
    if long is not None:
        return [], [Problem(file, 1, f"column {long + 1}", f"column name of {len(header[long]):,} characters: longer than the limit of {limits.describe('cell_chars')}", "limit.cell")], 0
    if len(header) == 1 and (sep := next((d for d in (";", "\t", "|") if d in header[0]), None)):
        shown = {";": "semicolons", "\t": "tabs", "|": "vertical bars"}[sep]
        return [], [Problem(file, 1, "", f"the header is one column holding {shown}: tables are comma-separated (save the file as CSV with commas)", "csv.delimiter")], 0
    cols = _Columns(kind, header, file)
    if cols.problems:
        return [], cols.problems, 0
    rows: list[Row] = []
    count = 0
    blank = 0  # the first of the blank lines just read
    while True:
        try:
            record = next(reader)
        except StopIteration:
            if lines.problem:
                return [], [*problems, lines.problem], count
            break
        except csv.Error as exc:
            problems.append(Problem(file, reader.line_num, "", f"malformed CSV: {exc}", "csv.syntax"))
            break
        line = reader.line_num
        count += 1
        if count > limits.value("table_rows"):
            return [], [*problems, Problem(file, line, "", f"more than the limit of {limits.describe('table_rows')} in one table", "limit.rows")], count
        long = next((i for i, c in enumerate(record) if len(c) > limits.value("cell_chars")), None)
        if long is not None:
            name = header[long] if long < len(header) else f"column {long + 1}"
            return [], [*problems, Problem(file, line, name, f"cell of {len(record[long]):,} characters: longer than the limit of {limits.describe('cell_chars')}", "limit.cell")], count
        if not record:  # blank lines at the end of a table are accepted; inside it they are reported
            blank = blank or line
            continue
        if blank:
            problems.append(Problem(file, blank, "", "blank line inside the table", "csv.blank-line"))
            blank = 0
        if len(record) != len(header):
            problems.append(Problem(file, line, "", f"ragged row: {len(record)} cells, header has {len(header)}", "csv.ragged-row"))
            continue
        row_problems = [p for i, c in enumerate(record) if (p := check_cell(c, file, line, header[i])) is not None]
        if row_problems:  # refused characters: the row is not read further
            problems.extend(row_problems)
            continue
        keys: dict[str, Any] = {}
        for i in sorted(cols.keys, key=lambda i: cols.keys[i] != "test"):
            name, cell = cols.keys[i], record[i].strip()
            if not cell:
                if name in REQUIRED_KEYS[kind]:
                    row_problems.append(Problem(file, line, name, "required key is empty", "csv.missing-value"))
                continue
            value, prob = _key(name, cell, kind, tests, keys, file, line)
            if prob:
                row_problems.append(prob)
                if name == "test":  # one root cause, one message: the row's other keys depend on its test
                    break
            else:
                keys[name] = value
        cells: dict[str, Cell] = {}
        for i, (metric, unit) in cols.values.items():
            cell = record[i].strip()
            if not cell:
                continue
            fig, prob = _number(cell, file, line, header[i])
            if prob:
                row_problems.append(prob)
                continue
            if fig.value < 0:
                row_problems.append(Problem(file, line, header[i], f"negative value {cell}: {METRICS[metric].label.lower()} cannot be negative", "csv.negative"))
                continue
            limit = METRICS[metric].max_value
            if limit is not None and fig.value > Decimal(str(limit)):
                row_problems.append(Problem(file, line, header[i], f"{cell} {unit.symbol} is above the possible maximum of {limit:g}", "csv.range"))
                continue
            cells[metric] = Cell(fig, unit, fig.scaled(unit.factor) if unit.name != CANONICAL[unit.dimension] else fig)
        if not row_problems and not cells:
            row_problems.append(Problem(file, line, "", "row has no values", "csv.empty-row"))
        if row_problems:
            problems.extend(row_problems)
            continue
        rows.append(Row(kind, file, line, keys, cells))
    return rows, problems, count


def row_identity(row: Row) -> tuple:
    """The key values that must be unique among rows of one kind."""
    return tuple(sorted((k, str(v.value) if isinstance(v, Figure) else v) for k, v in row.keys.items()))
