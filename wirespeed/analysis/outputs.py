"""What an analysis step writes: tables (CSV + JSON) and charts (Vega-Lite + SVG + PDF), and an index."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from wirespeed.analysis import drawings
from wirespeed.system import atomic
from wirespeed.system import csvsafe
from wirespeed.presentation.charts import compile_chart
from wirespeed.presentation.charts.web import data_table
from wirespeed.presentation.tables.model import ResultTable


def table_csv(table: ResultTable) -> str:
    """CSV of a table: one header row of labels with units, cells as printed without thousands separators
    (spreadsheet formulas neutralised per cell and then, for every separator, in the text: wirespeed.system.csvsafe),
    and a Notes column when a row has a note."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    notes = [_row_notes(table, row) for row in table.rows]
    extra = ["Notes"] if any(notes) else []  # never a column empty in every row
    w.writerow(csvsafe.neutralise_row([" ".join(x for x in (c.group, c.label) if x) + (f" ({c.unit})" if c.unit else "") + (" [derived]" if c.derived else "")
                                       for c in table.columns] + extra))
    for row, note in zip(table.rows, notes):
        w.writerow(csvsafe.neutralise_row([c.text.replace(",", "") for c in row] + ([note] if extra else [])))
    return csvsafe.neutralise_csv_text(buf.getvalue())


def _row_notes(table: ResultTable, row: list) -> str:
    """The flags and derived marks of one row, for the CSV's Notes column: 'column: note; …'."""
    notes = []
    for col, cell in zip(table.columns, row):
        name = " ".join(x for x in (col.group, col.label) if x)
        if cell.derived and cell.text and not col.derived:
            notes.append(f"{name}: derived by wirespeed")
        if cell.flag:
            notes.append(f"{name}: {cell.flag}")
    return "; ".join(notes)


def table_html(table: ResultTable) -> str:
    """A plain HTML rendering of a table, for the executed notebook."""
    from html import escape

    head = "".join(f"<th>{escape(' '.join(x for x in (c.group, c.label) if x))}{f' ({escape(c.unit)})' if c.unit else ''}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join((f"<td title='{escape(c.flag)}'>{escape(c.text)} ⚑</td>" if c.flag else f"<td>{escape(c.text)}</td>")
                                    for c in r) + "</tr>" for r in table.rows)
    return f"<table><caption>{escape(table.title)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class Outputs:
    """The output folder of one notebook run for one result set."""

    def __init__(self, output_dir: Path | str, slug: str):
        self.dir = Path(output_dir)
        self.slug = slug
        (self.dir / "tables").mkdir(parents=True, exist_ok=True)
        (self.dir / "charts").mkdir(parents=True, exist_ok=True)
        self.tables: dict[str, dict[str, Any]] = {}
        self.charts: dict[str, dict[str, Any]] = {}
        self.drawings: set[str] = set()

    def table(self, table: ResultTable | None):
        """Write a table as JSON and CSV; returns an object the notebook displays as HTML."""
        if table is None:
            return None
        if table.id in self.tables:
            raise ValueError(f"table id {table.id!r} written twice")
        d = table.to_dict()
        atomic.write_text(self.dir / "tables" / f"{table.id}.json", json.dumps(d, separators=(",", ":"), ensure_ascii=False) + "\n")  # published: compact
        atomic.write_text(self.dir / "tables" / f"{table.id}.csv", table_csv(table))
        self.tables[table.id] = {"id": table.id, "title": table.title, "caption": table.caption, "test": table.test,
                                 "json": f"tables/{table.id}.json", "csv": f"tables/{table.id}.csv"}
        return _Html(table_html(table), f"table {table.id}")

    def chart(self, defn: dict[str, Any] | None):
        """Compile a chart definition; write its Vega-Lite spec and its drawings (SVG and the page's Vega spec:
        drawings.py, kept by the spec's hash between runs; a report draws its PDF from the SVG: report/chart_pdf.py);
        returns the drawing for display."""
        if defn is None:
            return None
        cid = defn["id"]
        if cid in self.charts:
            raise ValueError(f"chart id {cid!r} written twice")
        spec = compile_chart(defn)
        drawing = drawings.draw(spec, drawings.cache_from_env())
        self.drawings.add(drawing.key)
        base = self.dir / "charts" / cid
        atomic.write_text(base.with_suffix(".vl.json"), json.dumps(spec, separators=(",", ":"), ensure_ascii=False) + "\n")  # a download: compact
        atomic.write_text(base.with_suffix(".svg"), drawing.svg)
        atomic.write_text(base.with_suffix(".vg.json"), drawing.web)
        self.charts[cid] = {"id": cid, "title": defn["title"], "caption": defn.get("caption", ""), "alt": defn["alt"],
                            "test": defn.get("test"), "spec": f"charts/{cid}.vl.json", "svg": f"charts/{cid}.svg",
                            "vega": f"charts/{cid}.vg.json", "table": data_table(defn)}
        if defn.get("role"):  # "overview": a small multiple at the top of the set page, not in its test's section
            self.charts[cid]["role"] = defn["role"]
        return _Chart(drawing.svg, cid, defn["alt"])

    def finish(self) -> None:
        """Write outputs.json: every table and chart this run produced, and the keys of the charts' drawings (which
        the drawing cache keeps: drawings.prune)."""
        atomic.write_text(self.dir / "outputs.json", json.dumps({"slug": self.slug, "tables": self.tables, "charts": self.charts,
                                                                 "drawings": sorted(self.drawings)}, indent=1, ensure_ascii=False) + "\n")


CHART_KEY = "wirespeed-chart"  # a chart output's metadata key naming the chart it draws


class _Html:
    def __init__(self, html: str, label: str):
        self.html = html
        self.label = label

    def __repr__(self) -> str:  # the notebook's text/plain output: no memory address, so reruns write the same bytes
        return f"<wirespeed {self.label}>"

    def _repr_html_(self) -> str:
        return self.html


class _Chart:
    """A chart in the executed notebook: its drawing (the published charts/<id>.svg), which every notebook viewer shows
    (JupyterLab, Notebook, VS Code, GitHub) where a Vega-Lite spec needs a renderer of its version (the spec is the
    charts/<id>.vl.json download beside it). Its output's metadata names the chart, so the notebook's web page shows
    the published drawing by reference instead of a second copy (analysis.html_export)."""

    def __init__(self, svg: str, cid: str, alt: str):
        self.svg = svg
        self.cid = cid
        self.alt = alt

    def __repr__(self) -> str:  # the text/plain output: no memory address, so reruns write the same bytes
        return f"<wirespeed chart {self.cid}: drawn in charts/{self.cid}.svg, its spec in charts/{self.cid}.vl.json>"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
        return {"image/svg+xml": self.svg, "text/plain": repr(self)}, {"image/svg+xml": {CHART_KEY: self.cid, "alt": self.alt}}
