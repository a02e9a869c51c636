"""PDF test reports: Pandoc + XeLaTeX from the same article and exported data as the web page.

The article's Markdown is parsed by Pandoc with raw TeX, raw HTML and TeX math switched off; each
wirespeed shortcode becomes a Table, Figure or Str node built from the exported set data, so every
number in the PDF is the text the web page prints, and no text from a result set is ever read as
LaTeX. A result set without an article gets a generated structure. Shell escape stays off.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import traceback
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from wirespeed.steps import articles, status as setstatus

from wirespeed.system import atomic, interrupts, latex

from wirespeed.engine import dates
from wirespeed.steps import pandoc_ast as A
from wirespeed.system.codehash import code_closure
from wirespeed.presentation.headlines_report import headline_blocks
from wirespeed.steps import reportlinks, tablefit

TEMPLATE_ROOT = Path("reports")
OUT = Path("build/reports")
READER = "markdown-raw_tex-raw_attribute-raw_html-tex_math_dollars-tex_math_single_backslash-citations"
FILTERS = ["meta.lua", "boxes.lua", "landscape.lua", "appendix.lua", "tables.lua"]
TITLE_PAGE_CHARS = 110  # longer titles are shortened on the title page (printed in full at the start of the text)
HEADER_CHARS = 92  # the running header line: title on the left, report number on the right, never overlapping
PRODUCT_CHARS = 90
DERIVED_MARK = "†"
FLAG_MARK = "‡"


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

    def __init__(self, data: dict[str, Any], charts_dir: Path):
        self.data = data
        self.charts_dir = charts_dir
        self.tables_used: list[str] = []
        self.charts_used: list[str] = []

    def table(self, tid: str, where: str) -> list[dict[str, Any]]:
        t = self.data["tables"].get(tid)
        if t is None:
            raise ReportError(f"{where}: no table {tid!r} in result set {self.data['slug']!r}")
        self.tables_used.append(tid)
        cols = t["columns"]
        grouped = any(c["group"] for c in cols)
        aligns = ["AlignLeft" if (i == 0 or c["key"] in ("variant", "component", "direction", "test")) else "AlignRight" for i, c in enumerate(cols)]

        def label(c: dict[str, Any], with_group: bool) -> str:
            text = c["label"] if not with_group or not c["group"] else f"{c['group']} {c['label']}"
            if c["unit"] and (c["unit"] != "bytes" or c["key"] == "frame_size"):
                text += f" ({c['unit']})"
            return text + (f" {DERIVED_MARK}" if c.get("derived") else "")

        if grouped:
            top, bottom, i = [], [], 0
            while i < len(cols):
                c = cols[i]
                if not c["group"]:  # its label in the lower row (a two-row multirow cell clips a heading that wraps)
                    top.append(("", aligns[i], 1, 1))
                    bottom.append((label(c, False), aligns[i], 1, 1))
                    i += 1
                    continue
                j = i
                while j < len(cols) and cols[j]["group"] == c["group"]:
                    bottom.append((label(cols[j], False), aligns[j], 1, 1))
                    j += 1
                top.append((c["group"], "AlignCenter", 1, j - i))
                i = j
            head = [top, bottom]
        else:
            head = [[(label(c, False), aligns[i], 1, 1) for i, c in enumerate(cols)]]
        body = []
        marks = t.get("derived_cells") or [[False] * len(cols) for _ in t["rows"]]
        for r, row in enumerate(t["rows"]):
            flags = t["flags"][r]
            # a derived cell in a column of published figures is marked in the cell itself
            body.append([(text + (f" {DERIVED_MARK}" if marks[r][i] and text and not cols[i].get("derived") else "")
                          + (f" {FLAG_MARK}" if flags[i] else ""), aligns[i]) for i, text in enumerate(row)])
        notes = []
        if any(c.get("derived") for c in cols) or any(m and not cols[i].get("derived") for row in marks for i, m in enumerate(row)):
            notes.append(f"{DERIVED_MARK} computed by the wirespeed engine from the published figures.")
        if any(f for row in t["flags"] for f in row):
            notes.append(f"{FLAG_MARK} published figure that disagrees with its recomputation (see the appendix on checked figures).")
        caption = A.inlines(f"{t['title']}. {t['caption']}" + (" " + " ".join(notes) if notes else ""))
        # the lower header row names every column; type size, orientation and widths fit the longest number
        fit = tablefit.fit([[text] for text, *_ in head[-1]], [[text for text, _ in row] for row in body], [a == "AlignRight" for a in aligns])
        block = A.table(caption, head, body, aligns, ident=f"tbl-{tid}", short=t["title"], widths=fit.widths)
        if fit.size != tablefit.SIZES[0][0]:
            block = A.div([block], [f"table-{fit.size}"])
        return [A.div([block], ["landscape"])] if fit.landscape else [block]

    def chart(self, cid: str, where: str) -> list[dict[str, Any]]:
        c = self.data["charts"].get(cid)
        if c is None:
            raise ReportError(f"{where}: no chart {cid!r} in result set {self.data['slug']!r}")
        pdf = self.charts_dir / f"{cid}.pdf"
        if not pdf.is_file():
            raise ReportError(f"{where}: chart {cid!r} has no PDF rendering at {pdf}")
        self.charts_used.append(cid)
        return [A.figure(f"{cid}.pdf", A.inlines(f"{c['title']}. {c['caption']}"), c["alt"], ident=f"fig-{cid}", short=c["title"])]

    def figure(self, fid: str, where: str) -> list[dict[str, Any]]:
        f = self.data["figures"].get(fid)
        if f is None:
            raise ReportError(f"{where}: no figure {fid!r} in result set {self.data['slug']!r}")
        text = f["text"] + ("\u00a0" + f["unit"] if f["unit"] else "")
        return [{"t": "Str", "c": text}]


def headings_into_landscape(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Headings (and a short lead paragraph) just before a landscape table go onto its rotated page, never left alone."""
    out: list[dict[str, Any]] = []
    for b in blocks:
        if b.get("t") == "Div" and "landscape" in b["c"][0][1]:
            moved: list[dict[str, Any]] = []
            while out and (out[-1].get("t") == "Header" or (not moved and out[-1].get("t") == "Para" and len(out) > 1 and out[-2].get("t") == "Header")):
                moved.insert(0, out.pop())
            if moved and moved[0].get("t") != "Header":  # a paragraph without its heading stays where it was
                out.extend(moved)
                moved = []
            b = {"t": "Div", "c": [b["c"][0], moved + b["c"][1]]}
        out.append(b)
    return out


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


