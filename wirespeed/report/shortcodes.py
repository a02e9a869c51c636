"""An article's wirespeed shortcodes → Pandoc AST nodes: each result-table, result-chart,
result-figure and result-ref becomes a Table, Figure or Str node built from the exported set data, so
every number in the PDF is the text the web page prints, and no text from a result set is ever read as
LaTeX. The article's Markdown is parsed by Pandoc with raw TeX, raw HTML and TeX math switched off."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from wirespeed.presentation.tables.layout import NO_KEY_HEAD, layout as table_layout, transposed_heads
from wirespeed.presentation.tables.results import SPREAD_OF_BOUNDS
from wirespeed.site import articles
from wirespeed.report import tablefit
from wirespeed.report import pandoc_ast as A


READER = "markdown-raw_tex-raw_attribute-raw_html-tex_math_dollars-tex_math_single_backslash-citations"


DERIVED_MARK = "†"


FLAG_MARK = "‡"
# a table's notes in the PDF: its derived cells', and each kind of flagged cell's (presentation/tables/results.py: its
# flags); sitecheck/unit_agreement.py reads past them
PDF_DERIVED = "computed by the wirespeed engine from the published figures."
PDF_DISAGREES = "published figure that disagrees with its recomputation (see the appendix on checked figures)."
PDF_SPREAD_OF_BOUNDS = "standard deviation of bounds: the spread of where the searches stopped, not of the device's throughput."


class ReportError(RuntimeError):
    """A report cannot be built: the message names the result set and what failed."""


def pandoc() -> Path:
    """The pandoc executable that pypandoc-binary ships."""
    from wirespeed.system.tools import ToolMissing, packaged_binary

    try:
        return packaged_binary("pypandoc", "files", "pandoc")
    except ToolMissing as exc:
        raise ReportError(str(exc)) from None


def _api_version() -> list[int]:
    out = subprocess.run([str(pandoc()), "-f", "markdown", "-t", "json"], input="", capture_output=True, text=True, check=True).stdout
    return json.loads(out)["pandoc-api-version"]


class _Doc:
    """Assembles one report: numbering of tables and figures, the data they come from."""

    def __init__(self, data: dict[str, Any], charts_dir: Path, entries: dict[str, str] | None = None):
        self.data = data
        self.charts_dir = charts_dir
        self.entries = entries or {}  # figure id → its entry in the figure index (report/figures.py), e.g. "#xp-12"
        self.tables_used: list[str] = []
        self.table_parts: dict[str, list[list[int]]] = {}  # the columns of each printed part of a table
        self.charts_used: list[str] = []
        self.figures_used: list[str] = []  # in the order the article cites them: the figure index numbers them so

    def table(self, tid: str, where: str) -> list[dict[str, Any]]:
        t = self.data["tables"].get(tid)
        if t is None:
            raise ReportError(f"{where}: no table {tid!r} in result set {self.data['slug']!r}")
        self.tables_used.append(tid)
        cols = t["columns"]
        grouped = any(c["group"] for c in cols)
        aligns = ["AlignRight" if c["align"] == "right" else "AlignLeft" for c in cols]  # the table model's, as the web table's

        def label(c: dict[str, Any], with_group: bool) -> str:
            text = c["label"] if not with_group or not c["group"] else f"{c['group']} {c['label']}"
            if c["unit"] and c["unit"].lower() != c["label"].lower():  # the web table's rule: every unit, unless the label is it
                text += f" ({c['unit']})"
            return text + (f" {DERIVED_MARK}" if c.get("derived") else "")

        def head_of(idx: list[int]) -> list[list[tuple[str, str, int, int]]]:
            """The header rows over the columns idx: a group label spans its columns that are there."""
            if not grouped:
                return [[(label(cols[i], False), aligns[i], 1, 1) for i in idx]]
            top, bottom, k = [], [], 0
            while k < len(idx):
                c = cols[idx[k]]
                if not c["group"]:  # its label in the lower row (a two-row multirow cell clips a heading that wraps)
                    top.append(("", aligns[idx[k]], 1, 1))
                    bottom.append((label(c, False), aligns[idx[k]], 1, 1))
                    k += 1
                    continue
                j = k
                while j < len(idx) and cols[idx[j]]["group"] == c["group"]:
                    bottom.append((label(cols[idx[j]], False), aligns[idx[j]], 1, 1))
                    j += 1
                top.append((c["group"], "AlignCenter", 1, j - k))
                k = j
            return [top, bottom]

        body = []
        marks = t.get("derived_cells") or [[False] * len(cols) for _ in t["rows"]]
        figs = t.get("figs") or [[None] * len(cols) for _ in t["rows"]]
        linked = {(r, i): self.entries[f] for r, row in enumerate(figs) for i, f in enumerate(row)
                  if f in self.entries and marks[r][i] and t["rows"][r][i] and not cols[i].get("derived")}  # a derived cell's † → its entry

        def rich(text: str, at: tuple[int, int] | None) -> str | list[dict[str, Any]]:
            """A cell's text; a derived cell's † a link to the figure's entry in the figure index."""
            if at not in linked:
                return text
            return [{"t": "Link", "c": [A.NO_ATTR, [{"t": "Str", "c": DERIVED_MARK}], [linked[at], ""]]} if i.get("c") == DERIVED_MARK else i
                    for i in A.inlines(text)]

        for r, row in enumerate(t["rows"]):
            flags = t["flags"][r]
            # a derived cell in a column of published figures is marked in the cell itself
            body.append([(text + (f" {DERIVED_MARK}" if marks[r][i] and text and not cols[i].get("derived") else "")
                          + (f" {FLAG_MARK}" if flags[i] else ""), aligns[i]) for i, text in enumerate(row)])
        notes = []
        if any(c.get("derived") for c in cols) or any(m and not cols[i].get("derived") for row in marks for i, m in enumerate(row)):
            notes.append(f"{DERIVED_MARK} {PDF_DERIVED}")
        flags = {f for row in t["flags"] for f in row if f}
        if flags - {SPREAD_OF_BOUNDS}:
            notes.append(f"{FLAG_MARK} {PDF_DISAGREES}")
        if SPREAD_OF_BOUNDS in flags:
            notes.append(f"{FLAG_MARK} {PDF_SPREAD_OF_BOUNDS}")
        caption = A.inlines(f"{t['title']}. {t['caption']}" + (" " + " ".join(notes) if notes else ""))
        # the layout the web page prints too (whole, split by metric, transposed: presentation/tables/layout.py); then
        # type size, orientation and widths fit the longest number, and a part too wide for its page prints in pieces
        lay = t.get("layout") or table_layout(cols, t["rows"])
        keys = lay["keys"]
        if lay["kind"] == "transposed":
            key_head = " · ".join(label(cols[i], False) for i in range(keys)) if keys else NO_KEY_HEAD
            head = [[(key_head, "AlignLeft", 1, 1)] + [(names, "AlignRight", 1, 1) for names in transposed_heads(t["rows"], keys)]]
            rows = [[(label(c, True), "AlignLeft")] + [(body[r][i][0], aligns[i]) for r in range(len(body))] for i, c in enumerate(cols) if i >= keys]
            at = [[None] + [(r, i) for r in range(len(body))] for i in range(keys, len(cols))]
            pieces = [(head, rows, ["AlignLeft"] + ["AlignRight"] * len(body), "", list(range(len(cols))), at)]
        else:
            pieces = []
            for part in lay["parts"]:
                idx, shown = part["columns"], part.get("rows") or list(range(len(body)))
                headers = [[text] for text, *_ in head_of(idx)[-1]]
                texts = [[body[r][i][0] for i in idx] for r in shown]
                sub = tablefit.column_parts(headers, texts, [aligns[i] == "AlignRight" for i in idx], keys)
                for k, cut in enumerate(sub):
                    cols_of = [idx[j] for j in cut]
                    name = part["title"] + (f" ({k + 1} of {len(sub)})" if len(sub) > 1 else "")
                    pieces.append((head_of(cols_of), [[body[r][i] for i in cols_of] for r in shown], [aligns[i] for i in cols_of], name, cols_of,
                                   [[(r, i) for i in cols_of] for r in shown]))
        self.table_parts[tid] = [p[4] for p in pieces]  # the original columns of each printed piece (the manifest keeps them)
        if len(pieces) > 1:
            caption = caption + A.inlines(f" Printed in {len(pieces)} parts, each starting with {', '.join(cols[i]['label'] for i in range(keys))}.")
        out: list[dict[str, Any]] = []
        for n, (head, texts, al, name, _cols, cells_at) in enumerate(pieces):
            fit = tablefit.fit([[cell[0]] for cell in head[-1]], [[text for text, _ in row] for row in texts], [a == "AlignRight" for a in al])
            rows = [[(rich(text, w), a) for (text, a), w in zip(row, wrow)] for row, wrow in zip(texts, cells_at)]
            if n == 0:
                block = A.table(caption, head, rows, al, ident=f"tbl-{tid}", short=t["title"], widths=fit.widths)
            else:  # a continuation is not a new table: no number, no entry in the list of tables
                block = A.table([], head, rows, al, widths=fit.widths)
            if fit.size != tablefit.SIZES[0][0]:
                block = A.div([block], [f"table-{fit.size}"])
            if len(pieces) > 1:
                lead = [{"t": "Str", "c": "Table"}, {"t": "Str", "c": "\u00a0"}, {"t": "RawInline", "c": ["latex", f"\\ref{{tbl-{tid}}}"]},
                        *A.inlines(f", part {n + 1} of {len(pieces)}: {name}.")]
                block = A.div([A.para(lead), block], ["table-part"])
            out.append(A.div([block], ["landscape"]) if fit.landscape else block)
        return out

    def chart(self, cid: str, where: str) -> list[dict[str, Any]]:
        c = self.data["charts"].get(cid)
        if c is None:
            raise ReportError(f"{where}: no chart {cid!r} in result set {self.data['slug']!r}")
        svg = self.charts_dir / f"{cid}.svg"  # the drawing the report makes its PDF from (chart_pdf)
        if not svg.is_file():
            raise ReportError(f"{where}: chart {cid!r} has no drawing at {svg}")
        self.charts_used.append(cid)
        return [A.figure(f"{cid}.pdf", A.inlines(f"{c['title']}. {c['caption']}"), c["alt"], ident=f"fig-{cid}", short=c["title"])]

    def figure(self, fid: str, where: str) -> list[dict[str, Any]]:
        f = self.data["figures"].get(fid)
        if f is None:
            raise ReportError(f"{where}: no figure {fid!r} in result set {self.data['slug']!r}")
        text = f["text"] + ("\u00a0" + f["unit"] if f["unit"] else "")
        if fid not in self.figures_used:
            self.figures_used.append(fid)
        # the figure links to its entry in the figure index (report/figures.py), which explains it
        if fid not in self.entries:
            return [{"t": "Str", "c": text}]
        return [{"t": "Link", "c": [A.NO_ATTR, [{"t": "Str", "c": text}], [self.entries[fid], ""]]}]


