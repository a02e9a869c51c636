"""The trend pages' data: for every series of the catalog (catalog/trend.py), its chart (rendered once and
kept in build/trends/ while its definition, code and tools are unchanged), its sentences and its points,
and one compact index of devices, series and changes, newest first. Written by the site-data step:
Hugo data under wirespeed/trends/ (index.json, series/<device>/<series>.json) and files under
trends/<device>/<series>/ (the chart, the points as CSV) and trends/changes.csv.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import duckdb

from wirespeed.catalog import trend as catalog_trend
from wirespeed.engine.columns import METRICS
from wirespeed.engine import dates
from wirespeed.presentation import trend_chart, trend_text
from wirespeed.pipeline import paths, runner
from wirespeed.system import atomic, csvsafe
from wirespeed.system.codehash import code_closure, package_versions

OUT = paths.TRENDS
CHART = "trend"  # each series' one chart: trends/<device>/<series>/trend.svg, …
CHART_FILES = (("spec", ".vl.json"), ("svg", ".svg"), ("vega", ".vg.json"))  # the trend report draws its PDF from the SVG (report/chart_pdf.py)
POINTS_SHOWN = 60
"""Result sets a series page lists (newest first); every one is in the series' CSV."""
CHANGES_SHOWN = 200
"""Changes the trends page lists (newest first); every one is in trends/changes.csv."""


@dataclass
class ChartJob(runner.Job):
    """One series' chart: its definition, rendered into out (charts/trend.*) with manifest.json beside."""

    out: Path
    definition: dict[str, Any]

    @property
    def manifest(self) -> Path:
        return self.out / "manifest.json"

    @property
    def outputs(self) -> tuple[Path, ...]:
        return tuple(self.out / "charts" / f"{CHART}{ext}" for _, ext in CHART_FILES)


def _tools() -> dict[str, str | None]:
    return package_versions("altair", "vl-convert-python")  # altair's release fixes its Vega-Lite schema


def render(job: ChartJob) -> dict[str, Any]:
    """Render one chart: Vega-Lite, SVG and Vega, then the manifest."""
    from wirespeed.analysis.outputs import Outputs

    try:
        shutil.rmtree(job.out / "charts", ignore_errors=True)
        Outputs(job.out, job.slug).chart(job.definition)
        atomic.write_text(job.manifest, job.manifest_text())
        return {"ok": True}
    except Exception as exc:  # noqa: BLE001 - one chart fails alone, named; the others are still rendered
        return {"ok": False, "error": f"trend series {job.slug}: its chart could not be rendered: {type(exc).__name__}: {exc}"}


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(csvsafe.neutralise_row(header))
    for r in rows:
        w.writerow(csvsafe.neutralise_row(["" if v is None else str(v) for v in r]))
    return buf.getvalue()


def series_page(detail: dict[str, Any], sets_url: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any], str]:
    """(the series page's data, its chart definition, its points as CSV) of one series."""
    sid = detail["series"]
    device, name = sid.split("/")
    (sym, factor), dec = trend_chart.shown(detail)
    num = lambda v: trend_text.number(v, factor, dec)  # noqa: E731
    points = detail["points"]
    by_pos = {p["position"]: p for p in points}
    changes = [{"kind": c["kind"], "position": c["position"] + 1, "slug": c["slug"], "set_url": sets_url.get(c["slug"]),
                "date": c["date"] or "", "relative": trend_text.percent(c["relative"]), "confidence": trend_text.confidence(c["confidence"]),
                "sentence": trend_text.change_sentence(detail, c, by_pos[c["position"]], (sym, factor), dec)} for c in detail["changes"]]
    url = f"trends/{sid}"
    rows = [[p["position"] + 1, p["title"], sets_url.get(p["slug"]), p["version"] or "", dates.text(p["date"]) if p["date"] else "undated",
             len(p["trials"]), num(p["mean"]), f"{num(min(p['trials']))} – {num(max(p['trials']))}", num(p["trend"]), p["anomaly"] or ""]
            for p in reversed(points)]
    csv_text = _csv(["position", "result set", "version", "date", "trials", f"mean ({sym})", f"trials ({sym})", f"group mean ({sym})", "change"],
                    [[p["position"] + 1, p["slug"], p["version"] or "", p["date"] or "", len(p["trials"]), num(p["mean"]),
                      " ".join(num(t) for t in p["trials"]), num(p["trend"]), p["anomaly"] or ""] for p in points])
    defn = trend_chart.definition(detail, CHART)
    page = {"id": sid, "device": device, "name": name, "device_name": trend_text.device_name(detail["dut_vendor"], detail["dut_model"]),
            "title": trend_text.title(detail), "test_title": detail["test_title"], "figure": trend_text.figure_name(detail),
            "metric": METRICS[detail["metric"]].label, "unit": sym, "better": detail["better"], "ordered_by": detail["ordered_by"],
            "components": list(detail["components"] or []), "sets": detail["sets"], "trials": detail["trials"],
            "noise": trend_text.percent(detail["noise"], signed=False), "limits": trend_text.limits_sentence(detail), "changes": changes,
            "groups": len(detail["groups"]), "latest": {"text": f"{num(points[-1]['mean'])} {sym}", "slug": points[-1]["slug"],
                                                          "date": dates.text(points[-1]["date"]) if points[-1]["date"] else "undated"},
            "newest_date": max((p["date"] for p in points if p["date"]), default=None),
            "points": rows[:POINTS_SHOWN], "points_total": len(rows), "csv": f"{url}/points.csv",
            "chart": {"id": CHART, "title": defn["title"], "caption": defn["caption"], "alt": defn["alt"],
                      **{kind: f"{url}/{CHART}{ext}" for kind, ext in CHART_FILES}}}
    return page, defn, csv_text


