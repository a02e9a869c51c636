"""A set's explanation page, rendered once per set by the site-data step (results/<slug>/explain.html, an asset
that layouts/result-explain.html includes whole) from the same records as explain.json: one section per figure,
about a thousand a set, under its test's source line and, once for each table's figures, the notebook cell that
prints that table and the file its rows come from (div.xp-table > p.explain-notebook: the popover copies both with the
figure, which then names its line only). Rendered here, the page costs Hugo one file read instead of a template pass per figure
(the heaviest page of a set), and the step's content-hash cache keeps it across builds of a growing archive.

Every text and attribute value is escaped here (the records carry what an untrusted set's files say); a link is a
set's own file, relative to the page (results/<slug>/explain/), or a site-relative URL, percent-encoded."""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from wirespeed.catalog import explain

# What may stay as it is in a link (the rest is percent-encoded): the URL's own syntax, never a quote or a bracket.
_URL_SAFE = "/#%?=&:;,+@!$()*~-._"


def _t(value: Any) -> str:
    return escape(str(value), quote=True)


def _href(url: str, slug: str) -> str:
    """A set's file URL ("results/<slug>/…", site-relative) as seen from the explanation page: "../…"; any other
    URL stays site-relative (from the site root under the base path, which the page's <base>-free links need:
    the set's explanation page is two folders below it)."""
    prefix = f"results/{slug}/"
    rel = "../" + url[len(prefix):] if url.startswith(prefix) else "../../../" + url.lstrip("/")
    return _t(quote(rel, safe=_URL_SAFE))


NBSP = "\u00a0"  # the no-break space itself: its entity is six bytes, a figure's unit has one
CHECKS = {"agrees": "the recomputation agrees", "erratum": "an erratum the set records"}
# A rounding rule's name beside a figure (its words are in the page's legend, once: catalog/explain.py's RULES).
RULE_NAMES = {"published": "As published", "machine": "Number rule", "derived": "Derived figure's rule", "inputs": "Input precision"}


def render(records: dict[str, Any]) -> str:
    """The page's header text, table of contents and one section per figure, as HTML."""
    slug, src = records["slug"], records.get("source") or {}
    out: list[str] = []
    w = out.append
    doc, publisher = src.get("document"), src.get("publisher")
    w('<header class="page-header">\n'
      f'    <p class="eyebrow">Figures of <a href="../">{_t(records["title"])}</a></p>\n'
      "    <h1>How each figure was computed</h1>\n"
      "    <p>Each figure the set's pages and its PDF report print: its value before rounding and the rule that rounded it, the\n"
      "      formula with its inputs (canonical units, computed left to right), the qualifier and where it came from (none for a\n"
      "      figure that is exactly its published cell), what the source printed and whether the recomputation agrees, the input\n"
      "      row and the notebook cell whose table prints it.")
    if doc:
        w(f" Source: {_t(publisher) + ', ' if publisher else ''}“{_t(doc)}”.")
    if src.get("transcribed_from"):  # the set's own sentence on what it took from the source: once, not under each test
        w(f" Transcribed from it: {_t(src['transcribed_from'])}")
    w("</p>\n  </header>\n")
    w('  <nav aria-label="Tests">\n    <ul class="explain-tests">')
    for t in records["tests"]:
        w(f'<li><a href="#test-{_t(t["id"])}">{_t(t["title"])}</a> ({len(t["figures"])})</li>')
    w("</ul>\n  </nav>")
    used = [r for r in RULE_NAMES if any((f.get("rule") or {}).get("rule") == r for t in records["tests"] for f in t["figures"])]
    if used:  # each rounding rule's words once; a figure names its rule and its decimals
        w('\n  <section class="xp-rules" aria-labelledby="rules-h">\n    <h2 id="rules-h">Rounding rules</h2><dl>'
          + "".join(f'<dt id="rule-{r}">{RULE_NAMES[r]}</dt><dd>{_t(explain.RULES[r])}.</dd>' for r in used) + "</dl>\n  </section>")
    formulas = _formulas(records)
    if formulas:  # each formula's terms in words once; a figure's formula, in numbers, names it
        w('\n  <section class="xp-rules" aria-labelledby="formulas-h">\n    <h2 id="formulas-h">Formulas</h2><dl>'
          + "".join(f'<dt id="f-{n}">Formula {n}</dt><dd>{_t(words)}</dd>' for words, n in formulas.items()) + "</dl>\n  </section>")
    for t in records["tests"]:
        tid = _t(t["id"])
        w(f'\n  <section aria-labelledby="test-{tid}">\n    <h2 id="test-{tid}">{_t(t["title"])}</h2>')
        if t.get("where") or doc:  # where the source prints the test's figures (its table): once here, not beside each figure
            w("<p class=\"explain-where\">Source figures "
              + (f"printed in {_t(t['where'])}" + (" of " if doc else "") if t.get("where") else "from ")
              + (f"“{_t(doc)}”" + (f" ({_t(publisher)})" if publisher else "") if doc else "") + ".</p>")
        for table, figures in _by_table(t["figures"]):
            nb = records["notebooks"].get(table) if table else None
            file = _one_file(figures, records) if nb else None
            if nb:  # the notebook cell that prints the table, and the file its rows come from: once for its figures
                w(f'\n    <div class="xp-table"><p class="explain-notebook">Table “{_t(nb.get("title") or table)}”, computed in '
                  f'<a href="{_href(nb["url"], slug)}">{_t(nb["name"])}, code cell {_t(nb["cell"])}</a>'
                  + (f", from the rows of {_file_link(file, slug)}" if file else "") + ".</p>")
            for f in figures:
                w(_figure(f, records, slug, t["title"], file is not None, formulas))
            if nb:
                w("</div>")
        w("\n  </section>")
    return "".join(out) + "\n"


