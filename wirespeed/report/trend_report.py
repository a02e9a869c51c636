"""The PDF trend report (build/trends/trends.pdf, published as /trends/trends.pdf): every regression and
progression across the archive, newest first, then per device each series' chart, its changes and what it
could not have detected, printed from the same exported trend data as the trend pages (site/trend_pages.py) and
typeset by the report pipeline (report/typesetting.py: one template, the same filters). Rebuilt only when the
trend data, the charts' drawings, the template, the code, the tools or the build stamp change; its date is the
newest result set's in any series, never the clock.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import traceback
from pathlib import Path
from typing import Any

from wirespeed.engine import dates
from wirespeed.pipeline import paths, runner, status as setstatus
from wirespeed.report import chart_pdf, links as reportlinks, pandoc_ast as A
from wirespeed.site import trend_pages
from wirespeed.system import atomic
from wirespeed.system.codehash import code_closure

OUT = paths.TRENDS / "trends.pdf"
NAME = "trends"  # the report's name in logs and `why`


class TrendReportJob(runner.Job):
    """The one trend report: out, with trends.manifest.json beside it."""

    def __init__(self, key: str, components: dict[str, Any], data_root: Path, static_root: Path, out: Path):
        super().__init__(NAME, key, components)
        self.data_root, self.static_root, self.out = data_root, static_root, out

    @property
    def manifest(self) -> Path:
        return self.out.with_name("trends.manifest.json")

    @property
    def outputs(self) -> tuple[Path, ...]:
        return (self.out,)


def _series(data_root: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The exported index and every series' page data, in the index's order (devices by name, series by id)."""
    trends = data_root / "wirespeed" / "trends"
    index = json.loads((trends / "index.json").read_text(encoding="utf-8"))
    pages = [json.loads((trends / "series" / f"{s['id']}.json").read_text(encoding="utf-8")) for d in index["devices"] for s in d["series"]]
    return index, pages


def plan(data_root: Path = paths.HUGO_DATA, static_root: Path = paths.SITE_STATIC, out: Path = OUT, base_url: str | None = None) -> TrendReportJob | None:
    """The trend report's job (None when there is no trend series to report)."""
    from wirespeed.report.typesetting import TEMPLATE_ROOT, _tool_versions, _tree_hash

    index_file = data_root / "wirespeed" / "trends" / "index.json"
    if not index_file.is_file() or not json.loads(index_file.read_text(encoding="utf-8"))["devices"]:
        return None
    _index, pages = _series(data_root)
    files = {"index.json": index_file}
    for p in pages:
        files[f"{p['id']}.json"] = data_root / "wirespeed" / "trends" / "series" / f"{p['id']}.json"
        files[f"{p['id']}.svg"] = static_root / "trends" / p["id"] / f"{trend_pages.CHART}.svg"  # its PDF is drawn from it (chart_pdf)
    components = {"data": {name: hashlib.sha256(f.read_bytes()).hexdigest() for name, f in sorted(files.items())},
                  "template": _tree_hash(TEMPLATE_ROOT), "code": code_closure("import wirespeed.report.trend_report"), "tools": _tool_versions(),
                  "chart_pdf": chart_pdf.code_key(),
                  "build": reportlinks.stamp(base_url)}
    return TrendReportJob(runner.digest(components), components, data_root, static_root, out)


def _date(pages: list[dict[str, Any]]) -> str | None:
    """The report's date: the newest date of any result set in any series."""
    found = [p["newest_date"] for p in pages if p.get("newest_date")]
    return max(found) if found else None


def _changes_table(index: dict[str, Any]) -> list[dict[str, Any]]:
    head = [[("Date", "AlignLeft", 1, 1), ("Device", "AlignLeft", 1, 1), ("Series", "AlignLeft", 1, 1), ("Change", "AlignLeft", 1, 1),
             ("Confidence", "AlignRight", 1, 1), ("Result set", "AlignLeft", 1, 1)]]
    rows = [[(c["date_text"], "AlignLeft"), (c["device_name"], "AlignLeft"), (c["title"], "AlignLeft"), (f"{c['kind']} {c['relative']}", "AlignLeft"),
             (c["confidence"], "AlignRight"), (c["slug"], "AlignLeft")] for c in index["changes"]]
    shown = "" if index["changes_total"] == len(index["changes"]) else f" The {len(index['changes'])} newest of {index['changes_total']}; every one is in trends/changes.csv."
    return [A.table(A.inlines("Regressions and progressions across the archive, newest first." + shown), head, rows, ["AlignLeft"] * 4 + ["AlignRight", "AlignLeft"],
                    short="Regressions and progressions, newest first", widths=[0.13, 0.16, 0.33, 0.14, 0.1, 0.14])]


