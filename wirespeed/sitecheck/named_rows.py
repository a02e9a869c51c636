"""Rule named-row: a figure printed outside a table — a headline card (on the page, in the PDF, the feed and the
link preview), a figure an article cites, a compare-page figure, a set's or an article's summary — is the
figure of the table row it names, printed the same way.

Cards and figures name their row by keys (test, frame size, variant, direction, load); a summary names it
in words ("Linux bridge: NDR 64 B 2,458 frames/s", "64-byte traffic stopped at 5.14 to 34.9 Mpps"): there a
rate is checked against the throughput of the frame size its clause names, of the test and variant the
sentence names (every test when it names none); a range must span the lowest to the highest of them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from wirespeed.presentation.headlines import DIGITS as HEADLINE_DIGITS
from wirespeed.problems import Problem
from wirespeed.sitecheck import rows
from wirespeed.sitecheck.numbers import SYMBOLS, Printed, parse, snippet
from wirespeed.sitecheck.site import Site

RULE = "named-row"
# a card figure's label (wirespeed.presentation.headlines) → the table column (metric) it is read from
CARD_METRICS = {"frame rate": "throughput", "L1 bit rate": "throughput_l1", "L2 bit rate": "throughput_l2", "share of line rate": "throughput_line_rate",
                "share of the maximum theoretical rate": "throughput_max_theoretical", "average": "latency_avg", "median": "latency_p50",
                "99th percentile": "latency_p99", "maximum": "latency_max", "outage": "failover_time", "forwarding rate": "forwarding_rate", "goodput": "goodput",
                "transaction rate": "transaction_rate"}
APPROX = re.compile(r"\b(roughly|about|around|approximately|nearly|almost|close to|some|up to)\b|[~≈]", re.I)
FRAME = re.compile(r"(?<![\w.,])(\d{2,5})(?:-byte|\s?-?\s?B\b|\s?bytes?\b)|\b(imix)\b", re.I)
RANGE_WORDS = re.compile(r"^\s*(?:to|–|-|and)\s*$")
SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z0-9])|;\s*")


def check_named_rows(site: Site) -> Iterator[Problem]:
    """Cards, cited figures, compare figures and summaries agree with the table row they name, digit for digit."""
    for slug, data in site.sets.items():
        idx = rows.index(site, slug)
        page = f"results/{slug}/index.html"
        yield from _figures(data, idx, f"build/hugo-data/wirespeed/sets/{slug}.json")
        yield from _cards(data, idx, page)
        summary = data.get("summary") or ""
        if summary:
            yield from _prose(summary, data, idx, page, "header > p.lead (the set's summary: also its meta description, link preview and feed entry)")
    for s in site.compare.get("sets", []):
        slug = s.get("slug")
        if slug in site.sets:
            yield from _compare(s, site.sets[slug], rows.index(site, slug))
    for rel in site.html_pages:
        if rel.startswith("reviews/") and site.slug_of(rel) in site.sets:
            slug = site.slug_of(rel)
            lead = site.soup(rel).select_one("header p.lead")
            if lead is not None:
                yield from _prose(" ".join(lead.get_text(" ").split()), site.sets[slug], rows.index(site, slug), rel, "header > p.lead (the article's summary)")


def _split_id(fid: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """A figure id 'test/metric/frame[/variant][/direction][/component][/load%]' as the keys of its row."""
    parts = fid.split("/")
    if len(parts) < 2:
        return None
    test = next((t for t in data.get("tests", []) if t["id"] == parts[0]), None)
    if test is None:
        return None
    keys: dict[str, Any] = {"test": parts[0], "metric": parts[1], "values": []}
    for p in parts[2:]:
        if p.endswith("%"):
            try:
                keys["load"] = float(p[:-1])
            except ValueError:
                return None
        else:
            keys["values"].append(p)
    return keys


def _row_of(cands, keys: dict[str, Any]) -> list[rows.Cell]:
    """The summary cells whose row keys are exactly the figure id's key values."""
    want = sorted(keys["values"])
    out = []
    for key, cell in cands:
        have = sorted(v for v in (key.frame, key.variant, key.direction, key.component) if v)
        if have != want or key.trial:
            continue
        if keys.get("load") is not None and (key.load is None or abs(key.load - keys["load"]) > 1e-9):
            continue
        out.append(cell)
    return out


def _figures(data: dict[str, Any], idx, page: str) -> Iterator[Problem]:
    """Every exported figure (what articles cite and the compare page shows) against its table cell."""
    for fid, f in (data.get("figures") or {}).items():
        keys = _split_id(fid, data)
        if keys is None or f.get("value") is None:
            continue
        cells = _row_of(idx.get((keys["test"], keys["metric"]), []), keys)
        if not cells:
            continue
        printed = _printed(f.get("text", ""), f.get("unit", ""))
        if printed is None:
            continue
        yield from _compare_cells(page, f"figures[{fid!r}]", f"{f['text']} {f.get('unit', '')}".strip(), printed, cells)