def _by_table(figures: list[dict[str, Any]]) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """A test's figures grouped by the table that prints them, the tables in the order their first figure comes and each
    table's figures in their order (a set whose figures alternate between two tables, results and trials, says each
    table's notebook cell once, not once per figure). Figures of no table keep their place, each a group of its own."""
    groups: list[tuple[str | None, list[dict[str, Any]]]] = []
    at: dict[str, int] = {}
    for f in figures:
        table = f.get("table")
        if table is None:
            groups.append((None, [f]))
        elif table in at:
            groups[at[table]][1].append(f)
        else:
            at[table] = len(groups)
            groups.append((table, [f]))
    return groups


def _one_file(figures: list[dict[str, Any]], records: dict[str, Any]) -> dict[str, Any] | None:
    """The input row of the figures when all their rows come from one file with a link: that row (for its file), else None."""
    rows = [records["rows"].get(str(f["row"])) or {} for f in figures]
    files = {(r.get("file"), r.get("url")) for r in rows}
    return rows[0] if len(files) == 1 and rows[0].get("url") else None


def _file_link(row: dict[str, Any], slug: str) -> str:
    """A row's file, linked when the set publishes it."""
    name = _t(str(row.get("file", "")).rsplit("/", 1)[-1])
    return f'<a href="{_href(row["url"], slug)}">{name}</a>' if row.get("url") else name


def _rounding(f: dict[str, Any]) -> str:
    """The rule's name (linked to its words in the legend, but the plain "as published") and the decimals."""
    rule = f.get("rule") or {}
    name, places = rule.get("rule"), _t(rule.get("places", ""))
    if name == "published":
        return f"as published, {places}"
    if name == "machine":
        return f'a machine’s number “{_t(rule.get("machine_text", ""))}”, <a href="#rule-machine">number rule</a>, {places}'
    if name == "derived":
        return f'<a href="#rule-derived">derived figure’s rule</a>, {places}'
    if name == "inputs":
        return f'<a href="#rule-inputs">input precision</a>: {_t(rule.get("digits", ""))} significant digits, {places}'
    return _t(f["rounding"])  # a record without a named rule: its sentence


