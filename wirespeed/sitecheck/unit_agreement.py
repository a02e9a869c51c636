"""Rule unit-disagrees: a table prints the same units on the web page and in the PDF report.

The page prints each column's unit in its header; the PDF prints its own header for the same exported
table (over the columns of each part when it splits the table). The units found in the PDF's header
lines of a table (from its caption to its first row) must be the units of the page's columns shown there."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wirespeed.problems import Problem
from wirespeed.report.shortcodes import DERIVED_MARK, FLAG_MARK, PDF_DERIVED, PDF_DISAGREES, PDF_SPREAD_OF_BOUNDS
from wirespeed.sitecheck.numbers import SYMBOLS
from wirespeed.sitecheck.site import Site, Table

RULE = "unit-disagrees"
UNIT_IN_HEADER = re.compile(r"\(([^()]{1,16})\)")


def check_unit_agreement(site: Site) -> Iterator[Problem]:
    """The units of every table in a set's PDF agree with the units its web page prints for the same columns."""
    for slug, pdf in site.pdfs.items():
        text = "\n".join(pdf.pages)
        parts = site.report_parts.get(slug, {})
        for t in site.json_tables:
            if t.slug != slug or not t.rows:
                continue
            tid = t.where.removeprefix("table ")
            head = pdf_header(text, t)
            if head is None:
                continue  # the report does not print this table
            shown = parts.get(tid, [list(range(len(t.columns)))])[0]
            web = {t.columns[i].unit for i in shown if i < len(t.columns) and t.columns[i].unit in SYMBOLS and t.columns[i].unit.lower() != t.columns[i].label.lower()}
            found = {u for u in UNIT_IN_HEADER.findall(head) if u in SYMBOLS}
            if web != found:
                only_web, only_pdf = sorted(web - found), sorted(found - web)
                what = "; ".join(x for x in (f"page only: {', '.join(only_web)}" if only_web else "", f"PDF only: {', '.join(only_pdf)}" if only_pdf else "") if x)
                yield Problem(pdf.page, None, f"table {tid} (“{t.title}”)", f"units differ between the page ({t.page}) and the PDF header: {what}", RULE)


def pdf_header(text: str, t: Table) -> str | None:
    """The PDF's header lines of table t: after its caption 'Table N: <title>. …', before its first row; None when not found."""
    flat = " ".join(text.split())
    title = " ".join(t.title.split())
    m = re.search(r"Table \d+: " + re.escape(title) + r"\.", flat)
    if m is None:
        return None
    rest = flat[m.end():]
    first = " ".join(c for c in t.rows[0][:2] if c)
    end = _first_row(rest, t)
    if end is None:
        return None
    head = rest[:end]
    caption = " ".join(t.caption.split())
    for chunk in (caption, f"{DERIVED_MARK} {PDF_DERIVED}", f"{FLAG_MARK} {PDF_DISAGREES}", f"{FLAG_MARK} {PDF_SPREAD_OF_BOUNDS}"):
        head = head.replace(chunk, " ")
    return head if first else None


def _first_row(rest: str, t: Table) -> int | None:
    """Where the table's first row starts in the flattened text after its caption."""
    cells = [c for c in t.rows[0] if c][:3]
    if not cells:
        return None
    pattern = r"(?<!\S)" + r"\s+(?:\S+\s+){0,2}?".join(re.escape(c) for c in cells) + r"(?!\S)"
    m = re.search(pattern, rest)
    return m.start() if m else None
