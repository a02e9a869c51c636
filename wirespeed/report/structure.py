"""PDF test reports, their structure and prose: the generated structure of a result set without an
article (summary, one section per test, methodology), the appendix (test bed, checked figures, links),
the title-page metadata and the report's date. The shortcodes of an article become Pandoc nodes in
`report/shortcodes.py`; `report/typesetting.py` plans, builds and typesets the PDFs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wirespeed.engine import dates
from wirespeed.site import articles
from wirespeed.report import links as reportlinks, tablefit
from wirespeed.report import pandoc_ast as A
from wirespeed.presentation import devicename

if TYPE_CHECKING:
    from wirespeed.report.shortcodes import _Doc

TITLE_PAGE_CHARS = 110  # longer titles are shortened on the title page (printed in full at the start of the text)
HEADER_CHARS = 92  # the running header line: title on the left, the date on the right, never overlapping
PRODUCT_CHARS = 90


def generated_blocks(doc: _Doc) -> list[dict[str, Any]]:
    """The default structure for a result set without an article: summary, one section per test, methodology."""
    d = doc.data
    blocks: list[dict[str, Any]] = [A.header(1, "Tests")]  # the summary opens the report (report/summary.py)
    for t in d["tests"]:
        if not t["tables"] and not t["charts"]:
            continue
        blocks.append(A.header(2, t["title"]))
        if t.get("description"):
            blocks.append(A.para(t["description"]))
        if t.get("notes"):
            blocks.append(A.para([A.strong("Notes:"), {"t": "Space"}, *A.inlines(t["notes"])]))
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
    for tid in d["other_tables"]:  # the loose items, the list the web page prints
        if tid not in doc.tables_used:
            blocks += doc.table(tid, d["slug"])
    for cid in d["other_charts"]:
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
    """The methodology section: the set's notes and the exported methodology rows, the web page's own rows."""
    m = d.get("methodology") or {}
    if not m and len(d["tests"]) == 1:  # a one-test set may keep its whole method in the test
        m = d["tests"][0].get("methodology", {})
    rows = [[(r["label"], "AlignLeft"), (r["text"] + (f" ({r['note']})" if r["note"] else ""), "AlignLeft")] for r in d["methodology_rows"]]
    if not m.get("notes") and not rows:
        return []  # nothing to say: no heading over an empty section
    blocks = [A.header(1, "Methodology")]
    if m.get("notes"):
        blocks.append(A.para(m["notes"]))
    if rows:
        blocks.append(A.table(A.inlines("Methodology at a glance (per-test settings may differ; see each test)."), [[("Setting", "AlignLeft", 1, 1), ("Value", "AlignLeft", 1, 1)]],
                              rows, ["AlignLeft", "AlignLeft"], short="Methodology at a glance", widths=[0.3, 0.68]))
    return blocks


def appendix_blocks(d: dict[str, Any]) -> list[dict[str, Any]]:
    """Appendices every report ends with (after the test bed and statistical basis, report/testbed.py): figures checked; provenance."""
    cons = d["consistency"]
    blocks = [A.header(1, "Published figures recomputed", classes=["appendix"])]
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
    """Full URLs of the web page and the data (a full base URL only) and of the original publication, for the title page."""
    return reportlinks.links(d, build)


def cover_facts(d: dict[str, Any]) -> list[tuple[str, str]]:
    """What a lab's cover states besides title, product and date: where and when it was tested, with what, from which document."""
    camp, ins, src = d.get("campaign") or {}, d["instrument"], d["source"]
    out = []
    where = ", ".join(x for x in (dates.span(camp.get("start"), camp.get("end")), camp.get("lab"), camp.get("location")) if x)
    if where:
        out.append(("Tested", A.shorten(where, 110)))
    out.append(("Test instrument", A.shorten(devicename.full(ins["vendor"], ins["product"]), 90)))
    if src.get("document") and src["kind"] != "measured":
        out.append(("Source document", A.shorten(f"{src['publisher']}, “{src['document']}”", 110)))
    return out


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
        "date": A.meta_inlines(dates.text(report_date(d, article))),
        "author": A.meta_list([prepared_by(d)]),
        "pdf-author": A.meta_string("wirespeed"),
        "source-authors": A.meta_inlines(", ".join([src["publisher"]] + list(src.get("authors", [])))),
        "report-links": {"t": "MetaList", "c": [{"t": "MetaMap", "c": {"label": A.meta_inlines(k), "text": reportlinks.meta(v)}} for k, v in links(d, build)]},
        "cover-facts": {"t": "MetaList", "c": [{"t": "MetaMap", "c": {"label": A.meta_inlines(k), "text": A.meta_inlines(v)}} for k, v in cover_facts(d)]},
        "contents-in-body": A.meta_bool(True),
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
    budget = max(30, HEADER_CHARS - len(dates.text(report_date(d, article))))  # the date shares the line
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


def source_date_epoch(data: dict[str, Any], article: articles.Article | None, build: dict[str, Any] | None = None) -> str:
    """The PDF's creation date as SOURCE_DATE_EPOCH: when the report was built from its data, reproducibly — the set's
    own last change (or its article's, when later: the build stamp's epoch), never the clock and never the source's
    publication date; without a known change (site data of an older build), the report's date."""
    epoch = (build or {}).get("epoch")
    if epoch is None:
        epoch = reportlinks.data_epoch(data)
    return str(epoch if epoch is not None else dates.epoch(report_date(data, article)))