def _printed(text: str, unit: str) -> Printed | None:
    """A figure's text and unit as one printed figure (the first number of the text)."""
    found = parse(f"{text} {unit}".strip())
    if not found:
        return None
    p = found[0]
    if not p.unit and SYMBOLS.get(unit.split(" ")[0] if unit else ""):
        return Printed(p.text, p.number, p.value, p.decimals, p.digits, SYMBOLS[unit.split(" ")[0]], p.qualifier, p.start, p.end)
    return p


def _compare_cells(page: str, where: str, shown: str, p: Printed, cells: list[rows.Cell], relative: float = 0.0, same_text: bool = True) -> Iterator[Problem]:
    """The figure p agrees with one of the named cells and, in the cell's unit, prints its text (a card rounds a figure of
    more than four digits to four by design: there, without same_text, only the value must agree)."""
    if p.qualifier or any(c.figure.qualifier for c in cells):
        same = [c for c in cells if rows.agrees(p.canonical, p.half_step, c, max(relative, 0.05))]
    else:
        same = [c for c in cells if rows.agrees(p.canonical, p.half_step, c, relative)]
    if not same:
        c = cells[0]
        yield Problem(page, None, where, f"{shown} differs from the row it names: {c.text} {c.table.columns[c.col].unit} in {c.where}", RULE)
        return
    c = same[0]
    if (same_text or c.figure.digits <= HEADLINE_DIGITS) and c.unit == p.unit and c.figure.number != p.number and not (p.qualifier or c.figure.qualifier):
        yield Problem(page, None, where, f"{shown} is printed {c.text} {c.table.columns[c.col].unit} in {c.where}: one figure, two texts", RULE)


def _cards(data: dict[str, Any], idx, page: str) -> Iterator[Problem]:
    """Headline cards (the page, the PDF, the feed and the link preview print them) against their rows."""
    for i, card in enumerate(data.get("headlines", [])):
        if card.get("kind") not in ("throughput", "forwarding", "goodput", "transactions", "latency", "failover"):
            continue  # ramp limits come from the samples, loss cards sum every row
        where = _card_keys(card, data)
        if where is None:
            continue
        for test in card.get("tests", []):
            for f in card.get("figures", []):
                metric = CARD_METRICS.get(f.get("label", ""))
                p = _printed(f.get("text", ""), f.get("unit", ""))
                if metric is None or p is None:
                    continue
                cells = rows.named(idx.get((test, metric), []), **where)
                if cells:
                    yield from _compare_cells(page, f"ul.headlines > li.headline:nth-of-type({i + 1}) ({card.get('title')}: {card.get('context')}; "
                                                    "also in the PDF, the feed and the link preview)", f"{f['text']} {f.get('unit', '')}".strip(), p, cells,
                                              same_text=False)


def _card_keys(card: dict[str, Any], data: dict[str, Any]) -> dict[str, Any] | None:
    """The row keys a card's context names: '<test title>, 64-byte frames, ndr, bidirectional, 50 % load'."""
    context = card.get("context", "")
    title = card.get("test_title") or ""
    if not context.startswith(title):
        return None
    out: dict[str, Any] = {}
    variants = {v for t in data.get("tests", []) for v in (t.get("variants") or {})}
    for part in (x.strip() for x in context[len(title):].split(",")):
        if not part or part == "at the throughput rate":
            continue
        if m := re.fullmatch(r"(\S+)-byte frames", part):
            out["frame"] = m.group(1)
        elif m := re.fullmatch(r"(\S+) mix", part):
            out["frame"] = m.group(1)
        elif m := re.fullmatch(r"([\d.,]+) % load", part):
            out["load"] = float(m.group(1).replace(",", ""))
        elif part in rows.DIRECTIONS:
            out["direction"] = part
        elif part in variants:
            out["variant"] = part
        else:
            return None  # a context this rule does not know how to read: no guess
    return out


def _compare(s: dict[str, Any], data: dict[str, Any], idx) -> Iterator[Problem]:
    for f in s.get("figures", []):
        keys = _split_id(f.get("id", ""), data)
        p = _printed(f.get("text", ""), f.get("unit", ""))
        if keys is None or p is None:
            continue
        cells = _row_of(idx.get((keys["test"], keys["metric"]), []), keys)
        if cells:
            yield from _compare_cells("compare/index.json", f"sets[{s['slug']}].figures[{f['id']!r}] (the compare page)",
                                      f"{f['text']} {f.get('unit', '')}".strip(), p, cells)