def generated_blocks(doc: _Doc) -> list[dict[str, Any]]:
    """The default structure for a result set without an article: summary, one section per test, methodology."""
    d = doc.data
    blocks: list[dict[str, Any]] = [A.header(1, "Summary"), A.para(d.get("summary") or d["title"])]
    blocks.append(A.header(1, "Tests"))
    for t in d["tests"]:
        if not t["tables"] and not t["charts"]:
            continue
        blocks.append(A.header(2, t["title"]))
        if t.get("description"):
            blocks.append(A.para(t["description"]))
        for tid in t["tables"]:
            if "-vs-load" not in tid:
                blocks += doc.table(tid, f"generated report of {d['slug']}")
        for cid in t["charts"]:
            if "-vs-load" not in cid:
                blocks += doc.chart(cid, f"generated report of {d['slug']}")
    if d["comparisons"]:
        blocks.append(A.header(1, "Comparisons"))
        for c in d["comparisons"]:
            blocks.append(A.header(2, c["title"]))
            if c.get("table"):
                blocks += doc.table(c["table"], d["slug"])
            if c.get("chart"):
                blocks += doc.chart(c["chart"], d["slug"])
    for tid in d.get("other_tables", []):
        if tid not in doc.tables_used:
            blocks += doc.table(tid, d["slug"])
    for cid in d.get("other_charts", []):
        if cid not in doc.charts_used:
            blocks += doc.chart(cid, d["slug"])
    blocks += methodology_blocks(d)
    loads = [(t, tid) for t in d["tests"] for tid in t["tables"] if "-vs-load" in tid]
    if loads:
        blocks.append(A.header(1, "Results at every offered load", classes=["appendix"]))
        for t, tid in loads:
            blocks += doc.table(tid, d["slug"])
            cid = tid
            if cid in d["charts"]:
                blocks += doc.chart(cid, d["slug"])
    return blocks