def blocks(index: dict[str, Any], pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The report's body: how trends are found, the changes, then per device each series."""
    out = [A.header(1, "How the trends are found"),
           A.para("A trend series is one figure of one device (a test, a frame size, a load, a direction, a variant and a metric) across every published "
                  "result set that measured it, ordered by the device's software version, compared version-aware, or by date where the sets name no "
                  "common software. Every trial goes into FD.io CSIT's jumpavg, which splits the series into groups of normally distributed trials by "
                  "minimum description length; a group whose mean is worse than the one before starts a regression, a better one a progression. "
                  "A series is cut where the test bed changed, and the two sides are not compared. A change's confidence follows from the bits the "
                  "split saves: the split is 2^bits times as probable as none."),
           A.header(1, "Regressions and progressions")]
    out += _changes_table(index) if index["changes"] else [A.para("jumpavg found no regression or progression in any series.")]
    by_device: dict[str, list[dict[str, Any]]] = {}
    for p in pages:
        by_device.setdefault(p["device_name"], []).append(p)
    for device, series in by_device.items():
        out.append(A.header(1, device))
        for p in series:
            out.append(A.header(2, p["title"]))
            by = "software-version order" if p["ordered_by"] == "version" else "date order"
            out.append(A.para(f"{p['sets']} result sets in {by}, {p['trials']} trials, {p['groups']} group{'s' if p['groups'] != 1 else ''}; "
                              f"trial-to-trial variation {p['noise']}; newest: {p['latest']['text']} ({p['latest']['date']})."))
            cid = p["id"].replace("/", "-")
            out.append(A.figure(f"{cid}.pdf", A.inlines(f"{p['chart']['title']}. {p['chart']['caption']}"), p["chart"]["alt"], ident=f"fig-{cid}",
                                short=p["chart"]["title"]))
            for c in p["changes"]:
                out.append(A.para(c["sentence"]))
            if not p["changes"]:
                out.append(A.para("jumpavg found no change: every result set of this series belongs to one group."))
            out.append(A.para([A.strong("Could not have detected:"), {"t": "Space"}, *A.inlines(p["limits"])]))
    return out


def metadata(index: dict[str, Any], pages: list[dict[str, Any]], build: dict[str, Any], when: str | None) -> dict[str, Any]:
    base = build["base"]
    where = "" if reportlinks.is_full(base) else " (on the site serving this report; built without a full base URL)"
    links = [("Web page", f"{base}trends/{where}"), ("Data", f"{base}trends/changes.csv and the Parquet archive {base}archive/index.json{where}"),
             ("Built", f"{dates.text(build['date']) if build.get('date') else 'date not recorded'} by wirespeed {build['version']}")]
    n_dev = len(index["devices"])
    return {
        "title": A.meta_inlines("Trends across the archive"),
        "subtitle": A.meta_inlines(f"{len(pages)} series of {n_dev} device{'s' if n_dev != 1 else ''}: regressions and progressions found by jumpavg"),
        "publisher": A.meta_inlines("wirespeed"), "product": A.meta_inlines(", ".join(d["name"] for d in index["devices"])[:90]),
        "report-number": A.meta_inlines(NAME), "date": A.meta_inlines(dates.text(when)),
        "author": A.meta_list(["wirespeed, from the published result sets"]), "pdf-author": A.meta_string("wirespeed"),
        "source-authors": A.meta_inlines("the publishers of each result set"),
        "report-links": {"t": "MetaList", "c": [{"t": "MetaMap", "c": {"label": A.meta_inlines(k), "text": reportlinks.meta(v)}} for k, v in links]},
        "subject": A.meta_inlines("Trends of benchmark results across result sets"), "keywords": A.meta_list(["trending", "jumpavg", "regression"]),
        "disclaimer": A.meta_inlines("Every figure comes from the published result sets named beside it; wirespeed's catalog ordered them and "
                                     "FD.io CSIT's jumpavg found the changes. A change is a statistical finding about the figures, not a diagnosis "
                                     "of its cause. Product names are trademarks of their owners."),
    }


def build(job: TrendReportJob) -> dict[str, Any]:
    """Typeset the trend report, written atomically; a failure is one line with its log."""
    from wirespeed.report.shortcodes import ReportError, _api_version
    from wirespeed.report.typesetting import typeset
    from wirespeed.report import latex

    try:
        index, pages = _series(job.data_root)
        when = _date(pages)
        ast = A.document(A.breakable(metadata(index, pages, job.components["build"], when)), A.breakable(blocks(index, pages)), _api_version())
        with tempfile.TemporaryDirectory(prefix="wirespeed-trend-report-") as tmp:
            charts = Path(tmp) / "charts"  # each chart under one flat name: the figure paths the AST gives
            chart_pdf.write({p["id"].replace("/", "-"): job.static_root / "trends" / p["id"] / f"{trend_pages.CHART}.svg" for p in pages},
                            charts, chart_pdf.cache_of(job.out))
            work = Path(tmp) / "work"
            work.mkdir()
            pdf = typeset(ast, work, charts, str(dates.epoch(when)), seed=paths.latex_seed(job.out), formats=paths.latex_formats(job.out))
            atomic.write_bytes(job.out, pdf.read_bytes())
        atomic.write_text(job.manifest, job.manifest_text())
        return {"ok": True}
    except (ReportError, latex.LatexError, chart_pdf.ChartPdfError, OSError, KeyError, ValueError) as exc:
        log = setstatus.write_log(NAME, "report", "trends", traceback.format_exc(), job.out.parent.parent / "logs")
        return {"ok": False, "error": f"trend report: {type(exc).__name__}: {exc} (log: {log})"}


def run(base_url: str | None = None, data_root: Path = paths.HUGO_DATA, static_root: Path = paths.SITE_STATIC, out: Path = OUT) -> tuple[str, str | None]:
    """Build the trend report if its inputs changed: ("built" | "fresh" | "none", error line or None). With no series, an old report is removed."""
    job = plan(data_root, static_root, out, base_url)
    if job is None:
        out.unlink(missing_ok=True)
        out.with_name("trends.manifest.json").unlink(missing_ok=True)
        return "none", None
    if job.fresh():
        return "fresh", None
    res = build(job)
    return "built", None if res["ok"] else res["error"]
