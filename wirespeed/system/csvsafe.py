"""CSV downloads that a spreadsheet opens as data, never as formulas (OWASP "CSV injection").

A cell that begins with `=`, `+`, `-`, `@`, TAB or CR and is not a plain number gets a leading `'`,
so Excel, LibreOffice and Google Sheets show it as text. Plain numbers such as `-5` or `+3.2e-4`
stay as they are. Used by every CSV the site offers: the analysis tables and the raw set files.
"""

from __future__ import annotations

import csv
import io
import re

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")


def neutralise(cell: str) -> str:
    """The cell, with a leading `'` when a spreadsheet would read it as a formula."""
    if cell.startswith(TRIGGERS) and not _NUMBER.match(cell):
        return "'" + cell
    return cell


def needs_neutralising(cell: str) -> bool:
    return neutralise(cell) != cell


def neutralise_row(row: list[str]) -> list[str]:
    return [neutralise(c) for c in row]


def neutralise_csv_bytes(data: bytes) -> bytes:
    """A UTF-8 CSV with every formula cell neutralised; the very same bytes when no cell needs it."""
    text = data.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    if not any(needs_neutralising(c) for row in rows for c in row):
        return data
    newline = "\r\n" if "\r\n" in text else "\n"
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator=newline)
    for row in rows:
        w.writerow(neutralise_row(row))
    return buf.getvalue().encode("utf-8")
