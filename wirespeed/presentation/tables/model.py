"""The table model: columns, cells and a named table of one result set, as the notebooks emit them
and the site and PDF print them (ResultTable.to_dict is what both read)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

# A printed number: an optional qualifier (<, ≥, ~, ±, a sign), digits grouped by commas or (narrow) no-break spaces,
# decimals, an exponent, a percent sign. A column of nothing else (blanks and dashes aside) is aligned right, by the
# web table and the PDF alike: the one rule of a column's alignment.
_NUMBER = re.compile(r"^[<>≤≥~≈±+−-]{0,2}\s?[0-9][0-9,\u00a0\u202f\u2009 ]*(\.[0-9]+)?([eE][+-]?[0-9]+)?\s?%?$")
_BLANK = {"", "—", "–", "-", "n/a", "N/A"}


def alignment(texts: Iterable[str | None]) -> str:
    """"right" for a column whose printed cells are all numbers (and at least one is), else "left"."""
    seen = False
    for text in texts:
        text = (text or "").strip()
        if text in _BLANK:
            continue
        if not _NUMBER.match(text):
            return "left"
        seen = True
    return "right" if seen else "left"


@dataclass
class Column:
    """A table column: its key, label, unit symbol, header group, and whether it is derived."""

    key: str
    label: str
    unit: str = ""
    group: str = ""
    derived: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "unit": self.unit, "group": self.group, "derived": self.derived}


@dataclass
class Cell:
    text: str
    value: float | str | None = None
    flag: str | None = None
    derived: bool = False  # computed by the engine, not as published
    source: tuple[int, str] | None = None  # the catalog figure it prints: (row_id, metric); the site names it by figure id


@dataclass
class ResultTable:
    """A named table of one result set."""

    id: str
    title: str
    caption: str
    test: str | None
    columns: list[Column]
    rows: list[list[Cell]]
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "title": self.title, "caption": self.caption, "test": self.test,
            "columns": [{**c.to_dict(), "align": alignment(r[i].text for r in self.rows)} for i, c in enumerate(self.columns)],
            "rows": [[c.text for c in r] for r in self.rows],
            "values": [[c.value for c in r] for r in self.rows],
            "flags": [[c.flag for c in r] for r in self.rows],
            "derived_cells": [[c.derived for c in r] for r in self.rows],
            "sources": [[list(c.source) if c.source else None for c in r] for r in self.rows],
            "notes": self.notes,
        }