def methodology_blocks(d: dict[str, Any]) -> list[dict[str, Any]]:
    m = d.get("methodology") or {}
    if not m and len(d["tests"]) == 1:  # a one-test set may keep its whole method in the test
        m = d["tests"][0].get("methodology", {})
    rows = []
    names = {"trial_duration_s": ("Trial duration", "s"), "trials": ("Trials per point", ""), "frame_sizes": ("Frame sizes", "bytes"),
             "offered_loads_pct": ("Offered loads", "% of line rate"), "frame_size_convention": ("Frame size convention", ""),
             "latency_method": ("Latency method", ""), "throughput_load_pct": ("Throughput declared at", "% of line rate"),
             "loss_tolerance_pct": ("Loss tolerance", "%"), "search": ("Rate search", ""), "warmup_s": ("Warm-up", "s"),
             "rampup_s": ("Ramp", "s"), "hold_s": ("Hold", "s")}
    for key, (label, unit) in names.items():
        if key in m:
            v = m[key]
            text = ", ".join(str(x) for x in v) if isinstance(v, list) else str(v)
            rows.append([(label, "AlignLeft"), (text + (f" {unit}" if unit else ""), "AlignLeft")])
    blocks = [A.header(1, "Methodology")]
    if m.get("notes"):
        blocks.append(A.para(m["notes"]))
    if rows:
        blocks.append(A.table(A.inlines("Methodology at a glance (per-test settings may differ; see each test)."), [[("Setting", "AlignLeft", 1, 1), ("Value", "AlignLeft", 1, 1)]],
                              rows, ["AlignLeft", "AlignLeft"], short="Methodology at a glance", widths=[0.3, 0.68]))
    return blocks