def _prose(text: str, data: dict[str, Any], idx, page: str, where: str) -> Iterator[Problem]:
    """Rates in a summary against the throughput of the rows its words name."""
    tests = data.get("tests", [])
    names = _test_names(tests)
    variants = sorted({v for t in tests for v in (t.get("variants") or {})}, key=len, reverse=True)
    for sentence in SENTENCE.split(text):
        test_at = _mentions(sentence, names)
        variant_at = [(m.start(), v) for v in variants for m in re.finditer(rf"\b{re.escape(v)}\b", sentence, re.I)]
        for clause_start, clause in _clauses(sentence):
            frames = [m.group(1) or m.group(2).lower() for m in FRAME.finditer(clause)]
            if len(set(frames)) != 1:
                continue  # no frame size named, or several: no single row
            figs = [p for p in parse(clause) if p.dimension == "frame_rate"]
            for p in figs:
                at = clause_start + p.start
                test_ids = _tests_named(sentence, at + len(p.text), test_at) or [t["id"] for t in tests]
                variant = next((v for pos, v in reversed(variant_at) if pos < at), None)
                cells = [c for tid in test_ids for c in rows.named(idx.get((tid, "throughput"), []), frame=frames[0],
                                                                      variant=variant if variant in tests_variants(tests, tid) else None)]
                if not cells:
                    continue
                low = _range_start(clause, p)
                relative = 0.1 if APPROX.search(clause) else 0.0
                shown = snippet(sentence, max(0, at - 60), at + len(p.text), 0)
                if low is not None:
                    lo, hi = min(cells, key=lambda c: c.canonical), max(cells, key=lambda c: c.canonical)
                    lp = Printed(low.text, low.number, low.value, low.decimals, low.digits, p.unit, low.qualifier, low.start, low.end)
                    if not (rows.agrees(lp.canonical, lp.half_step, lo, relative) and rows.agrees(p.canonical, p.half_step, hi, relative)):
                        unit = hi.table.columns[hi.col].unit
                        yield Problem(page, None, where, f"“{shown}” contradicts the tables: {frames[0]}-byte throughput runs from {lo.text} to {hi.text} {unit} "
                                      f"({lo.where}; {hi.where})", RULE)
                elif not any(rows.agrees(p.canonical, p.half_step, c, relative) for c in cells):
                    c = cells[0]
                    yield Problem(page, None, where, f"“{shown}” differs from the row it names: {', '.join(sorted({x.text for x in cells})[:4])} "
                                  f"{c.table.columns[c.col].unit} ({c.where})", RULE)


def tests_variants(tests: list[dict[str, Any]], tid: str) -> set[str]:
    return {v for t in tests if t["id"] == tid for v in (t.get("variants") or {})}


def _test_names(tests: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """(name, test ids): each test's title, its id, and its title up to the first comma or parenthesis (which several
    tests may share: "IPv4 routing" names both IPv4 routing tests), longest first."""
    names: dict[str, list[str]] = {}
    for t in tests:
        title = t.get("title") or ""
        short = re.split(r"[,(:]", title)[0].strip()
        for name in {title, short, t["id"]}:
            if len(name) >= 4:
                names.setdefault(name.lower(), []).append(t["id"])
    return sorted(((n, sorted(set(ids))) for n, ids in names.items()), key=lambda x: -len(x[0]))


def _mentions(sentence: str, names: list[tuple[str, list[str]]]) -> list[tuple[int, int, list[str]]]:
    """Where the sentence names tests: (start, end, test ids), the longest name winning at a position."""
    found: list[tuple[int, int, list[str]]] = []
    for name, ids in names:
        for m in re.finditer(re.escape(name), sentence, re.I):
            if not any(s <= m.start() < e for s, e, _ in found):
                found.append((m.start(), m.end(), ids))
    return sorted(found)


def _tests_named(sentence: str, end: int, mentions: list[tuple[int, int, list[str]]]) -> list[str]:
    """The tests a figure ending at `end` belongs to: those named in a parenthesis right after it ("5.14 Mpps (IPv4
    routing …)"), else the last ones named before it in the sentence; none when the sentence names none."""
    after = re.match(r"\s*\(", sentence[end:])
    if after:
        inside = end + after.end()
        close = sentence.find(")", inside)
        named = [ids for s, _, ids in mentions if inside <= s < (close if close >= 0 else len(sentence))]
        if named:
            return named[0]
    before = [ids for s, _, ids in mentions if s < end]
    return before[-1] if before else []


def _clauses(sentence: str) -> Iterator[tuple[int, str]]:
    start = 0
    for m in re.finditer(r",\s|:\s", sentence):
        yield start, sentence[start:m.start()]
        start = m.end()
    yield start, sentence[start:]


def _range_start(clause: str, p: Printed) -> Printed | None:
    """The lower end of a range 'X to Y unit' (or 'X–Y', 'between X and Y') ending at the figure p, if p ends one."""
    before = [q for q in parse(clause[:p.start]) if not q.unit]
    if before and RANGE_WORDS.match(clause[before[-1].end:p.start]):
        return before[-1]
    return None