def _change_key(c: dict[str, Any]) -> tuple:
    return (c["date"] != "", c["date"], c["series"], c["position"])


def export(con: duckdb.DuckDBPyConnection, exported: list[str], data_root: Path, static_root: Path, out: Path = OUT,
           progress: Callable[[Any, int, int], None] | None = None) -> list[str]:
    """Write the trend data and files (series pages, index, changes) into data_root and static_root (both being
    built by the site-data step); charts are rendered into `out` where stale. Returns one line per chart that failed."""
    sets_url = {s: f"results/{s}" for s in exported}
    pages, charts = [], []
    code = code_closure("import wirespeed.presentation.trend_chart\nimport wirespeed.analysis.outputs")
    tools = _tools()
    for row in catalog_trend.series_list(con):
        detail = catalog_trend.series_detail(con, row["series"])
        page, defn, csv_text = series_page(detail, sets_url)
        components = {"definition": hashlib.sha256(json.dumps(defn, sort_keys=True).encode()).hexdigest(), "code": code, "tools": tools}
        charts.append(ChartJob(page["id"], runner.digest(components), components, out / "series" / page["id"], defn))
        pages.append((page, csv_text))
    todo, _fresh = runner.split(charts)
    # in this process, one after the other: vl-convert's runtime, started in this process already (the sets'
    # link-preview images), does not survive a fork into the step runner's workers
    results = []
    for i, job in enumerate(todo, 1):
        results.append((job, render(job)))
        if progress:
            progress(job, i, len(todo))
    bad = {job.slug for job, res in results if not res["ok"]}
    runner.prune(runner.stale(out / "series", {p["device"] for p, _ in pages}, dirs=True))  # series no longer in the catalog
    for d in sorted((out / "series").iterdir()) if (out / "series").is_dir() else []:
        runner.prune(runner.stale(d, {p["name"] for p, _ in pages if p["device"] == d.name}, dirs=True))
    devices: dict[str, dict[str, Any]] = {}
    changes = []
    for page, csv_text in pages:
        if page["id"] in bad:
            continue
        dest = static_root / "trends" / page["id"]
        dest.mkdir(parents=True, exist_ok=True)
        for _, ext in CHART_FILES:
            shutil.copyfile(out / "series" / page["id"] / "charts" / f"{CHART}{ext}", dest / f"{CHART}{ext}")
        (dest / "points.csv").write_text(csv_text, encoding="utf-8")
        target = data_root / "wirespeed" / "trends" / "series" / page["device"] / f"{page['name']}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(page, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        found = [c for c in page["changes"] if c["kind"] != "testbed"]
        dev = devices.setdefault(page["device"], {"id": page["device"], "name": page["device_name"], "series": []})
        dev["series"].append({"id": page["id"], "name": page["name"], "title": page["title"], "test_title": page["test_title"], "figure": page["figure"],
                              "sets": page["sets"], "latest": page["latest"]["text"], "changes": len(found),
                              "last_change": f"{found[-1]['kind']} {found[-1]['relative']}" if found else ""})
        for c in found:
            changes.append({"series": page["id"], "device_name": page["device_name"], "title": page["title"], "position": c["position"],
                            "kind": c["kind"], "relative": c["relative"], "confidence": c["confidence"], "date": c["date"],
                            "date_text": dates.text(c["date"]) if c["date"] else "undated", "slug": c["slug"], "set_url": c["set_url"],
                            "sentence": c["sentence"]})
    changes.sort(key=_change_key, reverse=True)
    base = static_root / "trends"
    base.mkdir(parents=True, exist_ok=True)
    (base / "changes.csv").write_text(_csv(["date", "device", "series", "change", "relative", "confidence", "result set", "sentence"],
                                           [[c["date"], c["device_name"], c["title"], c["kind"], c["relative"], c["confidence"], c["slug"], c["sentence"]]
                                            for c in changes]), encoding="utf-8")
    index = {"devices": sorted(devices.values(), key=lambda d: d["name"].lower()), "changes": changes[:CHANGES_SHOWN], "changes_total": len(changes),
             "series_total": sum(len(d["series"]) for d in devices.values()), "changes_csv": "trends/changes.csv"}
    target = data_root / "wirespeed" / "trends" / "index.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    return runner.errors(results)


def set_links(con: duckdb.DuckDBPyConnection, slug: str) -> dict[str, Any]:
    """What a result set's page links: the series it is a point of (title and URL) and its device's trend page."""
    return all_set_links(con, [slug]).get(slug, {})


def all_set_links(con: duckdb.DuckDBPyConnection, slugs: list[str]) -> dict[str, dict[str, Any]]:
    """set_links of every set in `slugs` that is a point of a series (the others have none), in one query: a query per
    set and per series took 18 ms a set, three minutes an export at 10,000 sets."""
    rel = con.execute("SELECT p.slug AS point_slug, t.* FROM (SELECT DISTINCT slug, series FROM trend_points WHERE slug IN (SELECT unnest(?::VARCHAR[]))) p"
                      " JOIN trend_series t USING (series) ORDER BY p.slug, t.series", [list(slugs)])
    cols = [d[0] for d in rel.description]
    rows = rel.fetchall()
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        s = dict(zip(cols, row))
        links = out.setdefault(s.pop("point_slug"), {"series": [], "device": None})
        links["series"].append({"title": trend_text.title(s), "url": f"trends/{s['series']}"})
        links["device"] = {"name": trend_text.device_name(s["dut_vendor"], s["dut_model"]), "url": f"trends/{s['device']}"}
    return out
