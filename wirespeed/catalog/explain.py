"""Explanation records: for every figure a set prints, where it comes from and how it was computed and rounded.

One record per figure id (the ids of wirespeed.site.data.figure_id), built from the catalog alone: the
value before rounding and the rule that rounded it, the formula with its inputs filled in (in canonical
units, evaluated left to right, so that anyone can recompute it), the input row with its file and line, the
qualifier and where it came from, what the source printed and whether the recomputation agrees, and the
notebook cell whose table prints it. The site data writes the records once per set (explain.json); the
set's explanation page, the popover and the PDF's figure index all print these records.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb

from wirespeed.engine import qualified
from wirespeed.engine.ramp import running_stream
from wirespeed.engine import number_style
from wirespeed.system.reproducible import cell_id

OPS = {"": lambda a, b: b, "×": lambda a, b: a * b, "÷": lambda a, b: a / b, "−": lambda a, b: a - b}
CANONICAL = {"throughput": "frames/s", "line_rate": "frames/s", "throughput_l1": "bit/s", "throughput_l2": "bit/s", "throughput_line_rate": "%",
             "throughput_max_theoretical": "%", "lost": "frames", "loss": "%", "forwarding_rate": "frames/s"}
NAMES = {"throughput": "throughput", "throughput_l1": "throughput (L1)", "throughput_l2": "throughput (L2)", "tx": "frames sent",
         "rx": "frames received", "lost": "frames lost", "duration": "trial duration"}


def evaluate(terms: list[list[Any]]) -> float:
    """The value of a formula's terms, [operator, value, …] applied left to right (the first operator is '')."""
    out = 0.0
    for op, value, *_ in terms:
        out = OPS[op](out, value)
    return out


def formula_text(terms: list[list[Any]], result: str) -> str:
    """'19,047,430,585 frames/s × 64 B × 8 = 9.7521 Tbit/s': the terms as printed, brackets where order matters."""
    text = ""
    for i, (op, value, unit, _name) in enumerate(terms):
        term = number_style.plain(value, 12) + (f" {unit}" if unit else "")
        if op == "":
            text = term
        else:
            if op in "×÷" and i >= 2 and terms[i - 1][0] == "−":
                text = f"({text})"
            text = f"{text} {op} {term}"
    return f"{text} = {result}"


def _cell_term(row: dict[str, Any], metric: str) -> list[Any]:
    cell = row["cells"][metric]
    return ["", cell["value"], _canonical_symbol(metric, cell), NAMES.get(metric, metric.replace("_", " "))]


def _canonical_symbol(metric: str, cell: dict[str, Any]) -> str:
    from wirespeed.engine.units import UNITS

    dim = UNITS[cell["unit"]].dimension
    return {"frame_rate": "frames/s", "bit_rate": "bit/s", "time": "s", "count": "frames", "percent": "%"}.get(dim, "")


def _throughput_terms(row: dict[str, Any], extra: dict[str, Any]) -> list[list[Any]] | None:
    """Throughput in frames/s as the engine takes it (wirespeed.engine.derive.throughput_fps): the fps cell, else a bit rate."""
    cells = row["cells"]
    if "throughput" in cells:
        return [_cell_term(row, "throughput")]
    if "throughput_l1" in cells and extra.get("wire_bits"):
        return [_cell_term(row, "throughput_l1"), ["÷", extra["wire_bits"], "bit", "bits per frame on the wire"]]
    if "throughput_l2" in cells and row.get("frame_bytes"):
        return [_cell_term(row, "throughput_l2"), ["÷", row["frame_bytes"], "B", "frame size"], ["÷", 8, "", "bits per byte"]]
    return None


