"""The compare page's data: every published set's comparable rows (entries), read from the catalog's columns.

An entry is one measurement row of one set, keyed for alignment (test kind = the test's scenario, frame
size, offered load, direction, variant), with its throughput under every normalisation and rate
(wirespeed.engine.compare.normalised_figures) and its other compared metrics as published. Values are
canonical; figures are [value, qualifier, significant digits, range factor]. The browser chooses a unit,
formats and ranks; the arithmetic is the engine's. Written as compare/data.json by the site-data step.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb

from wirespeed.system import atomic
from wirespeed.presentation import devicename
from wirespeed.engine import qualified
from wirespeed.engine.columns import METRICS
from wirespeed.engine.compare import COMPARED, HEAT_CAP, HEAT_LEVELS, NORMALISATIONS, RATES, Figure, normalised_figures, statement
from wirespeed.catalog.view import set_summary
from wirespeed.presentation.tables.results import DERIVED_FIELDS
from wirespeed.engine.units import UNITS

VERSION = 1
THROUGHPUT_FIELDS = ("throughput", "throughput_l1", "throughput_l2", "throughput_line_rate")


def _published(cell: dict[str, Any]) -> Figure:
    q = cell.get("qualifier") or "exact"
    high = None
    if q == "range":
        lo, _, hi = cell["text"].partition("..")
        try:
            high = float(hi) / float(lo) if float(lo) else None
        except ValueError:
            high = None
        q = "range" if high else "approx"
    return Figure(cell["value"], q, qualified.significant_digits(cell["text"]), high)


DERIVED_COMPARED = {"loss": "loss_pct", "forwarding_rate": "forwarding_rate_fps"}  # the catalog's, where the source prints none


def _derived(row: dict[str, Any], metric: str) -> Figure | None:
    value = row.get(DERIVED_FIELDS.get(metric) or DERIVED_COMPARED[metric])
    if value is None:
        return None
    q = qualified.of_derived(row, metric)
    return Figure(value, q.qualifier, q.digits, q.high_factor)


def set_entries(con: duckdb.DuckDBPyConnection, slug: str, url: str = "", summary: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The comparable entries of one set: its aggregate measurement rows (a trial only where it is the only row of its
    frame size, load, direction and variant; no components or ports). `summary`: its set_summary(), when the caller has it."""
    summary = summary if summary is not None else set_summary(con, slug)
    meta = summary["meta"]
    tests = {r[0]: {"kind": r[1], "title": r[2], "ports": r[3], "link_bps": r[4], "direction": r[5], "port_speed": r[6]} for r in con.execute(
        "SELECT test_id, scenario, title, ports, link_bps, direction, port_speed FROM tests WHERE slug = ?", [slug]).fetchall()}
    line_l1 = dict(con.execute("SELECT row_id, line_rate_l1_bps FROM derived WHERE slug = ?", [slug]).fetchall())
    device, short = devicename.full(meta["dut"]["vendor"], meta["dut"]["model"]), devicename.short(meta["dut"]["vendor"], meta["dut"]["model"])
    def key(r: dict[str, Any]) -> tuple:
        return (r["test_id"], r.get("frame_size"), r.get("imix"), r.get("load_pct"), r.get("direction"), r.get("variant"))

    rows = [r for r in summary["rows"] if not r.get("component") and not r.get("port")]
    per_key: dict[tuple, int] = {}
    for r in rows:
        per_key[key(r)] = per_key.get(key(r), 0) + 1
    out = []
    for row in rows:
        if row.get("trial") is not None and per_key[key(row)] > 1:  # a trial is a figure of its own only where it is the only row
            continue
        test = tests[row["test_id"]]
        figs = {m: f for m in THROUGHPUT_FIELDS if (f := _derived(row, m)) is not None}
        n = normalised_figures(figs, test["ports"], test["link_bps"], line_l1.get(row["row_id"]))
        m = {metric: _published(cell) for metric, cell in row["cells"].items() if metric in COMPARED and metric != "throughput"}
        for metric in DERIVED_COMPARED:
            if metric not in m and (f := _derived(row, metric)) is not None:
                m[metric] = f
        if not n and not m:
            continue
        frame = row.get("frame_size") if row.get("frame_size") is not None else row.get("imix")
        out.append({"set": slug, "device": device, "short": short, "set_title": meta["title"], "url": url, "test": row["test_id"], "test_title": test["title"],
                    "kind": test["kind"], "ports": test["ports"], "port_speed": test["port_speed"], "frame": frame, "load": row.get("load_pct"),
                    "direction": row.get("direction") or test["direction"], "direction_label": row.get("direction"), "variant": row.get("variant"),
                    "n": {k: f.to_list() for k, f in n.items()}, "m": {k: f.to_list() for k, f in m.items()}})
    return out


def entries(con: duckdb.DuckDBPyConnection, slugs: list[str]) -> list[dict[str, Any]]:
    return [e for slug in slugs for e in set_entries(con, slug, f"results/{slug}/")]


def units() -> dict[str, list[list[Any]]]:
    """The unit ladder per dimension the page chooses from by magnitude (the same as number_style.pick_unit)."""
    ladders = {"frame_rate": ["fps", "kfps", "mfps", "gfps"], "bit_rate": ["bps", "kbps", "mbps", "gbps", "tbps"], "time": ["ns", "us", "ms", "s"]}
    return {dim: [[UNITS[u].symbol, float(UNITS[u].factor)] for u in names] for dim, names in ladders.items()}


def document(con: duckdb.DuckDBPyConnection, slugs: list[str], found: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """compare/data.json: the entries of every exported set (`found`, when the caller made them set by set) and
    what the page needs to label them."""
    return {"version": VERSION, "normalisations": list(NORMALISATIONS), "rates": list(RATES), "heat": {"cap": HEAT_CAP, "levels": HEAT_LEVELS},
            "metrics": {m: {"label": METRICS[m].label, "dimension": METRICS[m].dimension,
                            "statements": {f"{n}/{r}": statement(m, n, r) for n in NORMALISATIONS for r in RATES}} for m in COMPARED},
            "units": units(), "entries": entries(con, slugs) if found is None else found}


def write(con: duckdb.DuckDBPyConnection, slugs: list[str], static_root: Path, found: list[dict[str, Any]] | None = None) -> Path:
    dest = static_root / "compare" / "data.json"
    dest.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(dest, json.dumps(document(con, slugs, found), ensure_ascii=False, separators=(",", ":")) + "\n")
    return dest