def _figure(f: dict[str, Any], records: dict[str, Any], slug: str, test_title: str, file_above: bool = False,
            formulas: dict[str, int] | None = None) -> str:
    """A figure's section. file_above: the file all its table's rows come from is named once above the table (the
    figure then says its line only); formulas: the page's formulas in words, numbered (_formulas)."""
    row = records["rows"].get(str(f["row"])) or {}
    unit = f"{NBSP}{_t(f['unit'])}" if f.get("unit") else ""
    label = f["label"].removeprefix(f"{test_title}: ")  # under its test's heading: the test's title once, there
    label = label[:1].upper() + label[1:]
    parts = [f'\n<section id="{_t(f["id"])}">'
             f'<h3>{_t(label)}: {_t(f["text"])}{unit}'
             f'{NBSP + "†" if f.get("derived") else ""}</h3><dl>']
    formula = f.get("formula")
    if f.get("before"):
        parts.append(f"<dt>Before rounding</dt><dd>{_t(f['before'])}{' ' + _t(formula['unit']) if formula else ''}</dd>")
    parts.append(f"<dt>Rounding</dt><dd>{_rounding(f)}</dd>")
    if formula:
        n = (formulas or {}).get(_words(formula.get("terms", [])))
        named = f' <a class="xp-terms" href="#f-{n}">(formula {n})</a>' if n else ""
        parts.append(f"<dt>{'Formula' if f.get('derived') else 'Recomputed'}</dt><dd><code>{_t(formula['text'])}</code>{named}</dd>")
    q = f["qualifier"]
    if not _plain(q):
        parts.append(f"<dt>Qualifier</dt><dd>{_t(q['name'])}{' (' + _t(q['symbol']) + ')' if q.get('symbol') else ''}, from {_t(q['from'])}</dd>")
    s = f.get("source")
    if s and not _as_heading(s, f):  # what the source printed, unless the heading already says it, digit for digit
        text = f"{_t(s['printed'])} as printed"
        if s.get("check"):
            text += "; " + CHECKS.get(s["check"], "the recomputation differs")
        text += (f": {_t(s['recomputed'])}" if s.get("recomputed") else "") + (f" ({_t(s['basis'])})" if s.get("basis") else "")
        text += f". {_t(s['note'])}" if s.get("note") else ""
        parts.append(f"<dt>Source</dt><dd>{text}</dd>")
    parts.append(f"<dt>Input row</dt><dd>{_input_row(row, slug, file_above)}</dd></dl></section>")
    return "".join(parts)


def _words(terms: list[list[Any]]) -> str:
    """A formula in words: its terms' names with their operators, bracketed as catalog.explain.formula_text brackets
    the numbers ("throughput × bytes on the wire per frame × bits per byte")."""
    text = ""
    for i, (op, _value, _unit, name) in enumerate(terms):
        if op == "":
            text = str(name)
        else:
            if op in "×÷" and i >= 2 and terms[i - 1][0] == "−":
                text = f"({text})"
            text = f"{text} {op} {name}"
    return text


def _formulas(records: dict[str, Any]) -> dict[str, int]:
    """The page's formulas in words, numbered from 1 in the order their first figure comes."""
    out: dict[str, int] = {}
    for t in records["tests"]:
        for f in t["figures"]:
            if (f.get("formula") or {}).get("terms"):
                out.setdefault(_words(f["formula"]["terms"]), len(out) + 1)
    return out


def _plain(qualifier: dict[str, Any]) -> bool:
    """Whether a qualifier says only that the figure is exactly its published cell (the page's header says such a figure
    has no qualifier line; the PDF's figure index names only the other qualifiers too)."""
    return qualifier.get("name") == "exact" and str(qualifier.get("from", "")).startswith("the published cell")


def _input_row(row: dict[str, Any], slug: str, file_above: bool) -> str:
    """Where a figure's row is: its line (in the file named above its table, else in its file); a row an importer read
    from a file that is not a table of lines (a capture, a tool's JSON) has none, and the page says so instead of
    "line 0"."""
    if row.get("line"):
        return ("line " if file_above else _file_link(row, slug) + ", line ") + _t(row["line"])
    return ("read from that file" if file_above else f"read from {_file_link(row, slug)}") + ", which has no lines of rows"


def _as_heading(source: dict[str, Any], f: dict[str, Any]) -> bool:
    """Whether what the source printed is the figure as its heading prints it, with nothing more to say (no check, no
    recomputation, no note)."""
    if any(source.get(k) for k in ("check", "recomputed", "basis", "note")):
        return False
    return source.get("printed") == (f"{f['text']} {f['unit']}" if f.get("unit") else f["text"])
