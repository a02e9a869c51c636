"""Rule digits: no figure printed with more significant digits than the number rule allows.

The number rule (wirespeed.presentation.formatting, wirespeed.engine.qualified): a derived figure has about
four significant digits and never more than qualified.MAX_DIGITS; the integer part is never rounded, so a
rate of 1,000 or more in frames/s, packets/s or bit/s has no decimals; a headline shows at most
headlines.DIGITS significant digits; one value prints the same text everywhere in a column. A figure
printed with a fractional part and more digits than that is a raw float (5,337,161,395.8681555 bit/s).
A transcribed set's published figures keep the digits the lab printed (wirespeed.engine.number_style.published): those are
exempt wherever they are quoted.
"""

from __future__ import annotations

from collections.abc import Iterator

from wirespeed.engine.qualified import MAX_DIGITS
from wirespeed.engine.units import UNITS
from wirespeed.presentation.formatting import derived_decimals
from wirespeed.presentation.headlines import DIGITS as HEADLINE_DIGITS
from wirespeed.problems import Problem
from wirespeed.sitecheck.numbers import cell_number, parse, snippet
from wirespeed.sitecheck.site import Site

RULE = "digits"
BASE_RATES = ("fps", "pps", "bps")  # units in which a rate of 1,000 or more prints whole


def check_digits(site: Site) -> Iterator[Problem]:
    """No raw float: at most MAX_DIGITS significant digits, whole rates from 1,000 frames/s or bit/s, headlines at four digits, one text per value in a column."""
    printed: dict[str | None, set[str]] = {}
    for t in site.texts():
        if t.slug not in printed:
            printed[t.slug] = as_printed_by_source(site, t.slug)
        for p in parse(t.text):
            if p.number.replace(",", "") in printed[t.slug]:  # as the lab printed it (downloads drop the separators)
                continue
            why = too_many(p)
            if why:
                yield Problem(t.page, None, t.where, f"{p.number}: {why} in “{snippet(t.text, p.start, p.end)}”", RULE)
    for slug, data in site.sets.items():
        for i, card in enumerate(data.get("headlines", [])):
            for f in card.get("figures", []):
                share = f.get("unit", "").startswith("% of")  # a share of line rate near 100 keeps 3 decimals: 99.999 %
                for p in parse(f.get("text", "")):
                    if p.decimals and p.digits > HEADLINE_DIGITS and not (share and p.decimals <= derived_decimals("throughput_line_rate", [p.value])):
                        yield Problem(f"build/hugo-data/wirespeed/sets/{slug}.json", None, f"headlines[{i}] ({card.get('title')}, {card.get('context')})",
                                      f"{f['text']} {f.get('unit', '')}: {p.digits} significant digits where a headline shows at most {HEADLINE_DIGITS}", RULE)
    for t in site.json_tables + site.html_tables:
        yield from _column_consistency(t)


def as_printed_by_source(site: Site, slug: str | None) -> set[str]:
    """The numbers a transcribed set's source printed (its tables' published cells), which keep their digits."""
    data = site.sets.get(slug or "")
    if not data or (data.get("source") or {}).get("kind") != "transcribed":
        return set()
    out = set()
    for t in site.json_tables:
        if t.slug != slug:
            continue
        for r, row in enumerate(t.rows):
            for c, text in enumerate(row):
                derived = t.columns[c].derived if c < len(t.columns) else False
                if t.derived and r < len(t.derived) and c < len(t.derived[r]):
                    derived = derived or t.derived[r][c]
                p = None if derived else cell_number(text)
                if p is not None:
                    out.add(p.number.replace(",", ""))
    return out


def too_many(p) -> str | None:
    """Why a printed figure has more digits than the number rule allows, or None."""
    if not p.decimals:
        return None
    if p.digits > MAX_DIGITS:
        return f"{p.digits} significant digits (the number rule prints at most {MAX_DIGITS})"
    if p.unit in BASE_RATES and abs(p.value) >= 1000:
        return f"a rate of 1,000 {UNITS[p.unit].symbol} or more printed with decimals (the number rule prints it whole)"
    return None


def _column_consistency(t) -> Iterator[Problem]:
    """One value, one text: two cells of one quantity that print the same number differently ('100.0' and '100'):
    a column's cells, or a row's in a transposed table (a row per metric)."""
    if t.transposed:
        lines = [[(r, c) for c in range(1, len(row))] for r, row in enumerate(t.rows)]
    else:
        lines = [[(r, c) for r in range(len(t.rows)) if c < len(t.rows[r])] for c, col in enumerate(t.columns) if not col.is_key]
    for cells in lines:
        seen: dict[float, tuple[int, int, str]] = {}
        for r, c in cells:
            p = cell_number(t.rows[r][c])
            if p is None or p.qualifier:
                continue
            if p.value in seen and seen[p.value][2] != p.number:
                r0, c0, text0 = seen[p.value]
                where0 = f"column {c0 + 1}" if t.transposed else f"row {r0 + 1}"
                yield Problem(t.page, None, t.cell_where(r, c), f"{p.number} and {text0} ({where0}) are the same number printed with different digits", RULE)
                break
            seen.setdefault(p.value, (r, c, p.number))