def formula(row: dict[str, Any], metric: str, extra: dict[str, Any], running: bool) -> list[list[Any]] | None:
    """The terms that compute `metric` of a catalog row, as the catalog computed it (wirespeed.engine.derive), or None."""
    cells = row["cells"]
    frame, wire = row.get("frame_bytes"), extra.get("wire_bits")
    if metric == "line_rate":
        if not (extra.get("payload_bps") and extra.get("streams") and wire):
            return None
        return [["", extra["payload_bps"], "bit/s", "port bit rate"], ["×", extra["streams"], "", "port-directions at line rate"],
                ["÷", wire, "bit", "bits per frame on the wire"]]
    if metric in ("throughput", "throughput_l1", "throughput_l2", "throughput_line_rate", "throughput_max_theoretical"):
        base = _throughput_terms(row, extra)
        if base is None or (metric != "throughput" and base[0][3] == NAMES.get(metric)):
            return None  # the figure is the engine's own input
        match metric:
            case "throughput":
                return base
            case "throughput_l1":
                return base + [["×", wire / 8, "B", "bytes on the wire per frame"], ["×", 8, "", "bits per byte"]] if wire else None
            case "throughput_l2":
                return base + [["×", frame, "B", "frame size"], ["×", 8, "", "bits per byte"]] if frame else None
            case "throughput_line_rate":
                line = row.get("line_rate_fps")
                return base + [["÷", line, "frames/s", "line rate"], ["×", 100, "", "percent"]] if line else None
            case "throughput_max_theoretical":
                mx = row.get("max_theoretical_fps")
                return base + [["÷", mx, "frames/s", "maximum theoretical rate"], ["×", 100, "", "percent"]] if mx else None
    if metric in ("lost", "loss"):
        if running and "lost" in cells and "tx" in cells and metric == "loss":
            return [_cell_term(row, "lost"), ["÷", cells["tx"]["value"], "frames", "frames sent"], ["×", 100, "", "percent"]]
        if running or "tx" not in cells or "rx" not in cells:
            return None
        terms = [_cell_term(row, "tx"), ["−", cells["rx"]["value"], "frames", "frames received"]]
        return terms if metric == "lost" else terms + [["÷", cells["tx"]["value"], "frames", "frames sent"], ["×", 100, "", "percent"]]
    if metric == "forwarding_rate" and "rx" in cells and "duration" in cells:
        return [_cell_term(row, "rx"), ["÷", cells["duration"]["value"], "s", "trial duration"]]
    return None


def _decimals(text: str) -> int | None:
    """Decimals of a printed figure ('9.752' → 3, '19,047,430,585' → 0); None for a range."""
    body = text.lstrip("≈><≤≥~")
    if "–" in body:
        return None
    return len(body.partition(".")[2])


def _qualifier(row: dict[str, Any], metric: str, fig: dict[str, Any]) -> dict[str, str]:
    """The figure's qualifier and where it came from: the published cell, or the published inputs of a derived figure."""
    if not fig["derived"]:
        cell = row["cells"][metric]
        q = cell["qualifier"] or "exact"
        return {"name": q, "symbol": number_style.QUALIFIER_PREFIX.get(q, ""), "from": f"the published cell “{cell['text']}”"}
    ins = qualified.inputs(row, metric)  # the one list of a derived figure's published inputs
    q = qualified.of_derived(row, metric).qualifier
    said = ", ".join(f"{m} “{c['text']}”" for c, _d, m in ins)
    return {"name": q, "symbol": number_style.QUALIFIER_PREFIX.get(q, ""),
            "from": f"its published input{'s' if len(ins) > 1 else ''} {said}" if ins else "exact theoretical figures (no published input)"}


# The rules a figure is rounded by, named once (the explanation page prints each rule's words once, in its legend, and
# beside a figure only its name and the decimals); a record carries both the name and the whole sentence.
RULES = {
    "published": "the source's figure, digit for digit; it stands for every value that rounds to it",
    "machine": (f"a tool's own unrounded number, printed with at most {number_style.MACHINE_DIGITS} significant digits, "
                "a rate of 1,000/s or more whole"),
    "derived": "a figure computed here, printed with about four significant digits, a rate of 1,000/s or more whole",
    "inputs": "a figure computed from published ones, printed with no more significant digits than its least precise input",
}


