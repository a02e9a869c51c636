"""Exporting what the Hugo site needs: one JSON per published result set (mounted as a Hugo asset, read
by that set's own pages), one compact index of them all (Hugo data, read by the lists:
wirespeed/site/setindex.py) and the files they link (tables, charts, notebooks, raw data, Parquet), from the
catalog and the analysis outputs — never from the raw archive directly, so page and PDF share one source."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import traceback
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

import duckdb

import wirespeed
from wirespeed.resultset import publish
from wirespeed.system import atomic
from wirespeed.site import exportcache, setdata, setindex
from wirespeed.engine import dates, qualified
from wirespeed.engine import number_style
from wirespeed.pipeline import paths, status as setstatus
from wirespeed.engine.columns import METRICS
from wirespeed.catalog.headline_choice import throughput_headline
from wirespeed.catalog.view import samples, set_summary
from wirespeed.presentation.tables.results import DERIVED_FIELDS, frame_label, machine_unit, metric_label
from wirespeed.presentation.formatting import derived_decimals
from wirespeed.presentation import devicename, methodology, testbed
from wirespeed.presentation.peak import peak
from wirespeed.resultset.lookalikes import display_names
from wirespeed.resultset.methodology import merged
from wirespeed.resultset.text import group_key
from wirespeed.resultset import lastchange
from wirespeed.engine.units import UNITS
from wirespeed.presentation import downloads as dl
from wirespeed.presentation import preview
from wirespeed.presentation.headlines import headlines
from wirespeed.presentation.tables.layout import layout as table_layout
from wirespeed.site import compare_data, diagrams, explain_page, moved, notebook_pages, set_comparisons, table_html
from wirespeed.presentation.testbed_diagram import alt as diagram_alt
from wirespeed.site import trend_pages
from wirespeed.catalog import archive, explain, tally

HUGO_DATA = paths.HUGO_DATA
SITE_STATIC = paths.SITE_STATIC


class SiteError(RuntimeError):
    """The site data cannot be exported (e.g. a result set was not analysed)."""


def figure_id(row: dict[str, Any], metric: str, with_trial: bool = False) -> str:
    """test/metric/frame[/variant][/direction][/component][/port][/load%][/trial-N]: the name a shortcode uses for one
    figure (trial-N only where repeats of the same keys would otherwise share one name: the row without a trial keeps it;
    port where a tool reports each port pair beside their total, as NFVbench does)."""
    parts = [row["test_id"], metric]
    for value in (frame_label(row), row.get("variant"), row.get("direction"), row.get("component"), row.get("port")):
        if value:
            parts.append(str(value))
    if row.get("load_pct") is not None:
        parts.append(f"{row['load_pct']:g}%")
    if with_trial and row.get("trial") is not None:
        parts.append(f"trial-{row['trial']}")
    return "/".join(parts)


def _repeated(rows: list[dict[str, Any]]) -> set[int]:
    """row_ids of the rows whose figure names would collide with another row's (repeated trials of the same keys)."""
    seen: dict[str, list[int]] = {}
    for r in rows:
        seen.setdefault(figure_id(r, ""), []).append(r["row_id"])
    return {i for ids in seen.values() if len(ids) > 1 for i in ids}


