"""Rule empty-cells: no table column, and no table row, empty in every cell a reader sees.

Checked on every table of every page, every table download, and every part of a table the PDF report
prints split by columns (the report's manifest names each part's columns). A row is empty when every cell
but those that name it (frame size, variant, trial, …) and the line rate (which the frame size alone
gives) is empty."""

from __future__ import annotations

from collections.abc import Iterator

from wirespeed.problems import Problem
from wirespeed.sitecheck.site import Column, Site, Table

RULE = "empty-cells"
EMPTY = frozenset({"", "—", "–", "-", "n/a", "N/A"})
NO_MEASUREMENT = ("line_rate",)  # columns a row has whatever was measured


def check_empty_cells(site: Site) -> Iterator[Problem]:
    """No table column or row empty in every visible cell (pages, downloads, the parts of a table the PDF prints)."""
    for t in site.html_tables + site.download_tables:
        yield from empty_in(t, list(range(len(t.columns))), t.page, t.where)
    by_id = {(t.slug, t.where.removeprefix("table ")): t for t in site.json_tables}
    for slug, parts in site.report_parts.items():
        pdf = site.pdfs[slug].page if slug in site.pdfs else f"reports/{slug}.pdf"
        for tid, cols in parts.items():
            t = by_id.get((slug, tid))
            if t is None:
                continue
            for n, idx in enumerate(cols, 1):
                yield from empty_in(t, [i for i in idx if i < len(t.columns)], pdf, f"table {tid}, part {n} of {len(cols)}")


def empty_in(t: Table, idx: list[int], page: str, where: str) -> Iterator[Problem]:
    """The empty columns and rows of table t printed with the columns idx."""
    if not t.rows:
        return
    for c in idx:
        if all(_empty(row, c) for row in t.rows):
            yield Problem(page, None, f"{where}, column “{_name(t.columns[c])}”", f"column empty in all {len(t.rows)} rows", RULE)
    values = [c for c in idx if not t.columns[c].is_key and t.columns[c].metric not in NO_MEASUREMENT and t.columns[c].label.lower() != "line rate"]
    if not values:
        return
    blank = [r for r, row in enumerate(t.rows) if all(_empty(row, c) for c in values)]
    if blank:
        r = blank[0]
        names = [row_name(t, r2) for r2 in blank[:3]]
        yield Problem(page, None, f"{where}, row {r + 1} ({names[0]})",
                      f"{len(blank)} of {len(t.rows)} rows empty in every visible figure column (e.g. {'; '.join(names)})", RULE)


def row_name(t: Table, r: int) -> str:
    keys = [t.rows[r][i] for i, col in enumerate(t.columns) if col.is_key and i < len(t.rows[r]) and t.rows[r][i]]
    return " / ".join(keys) or (t.rows[r][0] if t.rows[r] else "")


def _empty(row: list[str], c: int) -> bool:
    return c >= len(row) or row[c].strip() in EMPTY


def _name(col: Column) -> str:
    return f"{col.label} ({col.unit})" if col.unit else col.label
