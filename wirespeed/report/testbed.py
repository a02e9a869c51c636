"""The parts of a PDF report that say how the results were obtained, as a lab's report does: the test bed (the
Graphviz diagram the web page shows too, and the exported test-bed rows), the version matrix (software and
firmware on the device and the instrument), the statistical basis of each test's results (trials, search,
acceptable loss, spread), and the colophon at the end (what built the report, never on its cover)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wirespeed.report import pandoc_ast as A
from wirespeed.report import tablefit


def _table(caption: str, head: list[str], rows: list[list[str]], short: str) -> dict[str, Any]:
    aligns = ["AlignLeft"] * len(head)
    fit = tablefit.fit([[h] for h in head], rows, [False] * len(head))
    table = A.table(A.inlines(caption), [[(h, "AlignLeft", 1, 1) for h in head]], [[(c, "AlignLeft") for c in r] for r in rows], aligns,
                    short=short, widths=fit.widths)
    return A.div([table], [f"table-{fit.size}"]) if fit.size != tablefit.SIZES[0][0] else table


VERSIONS_KEEP_ROWS = 4  # rows of the version matrix kept with its heading (two lines each at most)
DIAGRAM_KEEP_LINES = 7  # the heading and the caption, kept on the diagram's page
DIAGRAM_HERE_SHARE = 0.8  # a diagram up to this share of the text height is printed under its heading; a taller one floats


def _diagram_height_pt(pdf: Path) -> float:
    """The height the diagram prints at across the text block (its PDF's page, scaled to the line)."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        x0, y0, x1, y1 = (float(v) for v in doc.pages[0].mediabox)
    return tablefit.PORTRAIT_PT * (y1 - y0) / max(x1 - x0, 1e-9)


def testbed_blocks(d: dict[str, Any], static_root: Path) -> list[dict[str, Any]]:
    """The test bed: its diagram, what each part is, and the version matrix. The diagram prints under the heading, as a
    lab report shows it: the figures still held are placed first (placeins), then the heading starts a new page unless
    the diagram fits below it (a float would leave the heading and the versions at the foot of a page and the diagram on
    the next, and a figure held from before would take the room the diagram was given)."""
    head = A.header(1, "Test bed", ident="test-bed", classes=["appendix"])
    out = [head]
    diagram = d.get("testbed_diagram")
    if diagram and (static_root / diagram["pdf"]).is_file():
        pdf = static_root / diagram["pdf"]
        fig = A.figure(pdf.resolve().as_posix(), A.inlines("Test bed: the instrument, the device under test and the links each group of tests used, as the result set declares them."),
                       diagram["alt"], ident="fig-testbed", short="Test bed")
        height = _diagram_height_pt(pdf)
        if height <= DIAGRAM_HERE_SHARE * tablefit.TEXT_HEIGHT_PT:
            keep = {"t": "RawBlock", "c": ["latex", f"\\FloatBarrier\\vspace*{{0pt}}\\Needspace{{\\dimexpr {height:.1f}pt+{DIAGRAM_KEEP_LINES}\\baselineskip\\relax}}"]}
            here = [{"t": "RawBlock", "c": ["latex", "{\\makeatletter\\def\\fps@figure{H}\\makeatother"]}, fig, {"t": "RawBlock", "c": ["latex", "}"]}]
            out = [keep, head, *here]  # \vspace*: a page the barrier began holds a line, so Needspace sees the floats above it
        else:
            out.append(fig)
    items = [[A.inlines(r["label"]), [[A.plain(r["text"] + (f" ({r['note']})" if r["note"] else ""))]]] for r in d["testbed_rows"]]
    if items:
        out.append({"t": "DefinitionList", "c": items})
    versions = d.get("versions") or []
    if versions:  # the heading keeps its table's caption, header and first rows (or the whole of a short table) on its page
        keep = min(len(versions), VERSIONS_KEEP_ROWS) * 2 + 8
        out += [{"t": "RawBlock", "c": ["latex", f"\\Needspace{{{keep}\\baselineskip}}"]}, A.header(2, "Software and firmware versions", ident="versions"),
                _table("Software and firmware versions on the device under test and the test instrument, as the source gives them.",
                       ["Where", "Software or firmware", "Version"], [[v["where"], v["name"], v["version"]] for v in versions], "Software and firmware versions")]
    else:  # one sentence: no heading of its own over it (a heading left at a page's foot with its whole section)
        out.append(A.para([A.strong("Software and firmware versions:"), {"t": "Space"}, *A.inlines("the source states none.")]))
    return out


def _basis(t: dict[str, Any], repeats: dict[str, str]) -> list[str]:
    """One test's row: its trials (duration × count, and the repeats per point), rate search, loss tolerance, spread."""
    rows = {r["label"]: r["text"] for r in t.get("methodology_rows", [])}  # the exported methodology rows, as the page prints them
    trials = "; ".join(x for x in (rows.get("Trial duration"), repeats.get(t["id"])) if x) or "not stated"
    return [t["title"], trials, rows.get("Rate search", "not stated"), rows.get("Loss tolerance", "not stated"),
            repeats.get(t["id"] + ":spread", "a single trial per point: no spread")]


def basis_blocks(d: dict[str, Any]) -> list[dict[str, Any]]:
    """The statistical basis of each test's results: trials, search, acceptable loss and spread over repeats."""
    repeats: dict[str, str] = {}
    trial_table = d["tables"].get("trial-throughput")
    if trial_table:  # repeated searches: the trials per point and the range they spread over
        cols = [c["key"] for c in trial_table["columns"]]
        for row in trial_table["rows"]:
            cell = dict(zip(cols, row))
            test = next((t["id"] for t in d["tests"] if t["title"] == cell.get("test") or t["id"] == cell.get("test")), None)
            if test and cell.get("trials"):
                repeats[test] = f"{cell['trials']} trials per frame size"
                repeats[test + ":spread"] = "lowest to highest of the trials per frame size (the results tables' ranges)"
    rows = [_basis(t, repeats) for t in d["tests"]]
    if not rows:
        return []
    return [A.header(1, "Statistical basis of the results", ident="statistical-basis", classes=["appendix"]),
            A.para("How each test's figures were obtained: how many trials stand behind each point, how the rate was searched, "
                   "the loss accepted, and the spread over repeated trials where there were repeats."),
            _table("Statistical basis of each test's results.", ["Test", "Trials", "Search", "Acceptable loss", "Spread"], rows, "Statistical basis")]


def colophon_blocks(links: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The colophon: where the report and its data live online, and what built it (never on the cover)."""
    if not links:
        return []
    from wirespeed.report.links import meta

    items = [[A.inlines(label), [[{"t": "Plain", "c": meta(text)["c"]}]]] for label, text in links]
    keep = {"t": "RawBlock", "c": ["latex", f"\\Needspace{{{2 * len(links) + 5}\\baselineskip}}"]}  # a few lines: on one page, never split
    return [keep, A.header(1, "Colophon", ident="colophon", classes=["unnumbered"]), {"t": "DefinitionList", "c": items}]
