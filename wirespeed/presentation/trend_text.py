"""How a trend series is told: its title, the unit its figures are shown in, one sentence per change
(regression, progression, or a test-bed change that started a new group) with its numbers and its
confidence, and what the series could not have detected. The trend step exports these texts once;
the web pages and the PDF trend report print them as they are.
"""

from __future__ import annotations

import math
from typing import Any

from wirespeed.engine.columns import METRICS
from wirespeed.engine import dates
from wirespeed.engine.trend import FEW_TRIALS
from wirespeed.engine.units import UNITS
from wirespeed.engine import number_style
from wirespeed.presentation import chartstyle


def device_name(vendor: str, model: str) -> str:
    """'Linux kernel 6.18 …', never 'Cisco Cisco 7600'."""
    return model if str(model).lower().startswith(str(vendor).lower()) else f"{vendor} {model}"


def figure_name(s: dict[str, Any]) -> str:
    """The figure a series follows: 'minimum latency, 64-byte frames, 50 % load, bidirectional, variant ndr-10'."""
    parts = [METRICS[s["metric"]].label.lower()]
    if s.get("frame_size") is not None:
        parts.append(f"{s['frame_size']}-byte frames")
    elif s.get("imix"):
        parts.append(str(s["imix"]))
    if s.get("load_pct") is not None:
        parts.append(f"{number_style.published(format(s['load_pct'], 'g'))} % load")
    parts.append(s["direction"])
    if s.get("variant"):
        parts.append(f"variant {s['variant']}")
    return ", ".join(parts)


def title(s: dict[str, Any]) -> str:
    """'<test title>: <figure>' (the device is the page's context)."""
    return f"{s['test_title']}: {figure_name(s)}"


def unit(s: dict[str, Any], values: list[float]) -> tuple[str, float]:
    """(symbol, factor) the series' figures are shown in: by magnitude, one unit for the whole series."""
    dim = METRICS[s["metric"]].dimension
    name = chartstyle.time_unit(values) if dim == "time" else number_style.pick_unit(dim, values)
    return UNITS[name].symbol, float(UNITS[name].factor)


def decimals(values_shown: list[float]) -> int:
    """Four significant digits of the smallest value shown (the one rule for a series' figures)."""
    return number_style.significant_decimals(values_shown, 4)


def number(value: float, factor: float, dec: int) -> str:
    return number_style.derived(value / factor, dec)


def percent(relative: float, signed: bool = True) -> str:
    """A relative change as a percentage: '+3.1 %', '-12.0 %', '0.48 %' (two significant digits below 1 %)."""
    pct = relative * 100
    if not math.isfinite(pct):
        return "from 0"
    dec = 1 if abs(pct) >= 1 or pct == 0 else max(1, 1 - math.floor(math.log10(abs(pct))))
    text = number_style.derived(abs(pct), dec)
    sign = ("+" if pct > 0 else "-" if pct < 0 else "") if signed else ""
    return f"{sign}{text} %"


def confidence(p: float | None) -> str:
    """'> 99.99 %' or the confidence truncated to two decimals (never rounded up to 100 %)."""
    if p is None:
        return ""
    if p >= 0.9999:
        return "> 99.99 %"
    return f"{math.floor(p * 10000) / 100:.2f} %"


def where(point: dict[str, Any], by: str) -> str:
    """How a point is named in a sentence: its software version (series in version order) or its date, and its set."""
    when = dates.text(point.get("date")) if point.get("date") else "an undated set"
    if by == "version" and point.get("version"):
        return f"{point['version']} (result set {point['slug']}, {when})"
    return f"{when} (result set {point['slug']})"


def change_sentence(s: dict[str, Any], c: dict[str, Any], point: dict[str, Any], unit_: tuple[str, float], dec: int) -> str:
    """One sentence for one change, with its numbers and its confidence."""
    sym, factor = unit_
    label = METRICS[s["metric"]].label.lower()
    before, after = number(c["before_avg"], factor, dec), number(c["after_avg"], factor, dec)
    moved = "rose" if c["after_avg"] > c["before_avg"] else "fell" if c["after_avg"] < c["before_avg"] else "stayed"
    at = where(point, s["ordered_by"])
    if c["kind"] == "testbed":
        return (f"The test bed changed at {at} ({c['testbed']}), so a new group starts there and is not compared with the one before: "
                f"the mean {label} {moved} from {before} to {after} {sym} ({percent(c['relative'])}).")
    text = (f"{c['kind'].capitalize()} at {at}: {label} {moved} from {before} to {after} {sym} ({percent(c['relative'])}; "
            f"{c['n_before']} trials before, {c['n_after']} after), confidence {confidence(c['confidence'])} "
            f"(jumpavg describes the series {number_style.derived(c['bits'], 1)} bits shorter with this change than without).")
    if min(c["n_before"], c["n_after"]) < FEW_TRIALS:
        text += (f" With so few trials, a change under {percent(c['smallest'], signed=False)} could not have been told from noise here."
                 if c.get("smallest") is not None else " With so few trials, no change could have been told from noise here.")
    return text


def limits_sentence(s: dict[str, Any]) -> str:
    """What the series could not have detected, with the variation and trials that set the limit."""
    worse = "fall" if s["better"] == "higher" else "rise"
    since = "since its last test-bed change" if _segmented(s) else ""
    basis = (f"at its trial-to-trial variation of {percent(s['noise'], signed=False)} "
             f"({s['trials']} trials in {s['sets']} result sets)")
    if not s["noise"]:
        return (f"Every one of the {s['trials']} trials in this series' groups has its group's value exactly, so there is no variation "
                "to tell a change from: a later change of any size would show.")
    parts = []
    if s.get("detect_newest") is not None:
        parts.append(f"a {worse} under {percent(s['detect_newest'], signed=False)} in the newest result set alone")
    if s.get("detect_sustained") is not None:
        parts.append(f"one under {percent(s['detect_sustained'], signed=False)} held over the second half of the series {since}".rstrip())
    if not parts:
        return f"This series could not have detected any change: its newest result set is the only one on its test bed, {basis}."
    return (f"This series could not have detected {' or '.join(parts)}, {basis}; "
            "a change of that size is found about half the time, a smaller one seldom.")


def _segmented(s: dict[str, Any]) -> bool:
    return any(c["kind"] == "testbed" for c in s.get("changes", []))
