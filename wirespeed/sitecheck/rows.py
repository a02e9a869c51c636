"""The rows of a set's tables as a figure names them: (test, frame size, variant, direction, component, load)
→ the printed cell of each metric, read from the JSON table downloads (column keys, units, pivots), so
that a card, a summary, a figure of an article or the compare page can be checked against the row it names."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from wirespeed.engine.units import UNITS
from wirespeed.sitecheck.numbers import SYMBOLS, Printed, cell_number
from wirespeed.sitecheck.site import Site, Table

DIRECTIONS = ("unidirectional", "bidirectional")
ROW_KEYS = ("frame_size", "variant", "direction", "component", "port", "load_pct", "trial")


@dataclass(frozen=True)
class Cell:
    """One printed cell of a table: where it is, its text, the figure in it and its unit."""

    table: Table
    row: int
    col: int
    text: str
    figure: Printed
    unit: str  # unit name (wirespeed.engine.units), '' for none

    @property
    def canonical(self) -> float:
        return self.figure.value * (float(UNITS[self.unit].factor) if self.unit else 1.0)

    @property
    def half_step(self) -> float:
        return 0.5 * 10 ** (-self.figure.decimals) * (float(UNITS[self.unit].factor) if self.unit else 1.0)

    @property
    def where(self) -> str:
        return f"{self.table.page} ({self.table.cell_where(self.row, self.col)})"


@dataclass(frozen=True)
class RowKey:
    test: str
    frame: str
    variant: str
    direction: str
    component: str
    load: float | None
    trial: str


def index(site: Site, slug: str) -> dict[tuple[str, str], list[tuple[RowKey, Cell]]]:
    """(test, metric) → every printed cell of that metric in the set's per-test tables, with its row's keys."""
    out: dict[tuple[str, str], list[tuple[RowKey, Cell]]] = {}
    for t in site.json_tables:
        if t.slug != slug or not t.test:
            continue
        for key, metric, cell in cells(t):
            out.setdefault((t.test, metric), []).append((key, cell))
    return out


def cells(t: Table) -> Iterator[tuple[RowKey, str, Cell]]:
    keycols = {col.key: i for i, col in enumerate(t.columns) if col.key in ROW_KEYS}
    for r, row in enumerate(t.rows):
        base = {k: row[i] if i < len(row) else "" for k, i in keycols.items()}
        for c, col in enumerate(t.columns):
            if col.is_key or c >= len(row):
                continue
            fig = cell_number(row[c])
            if fig is None:
                continue
            metric, _, pivot = col.key.partition(".")
            keys = dict(base)
            if pivot:
                keys["direction" if pivot in DIRECTIONS else "component"] = pivot
            load = keys.get("load_pct") or ""
            try:
                load_value = float(load.replace(",", "")) if load else None
            except ValueError:
                load_value = None
            key = RowKey(t.test or "", keys.get("frame_size", ""), keys.get("variant", ""), keys.get("direction", ""), keys.get("component", "") or keys.get("port", ""),
                         load_value, keys.get("trial", ""))
            yield key, metric, Cell(t, r, c, row[c], fig, SYMBOLS.get(col.unit, ""))


def named(candidates: list[tuple[RowKey, Cell]], frame: str | None = None, variant: str | None = None, direction: str | None = None,
          component: str | None = None, load: float | None = None, any_trial: bool = False) -> list[Cell]:
    """The cells of the row(s) a figure names: the keys it gives must match, the summary row (no trial) is the one named
    when a table also lists trials."""
    out = []
    for key, cell in candidates:
        if frame is not None and key.frame != frame:
            continue
        if variant is not None and key.variant != variant:
            continue
        if direction is not None and key.direction and key.direction != direction:
            continue
        if component is not None and key.component != component:
            continue
        if load is not None and key.load is not None and abs(key.load - load) > 1e-9:
            continue
        out.append((key, cell))
    if not any_trial and any(not k.trial for k, _ in out):
        out = [(k, c) for k, c in out if not k.trial]
    return [c for _, c in out]


def agrees(value: float, half_step: float, cell: Cell, relative: float = 0.0) -> bool:
    """Whether a printed figure (value and half its last digit, canonical units) and a cell can be the same number."""
    tolerance = half_step + cell.half_step + 1e-9 * max(abs(value), abs(cell.canonical)) + relative * abs(cell.canonical)
    return abs(value - cell.canonical) <= tolerance