def figures(summary: dict[str, Any], ids: dict[str, tuple[int, str]] | None = None, machine: dict[str, bool] | None = None) -> dict[str, dict[str, Any]]:
    """Every published figure of a result set, and the engine's derived figures, by figure id; `ids` (when given) gets
    each figure's (row_id, metric), `machine` whether it is a machine's number (for the explanation records)."""
    ids = {} if ids is None else ids
    machine = {} if machine is None else machine
    tests = {t["test_id"]: t for t in summary["tests"]}
    agree = {(a["row_id"], a["metric"]): a for a in summary["agreements"]}
    out: dict[str, dict[str, Any]] = {}
    repeated = _repeated(summary["rows"])
    for row in summary["rows"]:
        fid = lambda metric: figure_id(row, metric, row["row_id"] in repeated)  # noqa: E731
        where = ", ".join(x for x in (f"{frame_label(row)}-byte frames" if row.get("frame_size") else frame_label(row), row.get("variant"),
                                       row.get("direction"), row.get("component"), f"port {row['port']}" if row.get("port") else None,
                                       f"{number_style.plain(row['load_pct'])} % load" if row.get("load_pct") is not None else None) if x)
        base = tests[row["test_id"]]["title"]
        for metric, cell in row["cells"].items():
            a = agree.get((row["row_id"], metric))
            ids[fid(metric)] = (row["row_id"], metric)
            machine[fid(metric)] = machine_unit(summary, cell) is not None
            out[fid(metric)] = {"text": number_style.published(cell["text"], cell["qualifier"], machine_unit(summary, cell)), "unit": cell["unit_symbol"], "value": cell["value"],
                                           "label": f"{base}: {metric_label(metric).lower()}" + (f", {where}" if where else ""), "derived": False,
                                           "flag": None if a is None or a["agree"] else f"recomputed {a['recomputed_text']} {a['unit_symbol']}"}
        for metric, fieldname in DERIVED_FIELDS.items():
            if metric == "line_rate" or metric in row["cells"] or row.get(fieldname) is None:
                continue
            value = row[fieldname]
            dim = METRICS[metric].dimension
            unit = number_style.pick_unit(dim, [value])
            shown = value / float(UNITS[unit].factor)
            decimals = derived_decimals(metric, [shown])
            text = qualified.text(shown, qualified.of_derived(row, metric), decimals)
            ids[fid(metric)] = (row["row_id"], metric)
            out[fid(metric)] = {"text": text, "unit": UNITS[unit].symbol, "value": value,
                                           "label": f"{base}: {metric_label(metric).lower()} (derived)" + (f", {where}" if where else ""), "derived": True, "flag": None}
        if row.get("line_rate_fps") is not None:
            unit = number_style.pick_unit("frame_rate", [row["line_rate_fps"]])
            shown = row["line_rate_fps"] / float(UNITS[unit].factor)
            ids[fid("line_rate")] = (row["row_id"], "line_rate")
            out[fid("line_rate")] = {"text": number_style.derived(shown, derived_decimals("line_rate", [shown])), "unit": UNITS[unit].symbol,
                                                "value": row["line_rate_fps"], "label": f"{base}: line rate (derived)" + (f", {where}" if where else ""),
                                                "derived": True, "flag": None}
    return out


def name_figures(tables: Any, cards: list[dict[str, Any]], ids: dict[str, tuple[int, str]]) -> None:
    """Name by figure id what each table cell and card figure prints (its catalog (row_id, metric), the table's
    "sources"): a table gets "figs" (a figure id or None per cell), a card's figure "fig", for the page to say which
    explanation each printed figure has."""
    name = {(int(rid), metric): fid for fid, (rid, metric) in ids.items()}
    for t in tables:
        t["figs"] = [[name.get((c[0], c[1])) if c else None for c in row] for row in t.pop("sources", None) or []]
    for card in cards:
        for f in card["figures"]:
            src = f.pop("source", None)
            f["fig"] = name.get((src[0], src[1])) if src else None


def mark_headlines(figs: dict[str, dict[str, Any]], summary: dict[str, Any], most: int = 4) -> None:
    """Mark the figures cards and the compare view show: per test (at most `most`), the throughput the catalog
    chooses (wirespeed.catalog.headline_choice), its caveats added to its label."""
    repeated = _repeated(summary["rows"])
    for test in summary["meta"]["tests"][:most]:
        h = throughput_headline(summary, test["id"])
        if h is None:
            continue
        fid = figure_id(h.row, "throughput", h.row["row_id"] in repeated)
        if fid in figs:
            figs[fid]["headline"] = True
            if h.caveats:
                figs[fid]["label"] += f" ({'; '.join(h.caveats)})"


