"""Recompute every explained figure of a built site from its explanation record alone (build/site-static/results/<slug>/
explain.json: the records its explanation page prints, read by the build and not published),
independently of the code that wrote it: the formula's terms evaluated left to right, the value in the printed unit
rounded to the printed decimals, the input cell read back from the set's own CSV file at the line the record names,
and the verdict on a published figure checked against its printed interval. Shared by tests/test_explain.py (the
examples) and tests/test_publication_check.py (sets imported from tests/real/)."""

from __future__ import annotations

import csv
import json
import math
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from wirespeed.engine.units import UNITS

QUALIFIERS = "≈><≤≥~"


def records(public: Path) -> dict[str, dict[str, Any]]:
    """The explanation records of every set published in `public` (a working folder's public/, beside its build/), by slug."""
    exported = public.parent / "build" / "site-static" / "results"
    return {p.parent.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(exported.glob("*/explain.json"))
            if (public / "results" / p.parent.name / "explain" / "index.html").is_file()}


def figures(recs: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for t in recs["tests"] for f in t["figures"]]


def _evaluate(terms: list[list[Any]]) -> float:
    value = 0.0
    for op, x, *_ in terms:
        value = {"": lambda a, b: b, "×": lambda a, b: a * b, "÷": lambda a, b: a / b, "−": lambda a, b: a - b}[op](value, x)
    return value


def _factor(symbol: str, canonical: str) -> float | None:
    """The factor of a printed unit symbol, in the dimension of the formula's canonical unit."""
    dims = {"frames/s": "frame_rate", "bit/s": "bit_rate", "%": "percent", "frames": "count", "s": "time"}
    dim = dims.get(canonical)
    for u in UNITS.values():
        if u.symbol == symbol and (dim is None or u.dimension == dim):
            return float(u.factor)
    return None


def _grouped(text: str) -> str:
    whole, dot, frac = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    whole = whole.lstrip("-")
    if len(whole) >= 4:
        whole = f"{int(whole):,}"
    return sign + whole + dot + frac


def _csv_cells(root: Path, file: str, line: int) -> list[str] | None:
    """The cells of one line of a set's CSV file (None for a file whose rows have no CSV line: a capture, a tool's
    JSON). A tool's own CSV (under native/) is read by its importer's rules, which may split a field (iperf 2's
    interval "0.0-3.0" is a start and an end): its line's cells and the parts of each split at a dash."""
    path = root / file
    if path.suffix != ".csv" or not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    cells = next(csv.reader([lines[line - 1]]))
    if "native" in Path(file).parts:
        cells += [part for c in cells for part in re.split(r"(?<=\d)-", c) if part != c]
    return cells


def problems(public: Path, root: Path) -> tuple[int, list[str]]:
    """How many figures were recomputed, and one line per figure that does not recompute from its record."""
    out: list[str] = []
    count = 0
    for slug, recs in records(public).items():
        for rec in figures(recs):
            count += 1
            out += [f"{slug}: {rec['id']}: {p}" for p in check(rec, recs, root)]
    return count, out


def check(rec: dict[str, Any], recs: dict[str, Any], root: Path) -> list[str]:
    bad: list[str] = []
    row = recs["rows"][rec["row"]]
    body = rec["text"].lstrip(QUALIFIERS)
    # the input row: its cells are in the set's own file, at the line the record names
    cells = _csv_cells(root, row["file"], row["line"])
    if cells is not None:
        missing = [t for t in row["cells"].values() if t not in cells]
        if missing:
            bad.append(f"{row['file']} line {row['line']} does not hold {missing[:3]}")
    f = rec.get("formula")
    if f is not None:
        got = _evaluate(f["terms"])
        if got != f["result"] and not math.isclose(got, f["result"], rel_tol=1e-12):
            bad.append(f"its formula gives {got!r}, the record {f['result']!r}")
        if rec["derived"] and not math.isclose(got, rec["value"], rel_tol=1e-9):
            bad.append(f"its formula gives {got!r}, the figure is {rec['value']!r}")
    if rec["derived"]:
        if f is None and rec["id"].split("/")[1] not in ("lost", "loss"):  # loss of a running stream is the device's own count
            bad.append("a derived figure without a formula")
        factor = _factor(rec["unit"], (f or {}).get("unit", ""))
        if factor is None:
            bad.append(f"unit {rec['unit']!r} unknown")
        elif rec["decimals"] is not None and rec["value"] is not None:
            shown = rec["value"] / factor
            printed = _grouped(f"{shown:.{rec['decimals']}f}")
            if printed != body and not (printed.lstrip("-") == "0" * len(printed.lstrip("-")) and body.lstrip("-") == printed.lstrip("-")):
                bad.append(f"{rec['value']!r} in {rec['unit']} rounded to {rec['decimals']} decimals is {printed}, the page prints {rec['text']}")
    else:
        metric = rec["id"].split("/")[1]
        cell = row["cells"].get(metric)
        if cell is None:
            bad.append(f"its row has no published {metric}")
        elif "–" not in body:
            published = cell.lstrip("~<>=")
            if body.replace(",", "") != published:
                half = Decimal(1).scaleb(-(rec["decimals"] or 0)) / 2  # a machine's number printed by the number rule
                if abs(Decimal(body.replace(",", "")) - Decimal(published)) > half:
                    bad.append(f"prints {rec['text']}, its row holds {cell}")
        src = rec.get("source") or {}
        if f is not None and src.get("check") == "differs":
            # the recomputation lies outside what the printed figure stands for
            scale = rec["value"] / float(Decimal(body.replace(",", ""))) if float(Decimal(body.replace(",", ""))) else None
            if scale:
                ulp = float(Decimal(1).scaleb(-(rec["decimals"] or 0))) * scale
                if abs(f["result"] - rec["value"]) <= ulp / 2:
                    bad.append(f"marked as differing though {f['result']!r} rounds to the printed {rec['text']}")
    return bad
