"""Recompute every derived figure a source also publishes, and compare within its rounding."""

from __future__ import annotations

from dataclasses import dataclass

from wirespeed.engine import number_style
from wirespeed.engine.derive import Estimate, context, counts, derived
from wirespeed.engine.ramp import running_stream
from wirespeed.resultset.model import ResultSet, Row

# Published columns the engine recomputes, and from what.
CHECKED = ("throughput_l1", "throughput_l2", "throughput_line_rate", "throughput_max_theoretical", "offered_rate", "offered_l1", "lost", "loss", "forwarding_rate")


@dataclass(frozen=True)
class Agreement:
    """One published figure next to its recomputation."""

    test: str
    row: Row
    metric: str
    published: str  # as printed, with unit symbol
    published_lo: float
    published_hi: float
    recomputed: Estimate  # canonical unit
    unit_symbol: str
    factor: float  # canonical → published unit
    basis: str
    agree: bool

    @property
    def recomputed_text(self) -> str:
        cell = self.row.cells[self.metric]
        shown = self.recomputed.value / self.factor
        decimals = max(cell.figure.decimals + 1, 0)
        return f"{shown:,.{decimals}f}"

    @property
    def where(self) -> str:
        k = self.row.keys
        parts = [self.test]
        if "frame_size" in k:
            parts.append(f"{k['frame_size']}" + (" bytes" if isinstance(k["frame_size"], int) else ""))
        for name in ("variant", "direction", "component"):
            if name in k:
                parts.append(str(k[name]))
        if "load_pct" in k:
            parts.append(f"{k['load_pct'].text} % load")
        if "trial" in k:
            parts.append(f"trial {k['trial']}")
        return ", ".join(parts) or f"line {self.row.line}"


def _overlap(lo1: float, hi1: float, lo2: float, hi2: float) -> bool:
    slack = 1e-9 * max(abs(lo1), abs(hi1), abs(lo2), abs(hi2), 1e-30)
    return lo1 <= hi2 + slack and lo2 <= hi1 + slack


def agreements(rs: ResultSet) -> list[Agreement]:
    """All published derived figures of a result set, each with its recomputation."""
    out: list[Agreement] = []
    for row in rs.measurements():
        test = rs.tests[row.test]
        ctx = context(rs, test, row)
        figures = counts(row, running_stream(test.meta.get("rfc", []), test.methodology))
        if ctx is not None:
            figures.update(derived(row, ctx))
        for metric in CHECKED:
            cell = row.cells.get(metric)
            if cell is None or metric not in figures:
                continue
            est, basis = figures[metric]
            if basis == metric or basis.startswith(metric + " "):
                continue  # the figure was itself the source of the estimate
            lo, hi = cell.canonical.interval()
            factor = float(cell.unit.factor)
            sym = cell.unit.symbol
            published = f"{number_style.published(cell.figure.text, cell.figure.qualifier)} {sym}"  # as every page prints it
            out.append(Agreement(row.test, row, metric, published, lo, hi, est, sym, factor, basis, _overlap(lo, hi, est.lo, est.hi)))
    return out


@dataclass(frozen=True)
class Excess:
    """A forwarded rate above what the links (or the device's cap) can carry."""

    test: str
    row: Row
    metric: str
    lower_bound_fps: float
    max_fps: float
    capped: bool


def excesses(rs: ResultSet) -> list[Excess]:
    """Rows whose throughput or forwarding rate exceeds the maximum theoretical rate even at the low end of its rounding."""
    out = []
    for row in rs.measurements():
        test = rs.tests[row.test]
        ctx = context(rs, test, row)
        if ctx is None:
            continue
        figs = derived(row, ctx)
        candidates = []
        if "throughput" in figs:
            candidates.append(("throughput", figs["throughput"][0]))
        if (fr := row.cells.get("forwarding_rate")) is not None:
            lo, hi = fr.canonical.interval()
            candidates.append(("forwarding_rate", Estimate(float(fr.canonical.value), lo, hi)))
        for metric, est in candidates:
            if est.lo > ctx.max_theoretical_fps * (1 + 1e-9):
                out.append(Excess(row.test, row, metric, est.lo, ctx.max_theoretical_fps, ctx.capped))
    return out
