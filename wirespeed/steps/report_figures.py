"""The figure index of a PDF report: an appendix that explains every figure the article cites, from the set's explanation
records (wirespeed/catalog/explain.py, exported as results/<slug>/explain.json) — the records the web page's explanations
print. Each entry is the target of the figure's link in the text; its note links to the figure's explanation on the site
when the report has a public base URL, and otherwise cites the figure id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wirespeed.catalog.explain import anchor
from wirespeed.steps import pandoc_ast as A
from wirespeed.steps.reportlinks import is_full
from wirespeed.steps.shortcodes import ReportError

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


def _line(label: str, text: str) -> list[dict[str, Any]]:
    return [A.strong(f"{label}:"), {"t": "Space"}, *A.inlines(text)]


def entry(n: int, rec: dict[str, Any], test: dict[str, Any], records: dict[str, Any], base: str | None) -> list[dict[str, Any]]:
    """The blocks of one figure's entry: numbered, with its id as the target of the text's link."""
    head = f"{rec['text']}" + (f"\u00a0{rec['unit']}" if rec["unit"] else "") + (" †" if rec["derived"] else "")
    lines: list[list[dict[str, Any]]] = []
    if rec.get("before"):
        lines.append(_line("Before rounding", f"{rec['before']} {(rec.get('formula') or {}).get('unit', '')}".strip()))
    lines.append(_line("Rounding", rec["rounding"]))
    if rec.get("formula"):
        lines.append(_line("Formula" if rec["derived"] else "Recomputed", rec["formula"]["text"]))
    q = rec["qualifier"]
    symbol = f" ({q['symbol']})" if q["symbol"] else ""
    lines.append(_line("Qualifier", f"{q['name']}{symbol}, from {q['from']}"))
    if src := rec.get("source"):
        where = f" in {test['where']}" if test.get("where") else ""
        doc = records.get("source", {})
        text = f"{src['printed']}, printed{where}" + (f" of “{doc['document']}”" if doc.get("document") else "") + (f" ({doc['publisher']})" if doc.get("publisher") else "")
        if src.get("check"):
            text += f"; {CHECK[src['check']]}" + (f": {src['recomputed']}" if src.get("recomputed") else "") + (f" ({src['basis']})" if src.get("basis") else "")
        lines.append(_line("Source", text))
    row = records["rows"][rec["row"]]
    lines.append(_line("Input row", f"{Path(row['file']).name}, line {row['line']}"))
    if rec.get("table") and (nb := records["notebooks"].get(rec["table"])):
        lines.append(_line("Notebook", f"{nb['name']}, code cell {nb['cell']} (table “{nb['title']}”)"))
    if base is not None and is_full(base):
        url = explanation_url(base, records["slug"], rec["id"])
        lines.append([A.strong("Explanation:"), {"t": "Space"}, {"t": "Link", "c": [A.NO_ATTR, [{"t": "Code", "c": [A.NO_ATTR, url]}], [url, ""]]}])
    else:
        lines.append([A.strong("Figure id:"), {"t": "Space"}, {"t": "Code", "c": [A.NO_ATTR, rec["id"]]}])
    title = {"t": "Span", "c": [[f"xp-{n}", [], []], [A.strong(f"{n}. {head}"), {"t": "Space"}, *A.inlines(f"— {rec['label']}")]]}
    body: list[dict[str, Any]] = []
    for i, inl in enumerate(lines):
        body += ([{"t": "LineBreak"}] if i else []) + inl
    return [{"t": "Para", "c": [title]}, {"t": "Para", "c": body}]


def figure_index_blocks(records: dict[str, Any] | None, used: list[str], base: str | None) -> list[dict[str, Any]]:
    """The appendix explaining every figure the text cites (in citation order); nothing when it cites none."""
    if not used or records is None:
        return []
    index = by_id(records)
    missing = [fid for fid in used if fid not in index]
    if missing:
        raise ReportError(f"result set {records.get('slug')!r}: figure {missing[0]!r} has no explanation record (results/<slug>/explain.json)")
    blocks = [A.header(1, "Figure index", ident="figure-index", classes=["appendix"]),
              A.para("Every figure the text cites, in order: its value before rounding and the rounding rule, the formula with its inputs "
                     "(canonical units, computed left to right), the qualifier and where it came from, what the source printed and whether "
                     "the recomputation agrees, the input row and the notebook cell whose table prints it. † marks a figure wirespeed derived.")]
    for n, fid in enumerate(used, start=1):
        rec, test = index[fid]
        blocks += entry(n, rec, test, records, base)
    return blocks