def _rounding(fig: dict[str, Any], row: dict[str, Any], metric: str, machine: bool) -> dict[str, Any]:
    """How a figure was rounded: {"rule": a key of RULES, "places": "2 decimals" (or "a range"), "digits": its input's significant
    digits (rule "inputs"), "machine_text": the tool's number (rule "machine"), "text": the whole sentence}."""
    decimals = _decimals(fig["text"])
    places = f"{decimals} decimal{'s' if decimals != 1 else ''}" if decimals is not None else "a range"
    if not fig["derived"]:
        cell = row["cells"][metric]
        if machine:
            return {"rule": "machine", "places": places, "machine_text": cell["text"],
                    "text": (f"a machine's number “{cell['text']}”, printed by the number rule (at most {number_style.MACHINE_DIGITS} significant digits, "
                             f"a rate of 1,000/s or more whole): {places}")}
        return {"rule": "published", "places": places, "text": f"as published, digit for digit ({places})"}
    q = qualified.of_derived(row, metric) if metric != "line_rate" else None
    if q is not None and q.digits is not None:
        return {"rule": "inputs", "places": places, "digits": q.digits,
                "text": f"no more significant digits than its least precise published input ({q.digits}): {places}"}
    return {"rule": "derived", "places": places, "text": f"a derived figure's rule (about four significant digits, a rate of 1,000/s or more whole): {places}"}