def _facets(summary: dict[str, Any], shown: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """The values the results filter offers; vendor and device as the one spelling shown for their group
    (`shown`: lookalikes.display_names per facet), so that the filter groups names by skeleton."""
    meta = summary["meta"]
    shown = shown or {}
    vendor, device = meta["dut"]["vendor"], meta["dut"]["model"]
    rfcs = sorted({r for t in meta["tests"] for r in t["rfc"]})
    speeds = sorted({t["port_speed"] for t in meta["tests"]}, key=lambda s: (not s[0].isdigit(), float(s[:-1]) if s[0].isdigit() else 0, s))
    sizes = sorted({r["frame_size"] for r in summary["rows"] if r.get("frame_size")})
    return {"vendor": shown.get("vendor", {}).get(group_key(vendor), vendor), "device": shown.get("device", {}).get(group_key(device), device), "rfc": rfcs, "port_speed": speeds, "frame_sizes": sizes,
            "year": dates.year(meta["source"].get("published"))}


# The folders of a set's published files and pages (results/<slug>/<folder>/): a test's address is never one of them.
SET_FOLDERS = frozenset({"charts", "comparisons", "data", "explain", "notebooks", "tables"})


def packed_specs(specs: dict[str, Any]) -> dict[str, Any]:
    """A set's compiled Vega specs with what they share said once: {"parts": [each distinct value, once], "charts":
    {chart id: {key: the index of its value in parts, or a list of the indices of its items when it is a list}}}. A
    set's charts repeat their config, axes, scales and marks (half a bundle's bytes); js/charts.js unpacks a chart."""
    parts: list[Any] = []
    index: dict[str, int] = {}

    def part(value: Any) -> int:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
        if text not in index:
            index[text] = len(parts)
            parts.append(value)
        return index[text]

    charts = {cid: {k: [part(item) for item in v] if isinstance(v, list) else part(v) for k, v in sorted(spec.items())}
              for cid, spec in sorted(specs.items())}
    return {"parts": parts, "charts": charts}


def spec_bundle(slug: str, specs: dict[str, Any], dest: Path) -> str:
    """Write a set's compiled Vega specs as one file, charts/specs-<content hash>.json under `dest` (packed_specs), and
    return its name. Every page showing one of the set's live charts fetches this one file (cached by the browser across
    the set's pages; its name changes with its content), and names the chart in its URL's fragment."""
    data = (json.dumps(packed_specs(specs), separators=(",", ":"), ensure_ascii=False, sort_keys=True) + "\n").encode()
    name = f"specs-{hashlib.sha256(data).hexdigest()[:16]}.json"
    atomic.write_bytes(publish.destination(slug, dest, f"charts/{name}"), data)
    return name


def changed_and_trends(con: duckdb.DuckDBPyConnection, slug: str, changes: dict[str, int | None] | None = None,
                       links: dict[str, dict[str, Any]] | None = None) -> tuple[str | None, dict[str, Any]]:
    """A set's own last change (its folder's newest commit, else its files' time: the date of what is built from it) and
    the trend pages it links (the series it is a point of, its device's page). `changes` and `links`: every set's last
    change and trend links, asked at once (last_changes, all_set_links), where the caller has them."""
    when = changes[slug] if changes is not None and slug in changes else lastchange.last_change(Path(meta_path(con, slug)))
    return lastchange.iso(when), (links.get(slug, {}) if links is not None else trend_pages.set_links(con, slug))


def export_set(con: duckdb.DuckDBPyConnection, slug: str, analysis_root: Path, static_root: Path, published: set[str] | None = None,
               shown: dict[str, dict[str, str]] | None = None, known: tuple[str | None, dict[str, Any]] | None = None,
               summary: dict[str, Any] | None = None) -> dict[str, Any]:
    """The site data of one result set; copies its files under static_root/results/<slug>/. A comparison it declares
    with other sets may name only sets in `published` (default: the catalog's published sets). `known`: the set's
    changed_and_trends(), `summary`: its set_summary(), when the caller has them."""
    publish.check_slug(slug)
    summary = summary if summary is not None else set_summary(con, slug)
    meta = summary["meta"]
    index_path = analysis_root / slug / "index.json"
    if not index_path.is_file():
        raise SiteError(f"{slug}: no analysis outputs ({index_path}); run wirespeed analyse first")
    index = json.loads(index_path.read_text())
    url = f"results/{slug}"  # relative to the site root: the templates resolve it under the base URL
    dest = static_root / "results" / slug
    outputs = analysis_root / slug

    def _copy(rel: str, dest_rel: str) -> None:  # an analysis output, both ends checked like a set file
        publish.copy_contained(slug, outputs, rel, dest, dest_rel)

    tables, charts = {}, {}
    for tid, entry in index["tables"].items():
        t = json.loads(publish.source_file(slug, outputs, entry["json"]).read_text())
        _copy(entry["json"], f"tables/{tid}.json")
        _copy(entry["csv"], f"tables/{tid}.csv")
        tables[tid] = {**t, "csv": f"{url}/tables/{tid}.csv", "json": f"{url}/tables/{tid}.json", "notebook": entry["notebook"]}
    live: dict[str, Any] = {}  # chart id → its compiled Vega spec, for the set's one spec bundle
    for cid, entry in index["charts"].items():
        for kind, ext in (("spec", ".vl.json"), ("svg", ".svg")):
            if kind in entry:
                _copy(entry[kind], f"charts/{cid}{ext}")
        charts[cid] = {"id": cid, "title": entry["title"], "caption": entry["caption"], "alt": entry["alt"], "test": entry.get("test"),
                       "spec": f"{url}/charts/{cid}.vl.json", "svg": f"{url}/charts/{cid}.svg"}  # the report draws its PDF from the SVG
        if "vega" in entry:  # outputs written since issue 14
            live[cid] = json.loads(publish.source_file(slug, outputs, entry["vega"]).read_text())
        if entry.get("table"):  # its data behind the "Data as table" toggle, rendered once here
            charts[cid]["table_html"] = table_html.chart_data(entry["title"], entry["table"])
        if entry.get("role"):
            charts[cid]["role"] = entry["role"]
    if live:
        bundle = spec_bundle(slug, live, dest)
        for cid in live:
            charts[cid]["vega"] = f"{url}/charts/{bundle}#{quote(cid, safe='')}"
    downloads = []
    for nb in index["notebooks"]:  # the executed copy, a download; the notebook's page is the site's (notebook_pages)
        _copy(nb["ipynb"], f"notebooks/{nb['name']}.ipynb")
        atomic.write_text(publish.destination(slug, dest, f"notebooks/{nb['name']}.html"), notebook_pages.moved(nb["name"]))  # its old address
        downloads.append({"title": f"Executed analysis notebook “{nb['name']}”, with this set's outputs", "url": f"{url}/notebooks/{nb['name']}.ipynb"})
    file_urls: dict[str, str] = {}  # a set file's path → its download, for the explanations' input rows
    attached = {a["path"]: a["title"] for a in meta.get("files", {}).get("attachments", []) if isinstance(a, dict) and a.get("title")}
    for path, role in con.execute("SELECT path, role FROM files WHERE slug = ? ORDER BY role = 'metadata' DESC, path", [slug]).fetchall():
        name = publish.publish_set_file(slug, Path(meta_path(con, slug)), path, dest, role)
        file_urls[path] = f"{url}/data/{name}"
        downloads.insert(0, {"title": dl.role_title(role, path, attached), "url": f"{url}/data/{name}"})
    parquet = publish.destination(slug, dest, f"data/{slug}-measurements.parquet")
    parquet.parent.mkdir(parents=True, exist_ok=True)
    con.execute(f"COPY (SELECT * FROM measurements WHERE slug = '{slug}' ORDER BY row_id) TO '{parquet.as_posix()}' (FORMAT parquet)")  # slug and path checked above
    downloads.insert(0, {"title": "All measurements in canonical units", "url": f"{url}/data/{parquet.name}"})
    downloads.insert(0, {"title": "Test report", "url": f"reports/{slug}.pdf"})
    downloads = dl.label(downloads, static_root)
    per_test_tables: dict[str, list[str]] = {}
    per_test_charts: dict[str, list[str]] = {}
    for tid, t in tables.items():
        if t.get("test"):
            per_test_tables.setdefault(t["test"], []).append(tid)
    overview = [cid for cid, c in charts.items() if c.get("role") == "overview"]  # the set page's small multiples, in test order
    summary_chart = next((cid for cid, c in charts.items() if c.get("role") == "summary"), None)  # every test on one scale
    for cid, c in charts.items():
        if c.get("test") and cid not in overview:
            per_test_charts.setdefault(c["test"], []).append(cid)
    tests = []
    for t in meta["tests"]:
        method = merged(meta.get("methodology"), t.get("methodology"))
        tests.append({**{k: v for k, v in t.items() if k != "methodology"}, "methodology": method, "methodology_rows": methodology.rows(method),
                      "tables": per_test_tables.get(t["id"], []), "charts": per_test_charts.get(t["id"], [])})
    if len(tests) == 1 and tests[0]["id"] not in SET_FOLDERS:  # its test's page would repeat the set page
        only = tests[0]  # (content/results/_content.gotmpl makes none): the page's address forwards to the set page's section
        atomic.write_text(publish.destination(slug, dest, f"{only['id']}/index.html"), moved.page(
            f"../#{quote(only['id'], safe='')}", only["title"],
            f'This test is on its result set\'s page: <a href="../#{escape(quote(only["id"], safe=""))}">{escape(only["title"])}</a>.'))
    comparisons = [{**c, "table": c["id"] if c["id"] in tables else None, "chart": f"{c['id']}-chart" if f"{c['id']}-chart" in charts else None}
                   for c in meta.get("comparisons", [])]
    unavailable: dict[str, str] = {}  # item id → why it is not made (a comparison with a set that is not published)
    if meta.get("set_comparisons"):
        if published is None:
            published = set(tally.published(con))
        across, dropped = set_comparisons.make(con, slug, meta, dest, published)
        for cid, reason in dropped:
            unavailable[cid] = unavailable[f"{cid}-chart"] = reason
        for c in across:
            tables[c["table"]] = {**json.loads((dest / "tables" / f"{c['table']}.json").read_text()), "csv": f"{url}/tables/{c['table']}.csv",
                                  "json": f"{url}/tables/{c['table']}.json", "notebook": None}
            if c["chart"]:
                cid = c["chart"]
                charts[cid] = {"id": cid, "title": c["title"], "caption": tables[c["table"]]["caption"], "alt": json.loads((dest / "charts" / f"{cid}.vl.json").read_text())["description"],
                               "test": None, "spec": f"{url}/charts/{cid}.vl.json", "svg": f"{url}/charts/{cid}.svg"}
        comparisons += across
    mism = [{"test": a["test_id"], "where": a["where"], "metric": a["metric"], "published": a["published"],
             "recomputed": f"{a['recomputed_text']} {a['unit_symbol']}", "note": a["basis"]} for a in summary["agreements"] if not a["agree"]]
    errata = [{"test": e["test"], "check": e["check"], "note": e["note"]} for e in meta.get("errata", [])]
    # the item lists, exported once and printed as they are by the web page and the PDF: each test's own
    # (tests[].tables/charts), the comparisons', and the loose ones that belong to neither
    compared = {c.get("table") for c in comparisons} | {c.get("chart") for c in comparisons}
    unassigned_tables = [tid for tid, t in tables.items() if not t.get("test") and tid not in compared]
    unassigned_charts = [cid for cid, c in charts.items() if not c.get("test") and cid not in overview and cid != summary_chart and cid not in compared]
    for t in tables.values():  # whole, split by metric or transposed: the web page and the PDF print the same layout
        t["layout"] = table_layout(t["columns"], t["rows"])
    instrument = {**meta["instrument"], "name": devicename.full(meta["instrument"]["vendor"], meta["instrument"]["product"])}  # named once
    bed = {"slug": slug, "dut": meta["dut"], "instrument": instrument, "tests": meta["tests"]}
    drawn = diagrams.render(bed, dest)  # the test-bed diagram: the page's SVG, the report's PDF
    ids: dict[str, tuple[int, str]] = {}
    machine: dict[str, bool] = {}
    figs = figures(summary, ids, machine)
    mark_headlines(figs, summary)
    records = explain.records(con, summary, figs, ids, file_urls, tables, explain.notebook_cells(outputs, index), url, machine)
    atomic.write_text(dest / "explain.json", json.dumps(records, ensure_ascii=False, sort_keys=True) + "\n")
    atomic.write_text(dest / "explain.html", explain_page.render(records))  # the page's body, rendered once here
    cards = headlines(summary, samples(con, slug))
    name_figures(tables.values(), cards, ids)
    for t in tables.values():  # the web table, rendered once here (layouts/_partials/result-table.html prints it)
        t["html"] = table_html.render(slug, t)
    preview.render({"title": meta["title"], "dut": meta["dut"], "headlines": cards}, dest / "preview.png", analysis_root.parent / "previews")
    changed, trends = known if known is not None else changed_and_trends(con, slug)
    return {
        "slug": slug, "title": meta["title"], "summary": meta.get("summary", ""), "status": meta["status"],
        "date": meta["source"].get("published") or "", "date_text": dates.text(meta["source"].get("published")),
        "changed": changed,  # the set's own last change: the date of what is built from it
        "year": dates.year(meta["source"].get("published")), "licence": meta["licence"],
        "tags": meta.get("tags", []), "source": meta["source"], "campaign": meta.get("campaign", {}), "dut": meta["dut"],
        "instrument": instrument,
        "device": {"name": devicename.full(meta["dut"]["vendor"], meta["dut"]["model"]), "short": devicename.short(meta["dut"]["vendor"], meta["dut"]["model"])},
        "peak": peak(summary),  # the highest L1 throughput: how the home page ranks the largest devices
        "testbed_rows": testbed.rows(meta["dut"], meta["instrument"], meta.get("campaign")),
        "testbed_diagram": {"svg": f"{url}/{drawn['svg']}", "pdf": f"{url}/{drawn['pdf']}", "alt": diagram_alt(bed)},
        "versions": testbed.versions(meta["dut"], meta["instrument"]),
        "methodology": meta.get("methodology", {}), "facets": _facets(summary, shown),
        # the set's methodology at a glance (a one-test set may keep its whole method in the test), printed by the PDF
        "methodology_rows": methodology.rows(meta.get("methodology") or (tests[0]["methodology"] if len(tests) == 1 else {})), "tests": tests, "tables": tables, "charts": charts, "overview": overview, "summary_chart": summary_chart,
        "other_tables": unassigned_tables, "other_charts": unassigned_charts,
        "figures": figs, "headlines": cards, "preview": f"{url}/preview.png", "comparisons": comparisons,
        "consistency": {"checked": len(summary["agreements"]), "agree": len(summary["agreements"]) - len(mism), "mismatches": mism, "errata": errata},
        "downloads": downloads, "unavailable": unavailable, "trends": trends,
    }


_EXECUTED = re.compile(r"^results/[^/]+/notebooks/([^/]+)\.ipynb$")


def notebooks_of(data: dict[str, Any]) -> set[str]:
    """The notebooks a set's site data names an executed copy of (its downloads)."""
    return {m[1] for d in data.get("downloads", []) if (m := _EXECUTED.match(str(d.get("url", ""))))}


def meta_path(con: duckdb.DuckDBPyConnection, slug: str) -> str:
    return con.execute("SELECT path FROM result_sets WHERE slug = ?", [slug]).fetchone()[0]


def export(catalog: Path, analysis_root: Path = paths.ANALYSIS, data_root: Path = HUGO_DATA, static_root: Path = SITE_STATIC,
           refused: list[str] | None = None, leave_out: tuple[str, ...] = ("analyse",), exclude: dict[str, dict[str, str]] | None = None,
           items: list[str] | None = None, only: set[str] | None = None) -> list[str]:
    """Write the site data and files of every published result set; returns the slugs exported.

    A set with a file that may not be published (wirespeed.resultset.publish) is left out whole; its one-line
    reason is appended to `refused` (raised as SiteError when no list is given). So is a set whose
    step in `leave_out` failed (wirespeed.pipeline.status), whose export fails (its traceback kept in a
    log) or that `exclude` names (slug → the failure to record for its site step, e.g. the Hugo build
    failing with it). The others are exported. A comparison with a set that is not exported is left out
    of the declaring set (one line in `items`), which is still published: the export is redone until
    no exported set compares with one that is not.

    `only` (a shard's sets, wirespeed/shards.py): export only these, with every other published set taken
    as on the site, as in the whole build they would be."""
    exclude = exclude or {}
    status_root = analysis_root.parent / "status"
    if not Path(catalog).is_file():
        raise SiteError(f"{catalog}: no catalog yet: run wirespeed ingest, then wirespeed analyse (wirespeed build runs every step)")
    con = duckdb.connect(str(catalog), read_only=True)
    try:
        candidates = [s for (s,) in con.execute("SELECT slug FROM published_sets ORDER BY published DESC, slug").fetchall()]
        allowed = {s for s in candidates if s not in exclude and not setstatus.failed_steps(s, leave_out, status_root)}
        failed: dict[str, str] = {}  # the sets whose export failed, in any round, and their lines
        while True:
            lines: list[str] = []
            slugs, unavailable = _export_all(con, candidates, allowed, analysis_root, data_root, static_root, lines, leave_out, exclude,
                                             failed, strict=refused is None, only=only)
            if set(slugs) == (allowed if only is None else allowed & only):
                break
            allowed = set(slugs)  # a set failed its export: redo the others, whose comparisons may name it
        if refused is not None:
            refused += lines
        if items is not None:
            items += [f"{slug}: {item} left out of the site: {reason}" for slug in slugs
                      for item, reason in unavailable.get(slug, {}).items() if not item.endswith("-chart")]
    finally:
        con.close()
    return slugs


def _export_all(con: duckdb.DuckDBPyConnection, candidates: list[str], allowed: set[str], analysis_root: Path, data_root: Path, static_root: Path,
                refused: list[str], leave_out: tuple[str, ...], exclude: dict[str, dict[str, str]], failed: dict[str, str],
                strict: bool = False, only: set[str] | None = None) -> tuple[list[str], dict[str, dict[str, str]]]:
    """One export of every candidate into temporary folders swapped in at the end; the slugs exported and their
    unavailable items. `strict`: the first set left out raises SiteError and nothing is swapped in."""
    status_root = analysis_root.parent / "status"
    slugs: list[str] = []
    notebooks: set[str] = set()  # the notebooks the exported sets ran
    entries: list[dict] = []
    indexed: dict[str, dict] = {}  # slug → its entry in the compact index the lists read (wirespeed/site/setindex.py)
    unavailable: dict[str, dict[str, str]] = {}
    data_tmp = atomic.temp_dir_beside(data_root)
    static_tmp = atomic.temp_dir_beside(static_root)
    try:
        sets_dir = data_tmp / "wirespeed" / "sets"
        sets_dir.mkdir(parents=True)
        names = con.execute("SELECT dut_vendor, dut_model, published, slug FROM published_sets").fetchall()
        shown = {"vendor": display_names([(v, p, s) for v, _m, p, s in names if v]), "device": display_names([(m, p, s) for _v, m, p, s in names if m])}
        # the last export's memory (exportcache.py): a set whose inputs are unchanged is taken from it (not for a shard)
        build = analysis_root.parent
        remembered = exportcache.Memory(build) if only is None else None
        context = exportcache.context() if remembered is not None else ""
        entries_now: dict[str, exportcache.Entry] = {}
        wanted = set(candidates)
        folders = {s: Path(p) for s, p in con.execute("SELECT slug, path FROM result_sets").fetchall() if s in wanted}
        times = lastchange.last_changes(list(folders.values()))  # git asked once for every set, not twice per set
        changes = {s: times[f] for s, f in folders.items()}
        links = trend_pages.all_set_links(con, candidates)  # one query for every set's trend links
        for slug in candidates:
            if only is not None and slug not in only:
                continue
            if slug in exclude:
                setstatus.record(slug, "site", exclude[slug], status_root)
                refused.append(setstatus.line(slug, "site", exclude[slug]))
                continue
            if bad := setstatus.failed_steps(slug, leave_out, status_root):
                refused.append(f"{slug}: left out of the site: its {' and '.join(bad)} step failed (wirespeed summary shows it)")
                continue
            if slug not in allowed:
                refused.append(failed[slug])  # its export failed in an earlier round
                continue
            set_key = text = None
            analysis_files: dict[str, list] = {}
            try:
                known = changed_and_trends(con, slug, changes, links)
                if remembered is not None and publish.SAFE_SLUG.match(slug):  # the slug names files of the memory: checked first
                    last = remembered.get(slug)
                    set_key, analysis_files = exportcache.set_key(con, context, slug, analysis_root / slug, known, shown, allowed,
                                                                  last.analysis if last is not None else None)
                    kept = remembered.take(slug, set_key, data_root / "wirespeed" / "sets" / f"{slug}.json", static_root, static_tmp, last)
                    if kept is not None:
                        text, compared = kept
                        data = json.loads(text)
                if text is None:
                    summary = set_summary(con, slug)  # read once for the set's data and its compare rows
                    data = export_set(con, slug, analysis_root, static_tmp, allowed, shown, known, summary)
                    compared = compare_data.set_entries(con, slug, f"results/{slug}/", summary)  # the compare page's rows, made set by set: one set's fail alone
            except publish.PublishRefused as exc:
                refused.append(failed.setdefault(slug, f"{exc} (result set {slug} not published)"))
                setstatus.record(slug, "site", {"what": "publishing its files (wirespeed/resultset/publish.py)", "cause": str(exc).removeprefix(f"{slug}: "),
                                                "log": str(setstatus.write_log(slug, "site", "publish", str(exc), analysis_root.parent / "logs"))}, status_root)
                if publish.SAFE_SLUG.match(slug):
                    shutil.rmtree(static_tmp / "results" / slug, ignore_errors=True)
                continue
            except Exception as exc:  # noqa: BLE001 - one set's export fails alone; the others are still published
                cause = str(exc) if isinstance(exc, SiteError) else f"{type(exc).__name__}: {exc}"
                failure = {"what": "exporting its site data (wirespeed/site/data.py)", "cause": cause,
                           "log": str(setstatus.write_log(slug, "site", "export", traceback.format_exc(), analysis_root.parent / "logs"))}
                setstatus.record(slug, "site", failure, status_root)
                refused.append(failed.setdefault(slug, setstatus.line(slug, "site", failure)))
                if publish.SAFE_SLUG.match(slug):
                    shutil.rmtree(static_tmp / "results" / slug, ignore_errors=True)
                continue
            try:
                if text is None:  # a remembered set's data was checked when it was written, and is read back unchanged
                    setdata.check(data, f"site data of {slug}")
            except setdata.SetDataError as exc:
                failure = {"what": "exporting its site data (wirespeed/site/setdata.py: the site data's schema)", "cause": str(exc),
                           "log": str(setstatus.write_log(slug, "site", "export", str(exc), analysis_root.parent / "logs"))}
                setstatus.record(slug, "site", failure, status_root)
                refused.append(failed.setdefault(slug, setstatus.line(slug, "site", failure)))
                if publish.SAFE_SLUG.match(slug):
                    shutil.rmtree(static_tmp / "results" / slug, ignore_errors=True)
                continue
            setstatus.record(slug, "site", None, status_root)
            slugs.append(slug)
            notebooks |= notebooks_of(data)
            entries += compared
            unavailable[slug] = data["unavailable"]
            indexed[slug] = setindex.entry(data)
            if text is None:
                text = json.dumps(data, ensure_ascii=False, default=str) + "\n"
            (sets_dir / f"{slug}.json").write_text(text, encoding="utf-8")
            if set_key is not None:
                entries_now[slug] = exportcache.entry(set_key, text, static_tmp / "results" / slug, compared, analysis_files)
        if strict and refused:
            raise SiteError(refused[0])
        compare_data.write(con, slugs, static_tmp, entries)  # the compare page: the sets just exported, nothing else
        for line in trend_pages.export(con, slugs, data_tmp, static_tmp):  # the trend pages and their charts
            if strict:
                raise SiteError(line)
            refused.append(line)
        # one page per notebook an exported set ran (the sets' downloads name their executed copies)
        sources = [paths.NOTEBOOKS / f"{name}.py" for name in sorted(notebooks)]
        notebook_pages.write_pages([p for p in sources if p.is_file()], static_tmp, build / paths.NOTEBOOK_PAGES.relative_to(paths.BUILD))
        archive.export(con, static_tmp / "archive", slugs)  # the Parquet archive of the sets exported and the trends
        setindex.write(indexed, data_tmp / "wirespeed" / "index.json")
        duck = con.execute("SELECT value FROM catalog_info WHERE key = 'duckdb_version'").fetchone()
        (data_tmp / "wirespeed" / "build.json").write_text(json.dumps({"wirespeed": wirespeed.__version__, "duckdb": duck[0] if duck else None,
                                                                       "sets": slugs}) + "\n", encoding="utf-8")
        exportcache.forget(build)  # until the new output is in place, the memory describes neither (a shard's none at all)
        atomic.swap_dir(data_tmp, data_root)
        atomic.swap_dir(static_tmp, static_root)
        if only is None:
            exportcache.save(build, entries_now)
    finally:
        for tmp in (data_tmp, static_tmp):
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    return slugs, unavailable
