"""The figure index of a PDF report: an appendix that explains every figure of the set, from the set's explanation records
(wirespeed/catalog/explain.py, exported as results/<slug>/explain.json) — the records the web page's explanations print.
One compact table per test (id, printed value, formula with its inputs, source and verdict), set in 7 pt; each entry is the
target of the links of the text's figures and of the tables' derived cells (†), numbered in the records' order. An
entry's id links to the figure's explanation on the site when the report has a public base URL, and otherwise is cited
as it is."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wirespeed.catalog.explain import anchor
from wirespeed.report import pandoc_ast as A
from wirespeed.report.links import is_full
from wirespeed.report.shortcodes import ReportError

CHECK = {"agrees": "the recomputation agrees", "erratum": "an erratum the set records", "differs": "the recomputation differs"}


def load(static_root: Path, slug: str) -> dict[str, Any] | None:
    """A set's explanation records, as the site-data step exported them (None when there are none)."""
    path = static_root / "results" / slug / "explain.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def by_id(records: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Figure id → (its record, its test's entry)."""
    return {f["id"]: (f, t) for t in records.get("tests", []) for f in t["figures"]}


def explanation_url(base: str, slug: str, fid: str) -> str:
    """The figure's explanation on the site served at `base` (a full http(s) address)."""
    return f"{base}results/{slug}/explain/#{anchor(fid)}"


WIDTHS = [0.25, 0.15, 0.38, 0.22]  # figure id, printed, how computed, source and input (fractions of the line)
HEAD = ["No. and figure id", "Printed", "How computed", "Source and input row"]


def numbers(records: dict[str, Any] | None) -> dict[str, int]:
    """Figure id → its entry's number in the index (the records' order: by test, then as the set prints them)."""
    return {f["id"]: n for n, f in enumerate((f for t in (records or {}).get("tests", []) for f in t["figures"]), start=1)}


def target(n: int) -> str:
    """The index entry's anchor: what a figure's link in the text and a derived cell's † point to."""
    return f"#xp-{n}"


def entries(records: dict[str, Any] | None) -> dict[str, str]:
    """Figure id → its entry's anchor in the figure index."""
    return {fid: target(n) for fid, n in numbers(records).items()}


def _cell(inl: list[dict[str, Any]]) -> list[Any]:
    return [A.NO_ATTR, {"t": "AlignLeft"}, 1, 1, [A.plain(inl)] if inl else []]


def _computed(rec: dict[str, Any]) -> str:
    """The formula with its inputs (or the recomputation of a published figure), and the value before rounding."""
    parts = []
    if rec.get("formula"):
        parts.append(("" if rec["derived"] else "recomputed: ") + rec["formula"]["text"])
    if rec.get("before") and not rec.get("formula"):
        parts.append(f"before rounding {rec['before']}")
    if not parts:
        parts.append("as published")
    parts.append(f"{rec['decimals']} dp" if rec.get("decimals") is not None else "a range")
    q = rec["qualifier"]
    if q["name"] != "exact":
        parts.append(f"qualifier {q['name']}" + (f" ({q['symbol']})" if q["symbol"] else ""))
    return "; ".join(parts)


def _code(text: str) -> dict[str, Any]:
    return {"t": "Code", "c": [A.NO_ATTR, text]}


def _file(row: dict[str, Any]) -> str:
    return Path(row["file"]).name


def _cell_of(rec: dict[str, Any], records: dict[str, Any]) -> str | None:
    """The notebook code cell whose table prints the figure ("throughput cell 7"), or None."""
    nb = records["notebooks"].get(rec["table"]) if rec.get("table") else None
    return f"{nb['name']} cell {nb['cell']}" if nb else None


@dataclass(frozen=True)
class _Shared:
    """What every figure of a test has in common, said once above its table instead of on every row: the start of
    their ids (the test's id and a slash), their input file, the notebook cell that prints them."""

    prefix: str = ""
    file: str | None = None
    cell: str | None = None


def _shared(test: dict[str, Any], records: dict[str, Any]) -> _Shared:
    figures = test["figures"]
    prefix = f"{test['id']}/" if test.get("id") and all(f["id"].startswith(f"{test['id']}/") and len(f["id"]) > len(test["id"]) + 1
                                                         for f in figures) else ""
    files = {_file(records["rows"][f["row"]]) for f in figures}
    cells = {_cell_of(f, records) for f in figures}
    return _Shared(prefix, files.pop() if len(files) == 1 else None, cells.pop() if len(cells) == 1 else None)


def _source(rec: dict[str, Any], records: dict[str, Any], shared: _Shared = _Shared()) -> str:
    """What the source printed (where: the test's heading says) and whether the recomputation agrees; the input row's
    file and line; the notebook cell whose table prints it (the file and the cell only where the test's figures differ in
    them: `shared`)."""
    row = records["rows"][rec["row"]]
    parts = []
    if src := rec.get("source"):
        parts.append(f"printed {src['printed']}")
        if src.get("check"):
            parts.append(CHECK[src["check"]])
    else:
        parts.append("derived by wirespeed")
    if shared.file is None:
        parts.append(f"{_file(row)}:{row['line']}" if row.get("line") else _file(row))  # a capture, a tool's JSON: no line
    elif row.get("line"):
        parts.append(f"line {row['line']}")
    if shared.cell is None and (cell := _cell_of(rec, records)):
        parts.append(cell)
    return "; ".join(parts)


