"""A result table's web HTML, rendered once per table by the site-data step (the table's `html` in the set's site
data), which layouts/_partials/result-table.html prints as it is: a table costs Hugo one string instead of a
template pass per cell, on every page that shows it, at every build (Hugo has no incremental build; this step's
content-hash cache keeps the HTML across builds of a growing archive).

What it prints, from the table model's export (presentation/tables/model.py) and its layout (tables/layout.py, the
PDF's choice too):
- whole, split by metric into parts that each start with the key columns, or transposed (a column per row); each
  part in its own scrolling box, its <caption> the title (and the part); the caption text and downloads follow;
- column groups give a first header row (scope=colgroup); ungrouped columns span both header rows; units in the
  headers, never in the cells; numeric columns (align "right") right-aligned;
- the first column heads its row (scope=row); a flagged cell (a published figure that differs from the recomputed
  one) carries a numbered marker whose accessible text is the note, listed under the table; a derived cell a †;
- a cell that prints a catalog figure carries its figure id (data-fig), the table its set's explanation page
  (data-explain), where js/explain.js opens the figure's explanation. A figure id is test/metric/frame/… (site/data.py
  figure_id, no part of it empty), and a row's figures differ mostly in one part: the metric (a results row) or the
  load (a row of a table by load). The row says the rest once, with that part left empty (data-fk="t//64/ndr" or
  "t/jitter_max/64/"), and each such cell only its part, which has no "/" (data-fig="throughput"); js/explain.js
  puts the whole id back (figure_id below reads it the same way). Any other figure of the row keeps its whole id.

Every text and attribute value is escaped here as Hugo's html/template escapes it (the rows carry what an
untrusted set's files say). A link is written under ROOT, which the partial replaces with the site's root under its
base URL (site.Home.RelPermalink: a GitHub Pages project site lives under /REPO/); ROOT holds a NUL, which no
escaped text can (NUL becomes U+FFFD), so only the links are moved."""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from typing import Any
from urllib.parse import quote

from wirespeed.presentation.tables.layout import NO_KEY_HEAD, transposed_heads
from wirespeed.presentation.tables.results import SPREAD_OF_BOUNDS

ROOT = "\x00root\x00"  # replaced by the site's root URL path ("/" or "/REPO/") by layouts/_partials/result-table.html
DERIVED_TITLE = "Computed by wirespeed from the published figures"

# html/template's escaping of a value in text or in a quoted attribute (its htmlReplacementTable)
_TEMPLATE = str.maketrans({"\0": "\ufffd", '"': "&#34;", "&": "&amp;", "'": "&#39;", "+": "&#43;", "<": "&lt;", ">": "&gt;"})
# Hugo's htmlEscape (Go's html.EscapeString), which the template used for headers and notes' markers, and a NUL made
# U+FFFD as in every other value (htmlEscape passed it through)
_PLAIN = str.maketrans({"\0": "\ufffd", "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&#39;", '"': "&#34;"})
# What html/template's URL normalizer keeps in a link (the rest is percent-encoded)
_URL_SAFE = "!#$&*+,/:;=?@[]-._~%"


def _t(value: Any) -> str:
    """A value printed by the template ({{ . }}): '' for none, as Hugo prints a missing key."""
    return "" if value is None else str(value).translate(_TEMPLATE)


def _h(value: Any) -> str:
    """A value as Hugo's htmlEscape wrote it into the template's own markup (headers, markers), NUL made U+FFFD."""
    return "" if value is None else str(value).translate(_PLAIN)


def _url(path: str) -> str:
    """A file's site-relative path ("results/<slug>/tables/<id>.csv") as a link under the site's root; any other path
    is refused, as layouts/_partials/wirespeed/file-url.html refuses one in the other partials."""
    if not path or path.startswith("/") or "://" in path or "\\" in path:
        raise ValueError(f"site data: file {path!r} is not a path relative to the site root (like \"results/SLUG/tables/ID.csv\")")
    return ROOT + _href(path)


def _href(url: str) -> str:
    return _t(quote(url, safe=_URL_SAFE))


def _frag(text: str) -> str:
    """A value after the # of a link, as html/template's URL escaper writes it."""
    return _t(quote(text, safe=""))


def _labels(cols: list[dict[str, Any]]) -> list[str]:
    """Each column's header: "Label (unit)" unless the label already is the unit; a derived column says so."""
    out = []
    for c in cols:
        label, unit = c.get("label") or "", c.get("unit") or ""
        text = f'{_h(label)} <span class="unit">({_h(unit)})</span>' if unit and unit.lower() != label.lower() else _h(label)
        if c.get("derived"):
            text += f' <span class="derived" title="{DERIVED_TITLE}">derived</span>'
        out.append(text)
    return out