def _token(i: int) -> str:
    return f"WSPLACEHOLDER{i:05d}X"


def article_blocks(article: articles.Article, doc: _Doc) -> list[dict[str, Any]]:
    """The article body as Pandoc blocks, shortcodes expanded from the exported data."""
    body = article.body
    codes = article.shortcodes()
    # Tables and figures are numbered in the order the article shows them (LaTeX numbers them the same way).
    numbers: dict[tuple[str, str], int] = {}
    for sc in codes:
        kind = {"result-table": "table", "result-chart": "chart"}.get(sc.name)
        if kind and sc.args.get(kind) and (kind, sc.args[kind]) not in numbers:
            numbers[(kind, sc.args[kind])] = 1 + sum(1 for k in numbers if k[0] == kind)
    pieces, last, expansions = [], 0, {}
    for i, sc in enumerate(codes):
        pieces.append(body[last:sc.start])
        where = f"{article.path}:{sc.line}"
        if sc.name == "findings":
            pieces.append("\n\n:::\n" if sc.closing else "\n\n::: findings\n")
        else:
            if sc.args.get("set") not in article.front.get("resultsets", []) and sc.args.get("set") != doc.data["slug"]:
                raise ReportError(f"{where}: shortcode refers to result set {sc.args.get('set')!r}, which the front matter's resultsets does not list")
            if sc.args.get("set") != doc.data["slug"]:
                raise ReportError(f"{where}: a report can embed only its own result set {doc.data['slug']!r}, not {sc.args.get('set')!r}")
            if sc.name == "result-ref":
                kind = "table" if "table" in sc.args else "chart"
                ident = sc.args.get(kind)
                if not ident:
                    raise ReportError(f"{where}: result-ref needs table=\"…\" or chart=\"…\"")
                if (kind, ident) not in numbers:
                    raise ReportError(f"{where}: result-ref to {kind} {ident!r}, which the article does not show")
                label = f"{'Table' if kind == 'table' else 'Figure'} {numbers[(kind, ident)]}"
                target = f"#{'tbl' if kind == 'table' else 'fig'}-{ident}"
                tok = _token(i)
                expansions[tok] = ("ref", (label, target), where)
                pieces.append(tok)
                last = sc.end
                continue
            kind = {"result-table": "table", "result-chart": "chart", "result-figure": "figure"}[sc.name]
            if kind not in sc.args:
                raise ReportError(f"{where}: {sc.name} needs {kind}=\"…\"")
            tok = _token(i)
            expansions[tok] = (kind, sc.args[kind], where)
            pieces.append(tok)
        last = sc.end
    pieces.append(body[last:])
    md = "".join(pieces)
    proc = subprocess.run([str(pandoc()), "-f", READER, "-t", "json"], input=md, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ReportError(f"{article.path}: pandoc could not read the article: {proc.stderr.strip()}")
    blocks = json.loads(proc.stdout)["blocks"]
    used: set[str] = set()

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            out = []
            for item in node:
                if isinstance(item, dict) and item.get("t") in ("Para", "Plain") and len(item["c"]) == 1 and item["c"][0].get("t") == "Str" and item["c"][0]["c"] in expansions:
                    tok = item["c"][0]["c"]
                    kind, ident, where = expansions[tok]
                    used.add(tok)
                    if kind in ("figure", "ref"):
                        out.append({"t": item["t"], "c": _inline(kind, ident, where, doc)})
                    else:
                        out.extend(doc.table(ident, where) if kind == "table" else doc.chart(ident, where))
                    continue
                out.append(walk(item))
            return out
        if isinstance(node, dict):
            if node.get("t") == "Str" and "WSPLACEHOLDER" in node["c"]:
                return _split_str(node["c"], expansions, doc, used)
            return {k: walk(v) for k, v in node.items()}
        return node

    blocks = walk(blocks)
    for b in blocks:  # "## Appendix: X {.appendix}" is "Appendix A  X" in the PDF, not "Appendix A  Appendix: X"
        if b.get("t") == "Header" and "appendix" in b["c"][1][1] and b["c"][2][:1] == [{"t": "Str", "c": "Appendix:"}]:
            b["c"][2] = b["c"][2][2:] if b["c"][2][1:2] == [{"t": "Space"}] else b["c"][2][1:]
    levels = [b["c"][0] for b in blocks if b.get("t") == "Header"]
    if levels and min(levels) > 1:  # an article's ## sections become the report's numbered chapters
        shift = min(levels) - 1
        for b in blocks:
            if b.get("t") == "Header":
                b["c"][0] -= shift
    missing = set(expansions) - used
    for tok in sorted(missing):
        kind, ident, where = expansions[tok]
        raise ReportError(f"{where}: {kind} {ident!r} must stand alone in its paragraph" if kind not in ("figure", "ref") else f"{where}: {kind} {ident!r} could not be placed")
    return blocks


def _inline(kind: str, ident: Any, where: str, doc: _Doc) -> list[dict[str, Any]]:
    """Inlines for an inline shortcode: a figure with its unit, or a numbered link to a table or figure."""
    if kind == "figure":
        return doc.figure(ident, where)
    label, target = ident
    return [{"t": "Link", "c": [A.NO_ATTR, A.inlines(label), [target, ""]]}]


def _split_str(text: str, expansions: dict, doc: _Doc, used: set[str]) -> dict[str, Any]:
    """A Str containing placeholders (e.g. 'WSPLACEHOLDER00003X,') → a Span of Str nodes."""
    import re

    parts = re.split(r"(WSPLACEHOLDER\d{5}X)", text)
    inl: list[dict[str, Any]] = []
    for part in parts:
        if not part:
            continue
        if part in expansions:
            kind, ident, where = expansions[part]
            if kind not in ("figure", "ref"):
                raise ReportError(f"{where}: {kind} {ident!r} must stand alone in its paragraph")
            used.add(part)
            inl.extend(_inline(kind, ident, where, doc))
        else:
            inl.append({"t": "Str", "c": part})
    return {"t": "Span", "c": [A.NO_ATTR, inl]}