def appendix_blocks(d: dict[str, Any]) -> list[dict[str, Any]]:
    """Appendices every report ends with: test bed and software versions; figures checked; provenance."""
    blocks = [A.header(1, "Test bed and software versions", classes=["appendix"])]
    dut, inst = d["dut"], d["instrument"]
    rows = [[("Device under test", "AlignLeft"), (f"{dut['vendor']} {dut['model']}" + (f" — {dut['chassis']}" if dut.get("chassis") else ""), "AlignLeft")]]
    for c in dut.get("components", []):
        desc = c["model"] + (f" — {c['description']}" if c.get("description") else "") + (f", × {c['count']}" if c.get("count") else "")
        rows.append([("Component", "AlignLeft"), (desc, "AlignLeft")])
    for s in dut.get("software", []):
        rows.append([("DUT software", "AlignLeft"), (f"{s['name']} {s['version']}", "AlignLeft")])
    if not dut.get("software"):
        rows.append([("DUT software", "AlignLeft"), ("version not stated by the source", "AlignLeft")])
    rows.append([("Instrument", "AlignLeft"), (f"{inst['vendor']} {inst['product']}", "AlignLeft")])
    for m in inst.get("modules", []):
        rows.append([("Instrument module", "AlignLeft"), (m, "AlignLeft")])
    for s in inst.get("software", []):
        rows.append([("Instrument software", "AlignLeft"), (f"{s['name']} {s['version']}", "AlignLeft")])
    camp = d.get("campaign", {})
    if camp.get("start") or camp.get("end"):
        rows.append([("Tests run", "AlignLeft"), (dates.span(camp.get("start"), camp.get("end")), "AlignLeft")])
    if camp.get("location"):
        rows.append([("Location", "AlignLeft"), (camp["location"], "AlignLeft")])
    blocks.append(A.table(A.inlines("Test bed: device under test, instrument and software versions."), [[("Item", "AlignLeft", 1, 1), ("Details", "AlignLeft", 1, 1)]],
                          rows, ["AlignLeft", "AlignLeft"], short="Test bed and software versions", widths=[0.24, 0.74]))
    cons = d["consistency"]
    blocks.append(A.header(1, "Published figures recomputed", classes=["appendix"]))
    blocks.append(A.para(f"The wirespeed engine recomputed {cons['checked']} derived figures that the source also prints (bit rates from frame rates and sizes, "
                         f"percentages of line rate or of the maximum theoretical rate) and compared each within its printed rounding: "
                         f"{cons['agree']} agree, {len(cons['mismatches'])} disagree."))
    if cons["mismatches"]:
        rows = [[(m["test"], "AlignLeft"), (m["where"], "AlignLeft"), (m["metric"], "AlignLeft"), (m["published"], "AlignRight"), (m["recomputed"], "AlignRight")] for m in cons["mismatches"]]
        head = [[("Test", "AlignLeft", 1, 1), ("Where", "AlignLeft", 1, 1), ("Figure", "AlignLeft", 1, 1), ("Published", "AlignRight", 1, 1), ("Recomputed", "AlignRight", 1, 1)]]
        aligns = ["AlignLeft", "AlignLeft", "AlignLeft", "AlignRight", "AlignRight"]
        fit = tablefit.fit([[text] for text, *_ in head[0]], [[text for text, _ in row] for row in rows], [a == "AlignRight" for a in aligns])
        table = A.table(A.inlines("Published figures that disagree with their recomputation."), head, rows, aligns,
                        short="Published figures that disagree with their recomputation", widths=fit.widths)
        blocks.append(A.div([table], [f"table-{fit.size}"]) if fit.size != tablefit.SIZES[0][0] else table)
    for e in cons.get("errata", []):
        blocks.append(A.para([A.strong(f"Source erratum ({e['test']}):"), {"t": "Space"}, *A.inlines(e["note"])]))
    src = d["source"]
    blocks.append(A.header(1, "Provenance", classes=["appendix"]))
    text = (f"Source: {src['publisher']}" + (f", “{src['document']}”" if src.get("document") else "") + f" ({dates.text(src.get('published'))}); "
            f"figures {src['kind']}. Data licence: {d['licence']}.")
    blocks.append(A.para(text))
    if src.get("notes"):
        blocks.append(A.para(src["notes"]))
    return blocks


def report_date(d: dict[str, Any], article: articles.Article | None) -> str | None:
    """The report's date as the source gives it (YYYY, YYYY-MM or YYYY-MM-DD), else the article's; None when undated."""
    value = d["source"].get("published") or (article.front.get("source_date") or article.front.get("date") if article else None)
    return str(value) if value else None


def prepared_by(d: dict[str, Any]) -> str:
    """'wirespeed from <publication> by <lab>' (or 'from results measured by wirespeed')."""
    src = d["source"]
    if src["kind"] == "measured":
        return "wirespeed, from its own test run"
    doc = f"“{A.shorten(src['document'], 70)}”" if src.get("document") else "results published"
    return f"wirespeed from {doc} by {A.shorten(src['publisher'], 50)}"