def _cell(grid: list[list[Any]], r: int, c: int) -> Any:
    """grid[r][c], or None where the grid (flags, derived cells, figure ids) is shorter than the table."""
    return grid[r][c] if r < len(grid) and c < len(grid[r]) else None


def _marks(t: dict[str, Any], anchor: str) -> tuple[dict[tuple[int, int], tuple[str, bool]], list[dict[str, Any]]]:
    """The cells' markers ((row, column) → (HTML, flagged)) and the flag notes, numbered in the order of the rows and
    columns: one note for each distinct text, naming every cell it marks (the bridge set's six standard deviations of
    bounds made six notes of the same words); each cell's marker has an id of its own, the note links back to each."""
    cols, flags, dcells = t["columns"], t.get("flags") or [], t.get("derived_cells") or []
    marks: dict[tuple[int, int], tuple[str, bool]] = {}
    notes: list[dict[str, Any]] = []
    by_text: dict[str, dict[str, Any]] = {}
    for r, row in enumerate(t.get("rows") or []):
        for c, v in enumerate(row):
            flag = _cell(flags, r, c)
            mark = ""
            if flag:
                note = by_text.get(flag)
                if note is None:
                    note = by_text[flag] = {"n": len(notes) + 1, "note": flag, "cells": []}
                    notes.append(note)
                k = note["n"]
                ref = f"{anchor}-r{k}" + (f"-{len(note['cells']) + 1}" if note["cells"] else "")
                note["cells"].append({"row": row, "col": c, "ref": ref})
                f = _h(flag)
                mark = (f'<a class="flag" href="#{anchor}-n{k}" id="{ref}" title="{f}"><span aria-hidden="true">{k}</span>'
                        f'<span class="vh">(note {k}: {f})</span></a>')
            if _cell(dcells, r, c) and not cols[c].get("derived") and (v or "") != "":
                mark += f'<span class="derived-cell" title="{DERIVED_TITLE}">†<span class="vh"> (derived)</span></span>'
            if mark:
                marks[(r, c)] = (mark, bool(flag))
    return marks, notes


def _note(flag: str) -> str:
    """A flag's numbered note: what the flag says, after what kind of flag it is (a figure that disagrees with its
    recomputation; a standard deviation of bounds says so itself)."""
    return _t(flag) if flag == SPREAD_OF_BOUNDS else f"the published figure differs from the recomputed one — {_t(flag)}"


def _fig(t: dict[str, Any], r: int, c: int, row_key: str = "") -> str:
    fig = _cell(t.get("figs") or [], r, c)
    if not fig:
        return ""
    part = _part_of(fig, row_key)
    return f' data-fig="{_t(fig if part is None else part)}"'


def _row_key(t: dict[str, Any], r: int, columns: list[int]) -> str:
    """The figure id most of the figures of row r's cells in `columns` fit with one part left empty ("" when fewer
    than two do)."""
    figs = [f for c in columns if (f := _cell(t.get("figs") or [], r, c))]
    if any("/" not in f for f in figs):  # an id of one part reads as a part of the key's id: the row says ids whole
        return ""
    keys = Counter(k for f in figs if "" not in (segs := f.split("/"))
                   for k in ("/".join(segs[:i] + [""] + segs[i + 1:]) for i in range(len(segs))))
    key, n = keys.most_common(1)[0] if keys else ("", 0)
    return key if n >= 2 else ""


def _part_of(fig: str, row_key: str) -> str | None:
    """The part of `fig` that the row's key leaves empty, when `fig` is that key with that part filled; else None."""
    if not row_key:
        return None
    segs, key = fig.split("/"), row_key.split("/")
    if len(segs) != len(key) or "" in segs or any(a != b for a, b in zip(segs, key) if b):
        return None
    return segs[key.index("")]


def figure_id(fig: str, row_key: str | None) -> str:
    """A cell's whole figure id from its data-fig and its row's data-fk, as js/explain.js reads them: a data-fig with no
    "/" fills the part the row's key leaves empty."""
    if "/" in fig or not row_key:
        return fig
    segs = row_key.split("/")
    segs[segs.index("")] = fig
    return "/".join(segs)


