"""Declared comparisons with other result sets (`[[set_comparisons]]` in result.toml), made at site-data export:
the engine's table (wirespeed.engine.compare) for the declared sets, tests, frame sizes and normalisation,
written as a result table and a chart of the declaring set, so its page, its comparison page and its PDF
print them through the same paths as every other table and chart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from wirespeed.engine import compare
from wirespeed.analysis.outputs import Outputs
from wirespeed.presentation.tables.cross_set import chart_definition, result_table
from wirespeed.resultset.crossrefs import test_ref
from wirespeed.site.compare_data import set_entries


class ComparisonError(RuntimeError):
    """A declared comparison that cannot be made; the message is one line naming the set, the field and why."""


def make(con: duckdb.DuckDBPyConnection, slug: str, meta: dict[str, Any], dest: Path, published: set[str]) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Write the table and chart of each declared comparison of `slug` under dest (tables/, charts/); returns the
    comparisons as the site data lists them (with the table model for the page), and (id, one-line reason) of
    each that cannot be made: it names a set that is not published (left out, draft, embargoed) or has no
    figure to compare. Such a comparison is left out; the set and its other comparisons are published."""
    declared = meta.get("set_comparisons", [])
    if not declared:
        return [], []
    out = Outputs(dest, slug)
    cache: dict[str, list[dict[str, Any]]] = {}
    made, dropped = [], []
    for i, c in enumerate(declared):
        try:
            made.append(_one(con, slug, i, c, out, cache, published))
        except ComparisonError as exc:
            dropped.append((c["id"], str(exc)))
    return made, dropped


def _one(con: duckdb.DuckDBPyConnection, slug: str, i: int, c: dict[str, Any], out: Outputs, cache: dict[str, list[dict[str, Any]]],
         published: set[str]) -> dict[str, Any]:
    where = f"{slug}/result.toml"
    for s in c["sets"]:
        if s not in published:
            raise ComparisonError(f"{where}: set_comparisons[{i}].sets: result set {s!r} is not published (missing, draft, embargoed or left out), "
                                  "so it cannot be compared [semantic.comparison-reference]")
    for s in [slug, *c["sets"]]:  # each set's entries read once for all the comparisons that name it
        if s not in cache:
            cache[s] = set_entries(con, s, f"results/{s}/")
    entries = [e for s in [slug, *c["sets"]] for e in cache[s]]
    refs = [f"{s}/{t}" for s, t in (test_ref(r, slug) for r in c["tests"])]
    x = c.get("axis", "frame")
    chosen = compare.select(entries, sets=[slug, *c["sets"]], tests=refs, xs=c.get("frame_sizes") if x == "frame" else None, x=x)
    order = {r: k for k, r in enumerate(refs)}
    chosen.sort(key=lambda e: order[f"{e['set']}/{e['test']}"])
    labels = dict(zip(refs, c["labels"])) if c.get("labels") else None
    model = compare.table(chosen, c.get("metric", "throughput"), c.get("normalisation", "absolute"), c.get("rate", "frames"), x, c["title"], labels)
    if not model["rows"]:
        raise ComparisonError(f"{where}: set_comparisons[{i}]: the compared tests have no {model['metric_label'].lower()} figure"
                              + (" at the declared frame sizes" if c.get("frame_sizes") else "") + " [semantic.comparison-empty]")
    caption = f"{model['statement']} Result sets: {', '.join([slug, *c['sets']])}."
    out.table(result_table(model, c["id"], caption))
    chart = chart_definition(model, f"{c['id']}-chart", caption)
    out.chart(chart)
    return {"id": c["id"], "title": c["title"], "sets": c["sets"], "tests": [t for s, t in (test_ref(r, slug) for r in c["tests"]) if s == slug], "compared_tests": refs,
            "table": c["id"], "chart": f"{c['id']}-chart" if chart else None, "model": model, "across_sets": True}