def notebook_cells(analysis: Path, index: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Table id → the notebook and code cell that wrote it (the cell whose output names the table), as the notebook's
    page (site/notebook_pages.py) shows its source: the cell's number among the source's code cells and its id
    (cell_id of its place in the source), papermill's injected parameters not counted."""
    out: dict[str, dict[str, Any]] = {}
    for nb in index.get("notebooks", []):
        path = analysis / nb["ipynb"]
        if not path.is_file():
            continue
        cells = [c for c in json.loads(path.read_text(encoding="utf-8")).get("cells", [])
                 if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
        number = 0
        for place, cell in enumerate(cells):
            if cell.get("cell_type") != "code":
                continue
            number += 1
            for o in cell.get("outputs", []):
                plain = o.get("data", {}).get("text/plain")
                text = "".join(plain) if isinstance(plain, list) else (plain or "")
                if text.startswith("<wirespeed table ") and text.endswith(">"):
                    out.setdefault(text[len("<wirespeed table "):-1], {"name": nb["name"], "cell": number, "id": cell_id(nb["name"], place)})
    return out


def _table_of(row: dict[str, Any], metric: str, tables: dict[str, dict[str, Any]]) -> str | None:
    """The table that prints this row's metric: its test's, with a column of the metric (the results table first)."""
    candidates = [tid for tid, t in tables.items() if t.get("test") == row["test_id"] and any(c["key"] == metric for c in t.get("columns", []))]
    candidates.sort(key=lambda tid: (not tid.endswith("-results"), tid))
    if not candidates:  # a table of the test that prints the metric under another column key (a ramp's, a capture's)
        candidates = sorted(tid for tid, t in tables.items() if t.get("test") == row["test_id"])
    return candidates[0] if candidates else None


def anchor(fid: str) -> str:
    """The URL fragment of a figure's explanation: its id with '%', '#' and spaces encoded ('99.999%' → '99.999%25'), as the
    result-figure shortcode writes it (a browser decodes it back to the id)."""
    return fid.replace("%", "%25").replace("#", "%23").replace(" ", "%20")


def _file_url(path: str, file_urls: dict[str, str]) -> str | None:
    """The download of a catalog row's file (the catalog keeps its path from the archive root, the site names it in the set)."""
    return next((u for p, u in file_urls.items() if path == p or path.endswith("/" + p)), None)


def records(con: duckdb.DuckDBPyConnection, summary: dict[str, Any], figures: dict[str, dict[str, Any]], ids: dict[str, tuple[int, str]],
            file_urls: dict[str, str], tables: dict[str, dict[str, Any]], cells: dict[str, dict[str, Any]], url: str,
            machine: dict[str, bool]) -> dict[str, Any]:
    """The explanation records of every figure of a set, grouped by test, with the rows and notebook cells they name once.

    figures: the printed figures (sitedata.figures); ids: figure id → (row_id, metric); file_urls: a set file's path → its
    download; tables: the set's tables; cells: table id → its notebook cell (notebook_cells); url: the set's folder on the
    site; machine: figure id → whether the cell is a machine's number."""
    slug, meta = summary["slug"], summary["meta"]
    rows = {r["row_id"]: r for r in summary["rows"]}
    extra = {rid: {"wire_bits": wb, "streams": n, "payload_bps": pb} for rid, wb, n, pb in con.execute(
        "SELECT d.row_id, d.wire_bits, d.streams, t.payload_bps FROM derived d JOIN rows r USING (slug, row_id)"
        " JOIN tests t ON t.slug = r.slug AND t.test_id = r.test_id WHERE d.slug = ?", [slug]).fetchall()}
    tests = {t["id"]: t for t in meta["tests"]}
    agreements = {(a["row_id"], a["metric"]): a for a in summary["agreements"]}
    errata = {e["test"]: e for e in meta.get("errata", []) if isinstance(e, dict)}
    source = meta.get("source", {})
    by_test: dict[str, list[dict[str, Any]]] = {t["id"]: [] for t in meta["tests"]}
    used_rows: dict[str, dict[str, Any]] = {}
    notebooks: dict[str, dict[str, Any]] = {}
    for fid, fig in figures.items():
        row_id, metric = ids[fid]
        row = rows[row_id]
        test = tests[row["test_id"]]
        running = running_stream(test.get("rfc", []), {**(meta.get("methodology") or {}), **(test.get("methodology") or {})})
        terms = formula(row, metric, extra.get(row_id, {}), running)
        a = None if fig["derived"] else agreements.get((row_id, metric))
        rounded = _rounding(fig, row, metric, machine.get(fid, False))
        rec: dict[str, Any] = {"id": fid, "anchor": anchor(fid), "label": fig["label"], "text": fig["text"], "unit": fig["unit"],
                               "derived": fig["derived"], "value": fig["value"], "decimals": _decimals(fig["text"]),
                               "rounding": rounded.pop("text"), "rule": rounded, "row": str(row_id),
                               "qualifier": _qualifier(row, metric, fig)}
        if terms is not None and (fig["derived"] or a is not None):
            result = evaluate(terms)
            unit = CANONICAL.get(metric, "")
            rec["formula"] = {"terms": terms, "result": result, "unit": unit, "text": formula_text(terms, f"{number_style.plain(result, 12)} {unit}".strip())}
        if fig["derived"] and fig["value"] is not None:
            rec["before"] = number_style.plain(fig["value"], 15)  # canonical, before rounding and before the unit change
        if not fig["derived"]:
            cell = row["cells"][metric]
            src = {"printed": f"{number_style.published(cell['text'], cell['qualifier'])} {cell['unit_symbol']}".strip()}  # as the source printed it
            if a is not None:
                src.update({"recomputed": f"{a['recomputed_text']} {a['unit_symbol']}", "basis": a["basis"],
                            "check": "agrees" if a["agree"] else ("erratum" if row["test_id"] in errata else "differs")})
                if not a["agree"] and row["test_id"] in errata:
                    src["note"] = errata[row["test_id"]].get("note", "")
            rec["source"] = src
        if (tid := _table_of(row, metric, tables)) and tid in cells:
            c = cells[tid]
            rec["table"] = tid
            notebooks[tid] = {**c, "table": tid, "title": tables[tid].get("title", tid),
                              "url": f"notebooks/{c['name']}.html#cell-id={c['id']}"}
        used_rows[str(row_id)] = {"file": row["file"], "line": row["line"], "url": _file_url(row["file"], file_urls),
                                  "cells": {m: c["text"] for m, c in row["cells"].items()}}
        by_test[row["test_id"]].append(rec)
    return {"slug": slug, "title": meta["title"],
            "source": {"publisher": source.get("publisher") or "", "document": source.get("document") or "", "kind": source.get("kind") or "",
                       "transcribed_from": source.get("transcribed_from") or ""},
            "tests": [{"id": t["id"], "title": t["title"], "where": t.get("source_table") or "",
                       "figures": by_test[t["id"]]} for t in meta["tests"] if by_test[t["id"]]],
            "rows": used_rows, "notebooks": notebooks}