def _part(t: dict[str, Any], columns: list[int], shown: list[int], labels: list[str], numeric: list[bool],
          marks: dict[tuple[int, int], tuple[str, bool]], first: bool, keys: int) -> str:
    """The header and body of one part of a whole or split table: its columns (the key columns first) and rows."""
    cols, rows = t["columns"], t.get("rows") or []
    if not shown:
        shown = list(range(len(rows)))
    group = [cols[c].get("group") or "" for c in columns]
    runs, at = [], 0  # the runs of one group among these columns: (start position, group, span)
    for g, run in groupby(group):
        span = len(list(run))
        runs.append((at, g, span))
        at += span

    def th(c: int, extra: str = "") -> str:  # a column's header cell
        num = ' class="num"' if numeric[c] else ""
        return f'\n  <th scope="col"{extra}{num}>{labels[c]}</th>'

    out = []
    w = out.append
    grouped = any(group)
    if grouped:
        for _, _, span in runs:
            w(f'<colgroup span="{span}"></colgroup>' if span > 1 else "<colgroup></colgroup>")
    w("\n<thead>\n<tr>")
    if grouped:
        for at, g, span in runs:
            if g:
                w(f'\n  <th scope="colgroup" colspan="{span}" class="group">{_t(g)}</th>')
            else:
                w("".join(th(c, ' rowspan="2"') for c in columns[at:at + span]))
        w("\n</tr>\n<tr>")
        w("".join(th(c) for c in columns if cols[c].get("group")))
    else:
        w("".join(th(c) for c in columns))
    w("\n</tr>\n</thead>\n<tbody>")
    for r in shown:
        row = rows[r]
        heads = bool(row) and str(row[0] or "").strip(" ") != ""  # the first column heads the row: no figure there
        key = _row_key(t, r, [c for c in columns if c != 0 or not heads])
        w(f'\n<tr data-fk="{_t(key)}">' if key else "\n<tr>")
        for c in columns:
            v = row[c] if c < len(row) else None
            m = marks.get((r, c))
            if m and c < keys and not first:  # a key column's marker is printed in the first part only
                m = None
            classes = (["num"] if numeric[c] else []) + (["flagged"] if m and m[1] else [])
            cls = f' class="{" ".join(classes)}"' if classes else ""
            mark = m[0] if m else ""
            if c == 0 and heads:
                w(f'\n  <th scope="row"{cls}>{_t(v)}{mark}</th>')
            else:
                w(f"\n  <td{cls}{_fig(t, r, c, key)}>{_t(v)}{mark}</td>")
        w("\n</tr>")
    w("\n</tbody>\n")
    return "".join(out)


def _transposed(t: dict[str, Any], labels: list[str], numeric: list[bool], marks: dict[tuple[int, int], tuple[str, bool]], keys: int) -> str:
    """A table of few rows and many figures turned: its key columns head the columns, one column per original row;
    every other column becomes a row headed by its label and unit."""
    cols, rows = t["columns"], t.get("rows") or []
    out = ["<thead>\n<tr>\n  <th scope=\"col\">" + (" · ".join(labels[:keys]) if keys else NO_KEY_HEAD) + "</th>"]
    w = out.append
    for r, names in enumerate(transposed_heads(rows, keys)):
        w(f'\n  <th scope="col" class="num">{_t(names)}{"".join(marks[(r, c)][0] for c in range(keys) if (r, c) in marks)}</th>')
    w("\n</tr>\n</thead>\n<tbody>")
    for c, col in enumerate(cols):
        if c < keys:
            continue
        g = col.get("group")
        head = f'<span class="row-group">{_t(g)}</span> ' if g else ""
        w(f'\n<tr>\n  <th scope="row">{head}{labels[c]}</th>')
        for r, row in enumerate(rows):
            m = marks.get((r, c))
            cls = ("num" if numeric[c] else "") + (" flagged" if m and m[1] else "")
            w(f'\n  <td class="{cls}"{_fig(t, r, c)}>{_t(row[c] if c < len(row) else None)}{m[0] if m else ""}</td>')
        w("\n</tr>")
    w("\n</tbody>\n")
    return "".join(out)


