"""The compact index of every exported result set (build/hugo-data/wirespeed/index.json, Hugo's
hugo.Data.wirespeed.index): per set only what the pages that list or cross sets read — the content
adapter (content/results/_content.gotmpl), the results, compare, home, feed and review lists, the cards and
an article's source. A set's full site data (build/hugo-data/wirespeed/sets/<slug>.json) is mounted as
an asset instead and read only by that set's own pages (layouts/_partials/wirespeed/set-data.html), so
Hugo never holds every set's tables, charts and figures at once. Its contract is
wirespeed/schema/site-index.v1.schema.json; the entry of a set is made from the set's checked site data,
never computed anew."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wirespeed.site import setdata
from wirespeed.system import atomic

SCHEMA = "site-index.v1.schema.json"
VERSION = 1

# What the lists read of a set, under the names of its site data (setdata's contract).
SET_KEYS = ("slug", "title", "summary", "status", "date", "date_text", "changed", "year", "tags", "source", "dut",
            "instrument", "device", "peak", "facets", "headlines", "preview")
# Of each test: its page (title, description), the compare index (ports, port_speed, rfc), the adapter's check
# that its tables and charts exist.
TEST_KEYS = ("id", "title", "description", "ports", "port_speed", "rfc", "tables", "charts")
# Of each declared comparison: its page and the adapter's checks.
COMPARISON_KEYS = ("id", "title", "tests", "table", "chart")


def entry(data: dict[str, Any]) -> dict[str, Any]:
    """A set's index entry from its site data: SET_KEYS as they are, its tests and comparisons cut to what the
    lists read, the ids of its tables and charts (table_ids, chart_ids) and only its headline figures
    (layouts/_partials/wirespeed/headline-figures.html reads no others)."""
    out = {k: data[k] for k in SET_KEYS if k in data}
    out["tests"] = [{k: t[k] for k in TEST_KEYS if k in t} for t in data.get("tests") or []]
    out["comparisons"] = [{k: c[k] for k in COMPARISON_KEYS if k in c} for c in data.get("comparisons") or []]
    out["table_ids"] = sorted(data.get("tables") or {})
    out["chart_ids"] = sorted(data.get("charts") or {})
    out["figures"] = {i: f for i, f in (data.get("figures") or {}).items() if isinstance(f, dict) and f.get("headline")}
    return out


# The results filter's menus (layouts/results/section.html) and the measurements browser's frame sizes: each facet's
# distinct values over the published sets, which layouts/_partials/wirespeed/facet-values.html puts in menu order.
FACETS = ("vendor", "device", "rfc", "port_speed", "frame_sizes", "year")


def _text(value: Any) -> str:
    """A facet value as the page prints it (a whole number without its '.0', as Hugo's `string` prints JSON's numbers)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def facet_values(entries: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """Each facet's distinct values over the published sets, in the order the lists show the sets (newest first, then
    by slug) and first seen: gathered once here, not by a template pass over every set for each menu (which grew with
    the square of the archive's values). The menu's order (numbers by their number, years newest first, names by the
    site language's collation) is the partial's."""
    shown = sorted((e for e in entries.values() if e.get("status") == "published"), key=lambda e: e["slug"])
    shown.sort(key=lambda e: e.get("date") or "", reverse=True)  # stable: the slug orders a day's sets
    out: dict[str, list[str]] = {}
    for facet in FACETS:
        seen: dict[str, None] = {}
        for e in shown:
            v = (e.get("facets") or {}).get(facet)
            for x in (v if isinstance(v, list) else [v]) if v else ():
                seen.setdefault(_text(x), None)
        out[facet] = list(seen)
    return out


def index(entries: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The index document: {"version": 1, "sets": {slug: entry}, "facet_values": {facet: [values]}}."""
    return {"version": VERSION, "sets": dict(sorted(entries.items())), "facet_values": facet_values(entries)}


def write(entries: dict[str, dict[str, Any]], path: Path) -> None:
    """Write the index of `entries` (slug → entry) to `path` (build/hugo-data/wirespeed/index.json), checked first."""
    doc = index(entries)
    check(doc, str(path))
    atomic.write_text(path, json.dumps(doc, ensure_ascii=False, default=str) + "\n")


class SetIndexError(ValueError):
    """The index breaks its contract: `where: rule`."""


def problems(doc: Any) -> list[str]:
    """Every way `doc` breaks the index's contract, one line each (`JSON path: rule`); [] when it holds."""
    found = setdata.schema_lines(doc, SCHEMA)
    sets = doc.get("sets") if isinstance(doc, dict) else None
    for slug, e in (sets.items() if isinstance(sets, dict) else ()):
        if isinstance(e, dict) and e.get("slug") != slug:
            found.append(f"sets/{slug}/slug: {e.get('slug')!r} is not its key {slug!r}")
    return found


def check(doc: Any, name: str) -> None:
    """Raise SetIndexError naming `name` and the first problem, with how many more."""
    line = setdata.breach(problems(doc), name, "site index", SCHEMA)
    if line:
        raise SetIndexError(line)