def links(d: dict[str, Any], build: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """Full URLs of the web page, the data and the original publication; the build date and wirespeed version."""
    return reportlinks.links(d, build)


def metadata(d: dict[str, Any], article: articles.Article | None, build: dict[str, Any] | None = None) -> dict[str, Any]:
    src, dut = d["source"], d["dut"]
    when = dates.text(src.get("published"))
    title = (article.front.get("title") if article else None) or d["title"]
    rfcs = sorted({r for t in d["tests"] for r in t["rfc"] if r.isdigit()})
    meta = {
        "title": A.meta_inlines(A.shorten(title, TITLE_PAGE_CHARS)),
        "subtitle": A.meta_inlines(A.shorten(d["title"], TITLE_PAGE_CHARS)) if article else A.meta_inlines(f"Results published by {src['publisher']}"),
        "publisher": A.meta_inlines("wirespeed"),
        "product": A.meta_inlines(A.shorten(f"{dut['vendor']} {dut['model']}", PRODUCT_CHARS)),
        "report-number": A.meta_inlines(d["slug"]),
        "date": A.meta_inlines(dates.text(report_date(d, article))),
        "author": A.meta_list([prepared_by(d)]),
        "pdf-author": A.meta_string("wirespeed"),
        "source-authors": A.meta_inlines(", ".join([src["publisher"]] + list(src.get("authors", [])))),
        "report-links": {"t": "MetaList", "c": [{"t": "MetaMap", "c": {"label": A.meta_inlines(k), "text": reportlinks.meta(v)}} for k, v in links(d, build)]},
        "subject": A.meta_inlines(("RFC " + ", ".join(rfcs) + " benchmark results of " if rfcs else "Benchmark results of ") + f"{dut['vendor']} {dut['model']}"),
        "keywords": A.meta_list(list(d.get("tags", [])) + [f"RFC {r}" for r in rfcs]),
        "disclaimer": A.meta_inlines(
            (f"wirespeed ran these tests itself ({when}) with the collector named in the provenance appendix; every figure comes from "
             f"that run, checked by wirespeed's metric engine. The set-up is a software test bed, not a hardware device under test. "
             if src["kind"] == "measured" else
             f"This report presents results that {src['publisher']} published ({when}); the figures were {src['kind']} by wirespeed "
             f"and checked by its metric engine, which recomputes every derived figure. wirespeed did not run these tests. Errors of transcription "
             f"are ours; the test results and their conditions are the source's. ")
            + "Product names are trademarks of their owners."),
    }
    budget = max(30, HEADER_CHARS - len(d["slug"]))  # the report number shares the line
    if len(title) > budget:  # the running header is one line (an hbox): a long title would run into the report number
        meta["header-left"] = A.meta_inlines(A.shorten(title, budget))
    if src.get("commissioned_by"):
        meta["commissioned-by"] = A.meta_inlines(src["commissioned_by"])
        meta["titlepage-commissioned-label"] = A.meta_string("Tests commissioned by")
    return meta


def full_titles(d: dict[str, Any], article: articles.Article | None) -> list[dict[str, Any]]:
    """A paragraph with the full title (and subtitle) when the title page shows them shortened."""
    title = (article.front.get("title") if article else None) or d["title"]
    long = [(label, text) for label, text in (("Full title:", title), ("Full result set title:", d["title"] if article else "")) if len(text) > TITLE_PAGE_CHARS]
    return [A.para([A.strong(label), {"t": "Space"}, *A.inlines(text)]) for label, text in long]


@dataclass
class ReportJob:
    slug: str
    key: str
    components: dict[str, Any]
    data_file: Path
    charts_dir: Path
    article: Path | None
    out: Path


def _tree_hash(root: Path) -> str:
    """Hash of what a build reads under reports/: the template and its parts, the filters, defaults.yaml (not the docs or examples)."""
    h = hashlib.sha256()
    read = [root / "defaults.yaml", *(root / "template").rglob("*"), *(root / "filters").rglob("*")]
    for p in sorted(read):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def _tool_versions() -> dict[str, str]:
    pv = subprocess.run([str(pandoc()), "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    xv = subprocess.run(["xelatex", "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    return {"pandoc": pv, "xelatex": xv[0] if xv else "missing"}


def plan(slugs: list[str] | None, data_root: Path = Path("build/hugo-data"), static_root: Path = Path("build/site-static"), out: Path = OUT,
         base_url: str | None = None) -> tuple[list[ReportJob], list[ReportJob]]:
    """Which reports need building (inputs changed) and which are fresh."""
    sets_dir = data_root / "wirespeed" / "sets"
    available = sorted(p.stem for p in sets_dir.glob("*.json")) if sets_dir.is_dir() else []
    wanted = slugs or available
    missing = [s for s in wanted if s not in available]
    if missing:
        raise ReportError(f"no exported site data for {', '.join(missing)} (is it published? run wirespeed site --data-only)")
    tools = _tool_versions()
    template = _tree_hash(TEMPLATE_ROOT)
    code = code_closure("import wirespeed.steps.report")
    stamp = reportlinks.stamp(base_url)  # base URL, build date, version: printed on every title page
    run, fresh = [], []
    for slug in wanted:
        data_file = sets_dir / f"{slug}.json"
        data = json.loads(data_file.read_text())
        charts_dir = static_root / "results" / slug / "charts"
        article = articles.for_report(slug)
        charts = {cid: hashlib.sha256((charts_dir / f"{cid}.pdf").read_bytes()).hexdigest() for cid in sorted(data["charts"]) if (charts_dir / f"{cid}.pdf").is_file()}
        components = {"data": hashlib.sha256(data_file.read_bytes()).hexdigest(), "charts": charts, "template": template, "code": code, "tools": tools, "build": stamp,
                      "article": hashlib.sha256(article.path.read_bytes()).hexdigest() if article else None}
        key = hashlib.sha256(json.dumps(components, sort_keys=True).encode()).hexdigest()
        job = ReportJob(slug, key, components, data_file, charts_dir, article.path if article else None, out / f"{slug}.pdf")
        manifest = out / f"{slug}.manifest.json"
        ok = job.out.is_file() and manifest.is_file() and json.loads(manifest.read_text()).get("key") == key
        (fresh if ok else run).append(job)
    return run, fresh


def build(job: ReportJob, root: str) -> dict[str, Any]:
    """Build one PDF (in a worker process): AST → pandoc → xelatex, written atomically."""
    os.chdir(root)
    try:
        data = json.loads(job.data_file.read_text())
        doc = _Doc(data, job.charts_dir)
        article = articles.read(job.article) if job.article else None
        api = _api_version()
        blocks = headline_blocks(data) + (article_blocks(article, doc) if article else generated_blocks(doc))
        blocks = headings_into_landscape(blocks + appendix_blocks(data))
        ast = A.document(A.breakable(metadata(data, article, job.components.get("build"))), A.breakable(full_titles(data, article) + blocks), api)
        with tempfile.TemporaryDirectory(prefix=f"wirespeed-report-{job.slug}-") as tmp:
            pdf = typeset(ast, Path(tmp), job.charts_dir, source_date_epoch(data, article))
            atomic.write_bytes(job.out, pdf.read_bytes())
            if os.environ.get("WIRESPEED_LATEX_LOGS"):  # layout checks read the TeX log (overfull boxes); off by default
                logs = Path(os.environ["WIRESPEED_LATEX_LOGS"])
                logs.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(pdf.with_suffix(".log"), logs / f"{job.slug}.log")
                shutil.copyfile(pdf.with_suffix(".tex"), logs / f"{job.slug}.tex")
        atomic.write_text(job.out.with_name(f"{job.slug}.manifest.json"), json.dumps({"key": job.key, "components": job.components,
                                                                                       "tables": doc.tables_used, "charts": doc.charts_used}, indent=1, sort_keys=True) + "\n")
        return {"ok": True}
    except (ReportError, articles.ArticleError, latex.LatexError) as exc:
        return _failed(job, str(exc), str(exc))
    except Exception as exc:  # noqa: BLE001 - one set's report fails alone; the other reports are still built
        return _failed(job, f"{type(exc).__name__}: {exc}", traceback.format_exc())


def _failed(job: ReportJob, cause: str, text: str) -> dict[str, Any]:
    """A worker's report of a failed build: one line naming the set, the article or template and the log."""
    what = f"article {job.article}" if job.article else f"the generated report (template {TEMPLATE_ROOT / 'template'})"
    failure = {"what": what, "cause": cause.removeprefix(f"{job.slug}: "), "log": str(setstatus.write_log(job.slug, "report", "pdf", text, job.out.parent.parent / "logs"))}
    return {"ok": False, "failure": failure, "error": setstatus.line(job.slug, "report", failure)}


def source_date_epoch(data: dict[str, Any], article: articles.Article | None) -> str:
    """The report's date (the article's, else the source's publication date) as SOURCE_DATE_EPOCH: never the clock."""
    return str(dates.epoch(report_date(data, article)))  # an undated set: a fixed epoch, still deterministic


def typeset(ast: dict[str, Any], workdir: Path, charts_dir: Path, epoch: str, template_root: Path = TEMPLATE_ROOT) -> Path:
    """Pandoc AST → report.tex (pandoc, template, filters; figures extracted beside it) → report.pdf (XeLaTeX), in workdir."""
    deadline = time.monotonic() + latex.timeout_s()
    (workdir / "report.json").write_text(json.dumps(ast, ensure_ascii=False), encoding="utf-8")
    tpl = template_root.resolve()
    cmd = [str(pandoc()), "--from", "json", "report.json", "--to", "latex", "--template", str(tpl / "template" / "wirespeed.latex"),
           "--metadata-file", str(tpl / "defaults.yaml"), *[f"--lua-filter={tpl / 'filters' / f}" for f in FILTERS],
           "--resource-path", f"{charts_dir.resolve()}:{tpl}", "--extract-media=media", "-o", "report.tex"]
    env = {**os.environ, "openin_any": "p", "openout_any": "p", "SOURCE_DATE_EPOCH": epoch, "FORCE_SOURCE_DATE": "1"}
    proc = latex.run(cmd, workdir, env, deadline, "pandoc")
    if proc.returncode != 0 or not (workdir / "report.tex").is_file():
        lines = [l.strip() for l in proc.stderr.splitlines() if l.strip()]
        raise latex.LatexError("pandoc failed: " + (" | ".join(lines[:3]) or f"exit {proc.returncode}"))
    return latex.xelatex(workdir, "report.tex", env, deadline)


def run(slugs: list[str] | None = None, jobs: int | None = None, progress: Callable[[ReportJob, int, int], None] | None = None, out: Path = OUT,
        data_root: Path = Path("build/hugo-data"), static_root: Path = Path("build/site-static"), base_url: str | None = None) -> tuple[list[ReportJob], list[ReportJob], list[str]]:
    """Build every report whose inputs changed, in parallel; returns (built, fresh, errors)."""
    todo, fresh = plan(slugs, data_root, static_root, out, base_url)
    errors: list[str] = []
    if todo:
        workers = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
        with interrupts.worker_pool(workers) as pool:  # workers die with this process
            futures = {pool.submit(build, job, str(Path.cwd())): job for job in todo}
            for i, fut in enumerate(as_completed(futures), 1):
                res = fut.result()
                if not res["ok"]:
                    errors.append(res["error"])
                setstatus.record(futures[fut].slug, "report", res.get("failure"), out.parent / "status")
                if progress:
                    progress(futures[fut], i, len(todo))
    for job in fresh:
        setstatus.record(job.slug, "report", None, out.parent / "status")
    if out.is_dir():
        keep = {f"{j.slug}.pdf" for j in todo + fresh} | {f"{j.slug}.manifest.json" for j in todo + fresh}
        if not slugs:
            for p in out.iterdir():
                if p.is_file() and p.name not in keep:
                    p.unlink()
    return todo, fresh, errors


def pdf_text(pdf: Path) -> str:
    """The text of a PDF (pdftotext, layout kept), for checks."""
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def which_tex() -> str | None:
    return shutil.which("xelatex")