def render(slug: str, t: dict[str, Any]) -> str:
    """The table's <figure>, as the set page, its test's page, a comparison or a review prints it. `t`: the table's
    site data (its model's export with `layout`, its downloads, its notebook and its figure ids)."""
    raw = f"table-{slug}-{t['id']}"  # the template's printf: raw inside the markers, escaped in attributes
    anchor = _t(raw)
    cols = t["columns"]
    ncol = len(cols)
    lay = t.get("layout") or {"kind": "whole", "keys": 1, "parts": [{"title": "", "columns": list(range(ncol))}]}
    labels = _labels(cols)
    numeric = [c.get("align") == "right" for c in cols]
    marks, notes = _marks(t, raw)
    explain = _href(f"results/{slug}/explain/")
    out = [f'\n<figure class="result-table result-table-{_t(lay["kind"])}" id="{anchor}"'
           + (f' data-explain="{ROOT}{explain}"' if t.get("figs") else "") + ">"]
    w = out.append
    parts = lay.get("parts") or []
    for p, part in enumerate(parts):
        cap = f"{anchor}-cap" if p == 0 else f"{anchor}-cap{p}"
        title = _t(t.get("title"))
        if len(parts) > 1:
            title += f'<span class="table-part">: {_t(part.get("title"))} <span class="muted">(part {p + 1} of {len(parts)})</span></span>'
        w(f'\n<div class="table-wrap" role="region" aria-labelledby="{cap}" tabindex="0">\n<table>\n<caption id="{cap}"><span>{title}</span></caption>\n')
        if lay["kind"] == "transposed":
            w(_transposed(t, labels, numeric, marks, int(lay.get("keys") or 0)))
        else:
            w(_part(t, [int(c) for c in part.get("columns") or []], [int(r) for r in part.get("rows") or []], labels, numeric, marks,
                    p == 0, int(lay.get("keys") or 0)))
        w("\n</table>\n</div>")
    w('\n<p class="table-hint" hidden>Scroll sideways for more columns →</p>\n<figcaption>')
    if t.get("caption"):
        w(f'<span class="caption-text">{_t(t["caption"])}</span>')
    if t.get("csv") or t.get("json"):
        w('\n  <span class="table-links">Download:')
        if t.get("csv"):
            w(f' <a href="{_url(t["csv"])}" download>CSV</a>')
        if t.get("json"):
            w(f'{" ·" if t.get("csv") else ""} <a href="{_url(t["json"])}" download>JSON</a>')
        w(".\n  </span>")  # a sentence of its own, before the next ("Computed in …")
    if t.get("notebook"):
        nb = t["notebook"]
        w(f'\n  <span class="table-source">Computed in the <a href="{_url(f"notebooks/{nb}.html")}">{_t(nb)} notebook</a> '
          f'(<a href="{_url(f"results/{slug}/notebooks/{nb}.ipynb")}" download>this set\'s run, .ipynb</a>).</span>')
    if t.get("test"):
        w(f'\n  <span class="table-explain"><a href="{ROOT}{explain}#test-{_frag(str(t["test"]))}">How each figure was computed</a>.</span>')
    if t.get("notes"):
        w('\n  <ul class="table-remarks">' + "".join(f"<li>{_t(n)}</li>" for n in t["notes"]) + "\n  </ul>")
    if notes:
        c0 = cols[0]
        w(f'\n  <ol class="table-notes" aria-label="Notes to “{_t(t.get("title"))}”">')
        unit = f' {_t(c0["unit"])}' if c0.get("unit") else ""
        for n in notes:
            where = []
            for cell in n["cells"]:
                cc = cols[cell["col"]]
                group = f'{_t(cc["group"])} ' if cc.get("group") else ""
                ref = _frag(raw) + cell["ref"][len(anchor):]
                more = "".join(f", {_t(v)}" for v in cell["row"][1:int(lay.get("keys") or 0)] if v)  # the other keys: variant, trial
                where.append(f'<a href="#{ref}">{_t(c0.get("label"))} {_t(cell["row"][0])}{unit}{more}, {group}{_t(cc.get("label"))}</a>')
            w(f'\n    <li id="{anchor}-n{n["n"]}" value="{n["n"]}">{"; ".join(where)}: {_note(n["note"])}.</li>')
        w("\n  </ol>")
    w("\n</figcaption>\n</figure>\n")
    return "".join(out)


def chart_data(title: str, table: dict[str, Any]) -> str:
    """A chart's data as its tooltips print it (the analysis step's `table`: column names and rows of printed values),
    the table behind the chart's "Data as table" toggle (layouts/_partials/result-chart.html prints it)."""
    t = _t(title)
    head = "".join(f'<th scope="col">{_t(c)}</th>' for c in table["columns"])
    body = "".join("<tr>" + "".join(f"<td>{_t(v)}</td>" for v in row) + "</tr>" for row in table["rows"])
    return ('\n  <details class="chart-data">\n'
            f'    <summary>Data as table<span class="vh">: {t}</span></summary>\n'
            f'    <div class="table-scroll" tabindex="0" role="region" aria-label="Data of {t}">\n'
            "      <table>\n"
            f'        <caption class="vh">{t}</caption>\n'
            f"        <thead><tr>{head}</tr></thead>\n"
            f"        <tbody>{body}</tbody>\n"
            "      </table>\n"
            "    </div>\n"
            "  </details>")
