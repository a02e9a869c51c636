"""Derived figures of a measurement row: line rate, maximum theoretical rate, bit rates, shares.

Pure functions over the model; each figure carries the interval implied by the printed
precision of the numbers it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from wirespeed.engine import linerate, rfc2889

if TYPE_CHECKING:  # the model's types, for annotations only: the engine reads rows, never loads them
    from wirespeed.resultset.model import Cell, ResultSet, Row, TestSpec


@dataclass(frozen=True)
class Estimate:
    """A derived value with the interval its inputs' rounding allows."""

    value: float
    lo: float
    hi: float

    def map(self, f) -> "Estimate":
        a, b = f(self.lo), f(self.hi)
        return Estimate(f(self.value), min(a, b), max(a, b))


@dataclass(frozen=True)
class RowContext:
    """What a row's figures are relative to."""

    frame: float  # on-wire frame bytes (FCS included), or IP packet bytes on POS
    wire_bits: float  # bits per frame on the wire
    streams: int
    line_rate_fps: float
    max_theoretical_fps: float
    capped: bool
    direction: str


def context(rs: ResultSet, test: TestSpec, row: Row) -> RowContext | None:
    """Line-rate context of a row; None for rows without a frame size (e.g. CPU readings) or a test without a link."""
    size = row.keys.get("frame_size")
    if size is None or test.link is None:  # no link: a test an import has not yet given a port speed
        return None
    frame = test.frame(size)
    direction = row.keys.get("direction", test.meta["direction"])
    n = linerate.streams(test.meta["topology"], test.meta["ports"], direction, test.meta.get("receivers"))
    bits = linerate.wire_bits(frame, test.link, test.encapsulation_bytes)
    line = linerate.line_rate_fps(frame, test.link, n, test.encapsulation_bytes)
    cap = rs.meta["dut"].get("forwarding_cap_pps")
    mx = linerate.max_theoretical_fps(line, cap)
    return RowContext(frame, bits, n, line, mx, mx < line, direction)


def per_second(count: Cell, duration: Cell) -> tuple[float, float] | None:
    """Frames ÷ seconds as the interval both printed figures allow; None without a positive duration."""
    (flo, fhi), (dlo, dhi) = count.canonical.interval(), duration.canonical.interval()
    if dlo <= 0:
        return None
    return flo / dhi, fhi / dlo


def estimate(row: Row, metric: str) -> Estimate | None:
    """The published value of a metric as an Estimate (canonical unit)."""
    cell = row.cells.get(metric)
    if cell is None:
        return None
    lo, hi = cell.canonical.interval()
    return Estimate(float(cell.canonical.value), lo, hi)


def throughput_fps(row: Row, ctx: RowContext) -> tuple[Estimate, str] | None:
    """Throughput in frames/s and where it came from: the fps column, else the L1 or L2 bit rate."""
    if (e := estimate(row, "throughput")) is not None:
        return e, "throughput"
    if (e := estimate(row, "throughput_l1")) is not None:
        return e.map(lambda v: v / ctx.wire_bits), "throughput_l1"
    if (e := estimate(row, "throughput_l2")) is not None:
        return e.map(lambda v: v / (ctx.frame * 8)), "throughput_l2"
    return None


def offered_from_load(row: Row, ctx: RowContext) -> Estimate | None:
    """Offered rate in frames/s = load % × line rate (the one place this is computed); None without a load."""
    load = row.keys.get("load_pct")
    if load is None:
        return None
    lo, hi = load.interval()
    return Estimate(float(load.value), lo, hi).map(lambda v: v / 100 * ctx.line_rate_fps)


def derived(row: Row, ctx: RowContext) -> dict[str, tuple[Estimate, str]]:
    """Every figure the engine can compute for a row: metric → (estimate, basis)."""
    out: dict[str, tuple[Estimate, str]] = {}
    tp = throughput_fps(row, ctx)
    if tp is not None:
        f, src = tp
        out["throughput"] = (f, src)
        out["throughput_l1"] = (f.map(lambda v: v * ctx.wire_bits), f"{src} × {ctx.wire_bits / 8:g} bytes on the wire")
        out["throughput_l2"] = (f.map(lambda v: v * ctx.frame * 8), f"{src} × {ctx.frame:g}-byte frames")
        out["throughput_line_rate"] = (f.map(lambda v: v / ctx.line_rate_fps * 100), f"{src} ÷ line rate {ctx.line_rate_fps:,.0f} frames/s")
        out["throughput_max_theoretical"] = (
            f.map(lambda v: v / ctx.max_theoretical_fps * 100),
            f"{src} ÷ maximum theoretical {ctx.max_theoretical_fps:,.0f} frames/s" + (" (forwarding cap)" if ctx.capped else ""),
        )
    if (offered := offered_from_load(row, ctx)) is not None:
        out["offered_rate"] = (offered, "load × line rate")
    if (off := estimate(row, "offered_rate")) is not None:
        out["offered_l1"] = (off.map(lambda v: v * ctx.wire_bits), "offered rate × bytes on the wire")
    return out


def counts(row: Row, running: bool = False) -> dict[str, tuple[Estimate, str]]:
    """Loss figures from frame counts: lost = tx − rx, loss % = lost / tx.

    running: the row counts an interval of a stream that keeps running (wirespeed.engine.ramp.running_stream);
    when it states the frames lost (the device's own drop count), loss % = lost / tx and tx − rx, which
    counts frames still in flight at the interval's end, is not derived."""
    out: dict[str, tuple[Estimate, str]] = {}
    tx, rx = estimate(row, "tx"), estimate(row, "rx")
    dropped = estimate(row, "lost") if running else None
    if dropped is not None and tx is not None and tx.lo > 0:
        out["loss"] = (Estimate(dropped.value / tx.value * 100, dropped.lo / tx.hi * 100, dropped.hi / tx.lo * 100), "lost ÷ tx")
    elif tx is not None and rx is not None and tx.lo > 0:
        lost = Estimate(tx.value - rx.value, tx.lo - rx.hi, tx.hi - rx.lo)
        out["lost"] = (lost, "tx − rx")
        out["loss"] = (Estimate(lost.value / tx.value * 100, lost.lo / tx.hi * 100, lost.hi / tx.lo * 100), "(tx − rx) ÷ tx")
    dur = estimate(row, "duration")
    if rx is not None and dur is not None and dur.lo > 0:
        fr = rfc2889.forwarding_rate
        out["forwarding_rate"] = (Estimate(fr(rx.value, dur.value), fr(rx.lo, dur.hi), fr(rx.hi, dur.lo)), "rx ÷ duration")
    return out