def _intro(test: dict[str, Any], records: dict[str, Any], shared: _Shared) -> list[dict[str, Any]]:
    """The paragraph above a test's table: where the source prints its figures, and what the rows leave out (`shared`)."""
    doc = records.get("source", {}).get("document")
    out = A.inlines(f"The source prints them in {test['where']}" + (f" of “{doc}”" if doc else "") + ". ") if test.get("where") else []
    if shared.prefix:
        out += [*A.inlines("Their ids begin "), _code(shared.prefix), *A.inlines(", which the rows leave out. ")]
    printed_by = shared.cell.replace(" cell ", " notebook, code cell ") if shared.cell else None
    if shared.file:
        out += [*A.inlines("Every one is read from "), _code(shared.file),
                *A.inlines(" (by line, where the row names one)" + (f" and printed by the {printed_by}." if printed_by else
                                                                    "; notebook cells are named by notebook and code cell."))]
    elif printed_by:
        out += A.inlines(f"Input rows are named file:line (a file that is not a table of lines by its name); every figure is printed by the {printed_by}.")
    else:
        out += A.inlines("Input rows are named file:line (a file that is not a table of lines, such as a capture, by its name), notebook cells "
                         "by notebook and code cell.")
    return out


def _id_cell(n: int, fid: str, slug: str, base: str | None, prefix: str = "") -> list[dict[str, Any]]:
    code = _code(fid.removeprefix(prefix))
    ref = {"t": "Link", "c": [A.NO_ATTR, [code], [explanation_url(base, slug, fid), ""]]} if base is not None and is_full(base) else code
    return [{"t": "Span", "c": [[target(n)[1:], [], []], [{"t": "Str", "c": f"{n}."}]]}, {"t": "Space"}, ref]


def _table(rows: list[list[list[dict[str, Any]]]]) -> dict[str, Any]:
    """An uncaptioned longtable (no number, no entry in the list of tables) of rich cells, at the widths WIDTHS."""
    colspecs = [[{"t": "AlignLeft"}, {"t": "ColWidth", "c": w}] for w in WIDTHS]
    head = [A.NO_ATTR, [[A.NO_ATTR, [_cell(A.inlines(h)) for h in HEAD]]]]
    body = [[A.NO_ATTR, [_cell(c) for c in row]] for row in rows]
    return {"t": "Table", "c": [A.NO_ATTR, [None, [A.plain([])]], colspecs, head, [[A.NO_ATTR, 0, [], body]], [A.NO_ATTR, []]]}


def figure_index_blocks(records: dict[str, Any] | None, used: list[str], base: str | None) -> list[dict[str, Any]]:
    """The appendix explaining every figure of the set, a table per test; nothing when the set has no records. Every figure
    the text cites (`used`) must have one."""
    if records is None:
        if used:
            raise ReportError(f"figure {used[0]!r} has no explanation record (results/<slug>/explain.json)")
        return []
    index = by_id(records)
    missing = [fid for fid in used if fid not in index]
    if missing:
        raise ReportError(f"result set {records.get('slug')!r}: figure {missing[0]!r} has no explanation record (results/<slug>/explain.json)")
    if not index:
        return []
    linked = base is not None and is_full(base)
    blocks = [A.header(1, "Figure index", ident="figure-index", classes=["appendix"]),
              A.para("Every figure of the set, numbered; a figure in the text and a derived table cell (†) link to its entry. "
                     "How computed: the formula with its inputs in canonical units, computed left to right (for a published figure, its "
                     "recomputation), and the decimals it is printed with; a published figure is printed digit for digit, a derived one "
                     "with about four significant digits, or no more than its least precise input. Source: what the source printed and where, "
                     "whether the recomputation agrees, the input row and the notebook cell. "
                     + ("Each figure id links to its full explanation on the site (the value before rounding, the rounding rule and the notebook cell)."
                        if linked else "The full explanation of each figure (the value before rounding, the rounding rule and the notebook cell) "
                        "is on the result set's explanation page on the site, under its figure id."))]
    nums = numbers(records)
    for test in records["tests"]:
        shared = _shared(test, records)
        rows = []
        for rec in test["figures"]:
            printed = A.inlines(rec["text"] + (f" {rec['unit']}" if rec["unit"] else "") + (" †" if rec["derived"] else ""))  # the unit may wrap
            rows.append([_id_cell(nums[rec["id"]], rec["id"], records["slug"], base, shared.prefix), printed,
                         A.inlines(_computed(rec)), A.inlines(_source(rec, records, shared))])
        blocks += [A.header(2, f"Figures of {test['title']}", classes=["appendix"]), A.para(_intro(test, records, shared)),
                   A.div([_table(rows)], ["table-scriptsize"])]
    return blocks
