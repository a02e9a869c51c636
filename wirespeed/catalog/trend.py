"""Trend series of the catalog: every figure that two or more published result sets of one device share,
ordered by software version or date, analysed by the engine (engine/trend.py) and stored in the trend_*
tables, the one source of the trend pages, the trend report and the Parquet archive.

A series is one device (vendor and model) × test id × frame size × offered load × direction × variant
× metric (a trended metric: columns.BETTER). A set contributes every trial row of that figure; a set
without trial rows contributes its published figure as one trial. Figures printed as bounds (">770",
"<94", a range) are left out: they are not values. Per-port and per-component rows are not trended.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

import duckdb

from wirespeed.catalog.append import append
from wirespeed.engine.columns import BETTER
from wirespeed.engine import trend, versions

TESTBED = ("instrument", "port speed", "ports", "topology", "test bed")
"""What a point's test bed is, in the order changes are named: a change of any forces a boundary."""



@dataclass(frozen=True)
class Key:
    """What makes a series: the device, the test and the figure."""

    vendor: str
    model: str
    test_id: str
    frame_size: int | None
    imix: str | None
    load_pct: float | None
    direction: str
    variant: str | None
    metric: str


def _slugify(text: str, limit: int) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-")
    return s or "x"


def device_id(vendor: str, model: str) -> str:
    """The device's part of a trend URL: vendor and model as a slug (hashed when long), e.g. linux-kernel-6-18-44."""
    full = _slugify(f"{vendor} {model}", 200)
    return full if len(full) <= 80 else f"{full[:72].strip('-')}-{hashlib.sha256(full.encode()).hexdigest()[:7]}"


def series_name(k: Key) -> str:
    """The series' part of a trend URL: test, frame, load, direction, variant, metric (lower-case, dashes)."""
    parts = [k.test_id, f"{k.frame_size}b" if k.frame_size is not None else k.imix or "",
             f"{k.load_pct:g}pct" if k.load_pct is not None else "", k.direction[:3], k.variant or "", k.metric]
    return _slugify("-".join(p for p in parts if p), 100)


_GATHER = """
WITH v AS (
  SELECT r.slug, r.row_id, r.test_id, r.frame_size, r.imix, r.load_pct, coalesce(r.direction, t.direction) AS direction, r.variant, r.trial,
         c.metric, c.value, c.qualifier
  FROM rows r JOIN cells c USING (slug, row_id) JOIN tests t USING (slug, test_id)
  WHERE r.kind = 'measurements' AND r.component IS NULL AND r.port IS NULL AND c.metric IN ({metrics}) AND c.metric <> 'throughput'
  UNION ALL  -- throughput: the engine's (from frames/s or a bit rate), as published or derived
  SELECT r.slug, r.row_id, r.test_id, r.frame_size, r.imix, r.load_pct, coalesce(r.direction, t.direction), r.variant, r.trial,
         'throughput', d.throughput_fps, c.qualifier
  FROM rows r JOIN derived d USING (slug, row_id) JOIN tests t USING (slug, test_id)
       JOIN cells c ON c.slug = r.slug AND c.row_id = r.row_id AND c.metric = d.throughput_source
  WHERE r.kind = 'measurements' AND r.component IS NULL AND r.port IS NULL AND d.throughput_fps IS NOT NULL
)
SELECT p.dut_vendor, p.dut_model, v.test_id, v.frame_size, v.imix, v.load_pct, v.direction, v.variant, v.metric, v.slug, v.trial, v.value
FROM v JOIN published_sets p USING (slug)
WHERE coalesce(v.qualifier, 'exact') IN ('exact', 'approx') AND v.value IS NOT NULL AND isfinite(v.value) AND v.value >= 0
ORDER BY ALL
"""


def _sets(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, Any]]:
    """Per published set: software, date, the test bed of each test, the title of each test."""
    out: dict[str, dict[str, Any]] = {}
    for slug, instrument, published, meta in con.execute("SELECT slug, instrument, published, meta FROM published_sets").fetchall():
        m = json.loads(meta)
        camp = m.get("campaign") or {}
        out[slug] = {"software": tuple((str(s["name"]), str(s["version"])) for s in (m["dut"].get("software") or [])),
                     "date": str(camp.get("start") or published or "") or None, "instrument": instrument,
                     "testbed": str(camp.get("testbed") or ""), "title": m["title"], "tests": {}}
    for slug, test_id, title, ports, speed, topology in con.execute(
            "SELECT slug, test_id, title, ports, port_speed, topology FROM tests WHERE slug IN (SELECT slug FROM published_sets)").fetchall():
        out[slug]["tests"][test_id] = {"title": title, "ports": ports, "port_speed": speed, "topology": topology}
    return out


def _testbed(s: dict[str, Any], test_id: str) -> tuple[tuple[str, str], ...]:
    t = s["tests"][test_id]
    values = (s["instrument"], t["port_speed"], str(t["ports"]), t["topology"], s["testbed"])
    return tuple((aspect, str(v)) for aspect, v in zip(TESTBED, values))


def gather(con: duckdb.DuckDBPyConnection) -> dict[Key, dict[str, list[float]]]:
    """Every trended figure of the published sets: series key → set → its trials (trial rows if it has any, else the figure)."""
    metrics = ", ".join(f"'{m}'" for m in sorted(BETTER))  # names from the column vocabulary, not from a set
    trials: dict[Key, dict[str, list[float]]] = {}
    figures: dict[Key, dict[str, list[float]]] = {}
    for vendor, model, test_id, fs, imix, load, direction, variant, metric, slug, trial, value in con.execute(_GATHER.format(metrics=metrics)).fetchall():
        k = Key(vendor, model, test_id, fs, imix, load, direction, variant, metric)
        (trials if trial is not None else figures).setdefault(k, {}).setdefault(slug, []).append(float(value))
    out: dict[Key, dict[str, list[float]]] = {}
    for k in set(trials) | set(figures):
        per_set = {**figures.get(k, {}), **trials.get(k, {})}  # a set's trials, where it has them, stand for it
        if len(per_set) >= 2:
            out[k] = per_set
    return out


def inputs_hash(con: duckdb.DuckDBPyConnection) -> str:
    """What the trend tables are computed from: the published sets and their content and engine hashes."""
    rows = con.execute("SELECT slug, content_hash, engine_hash FROM published_sets ORDER BY slug").fetchall()
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def refresh(con: duckdb.DuckDBPyConnection, force: bool = False) -> bool:
    """Recompute the trend tables when the published sets changed (or force); True when recomputed.
    The caller holds no transaction; this runs in one."""
    h = inputs_hash(con)
    old = con.execute("SELECT value FROM catalog_info WHERE key = 'trend_inputs'").fetchone()
    if not force and old is not None and old[0] == h:
        return False
    sets = _sets(con)
    series = gather(con)
    names: dict[Key, str] = {}
    taken: dict[str, list[Key]] = {}
    for k in sorted(series, key=repr):
        taken.setdefault(f"{device_id(k.vendor, k.model)}/{series_name(k)}", []).append(k)
    for name, keys in taken.items():
        for k in keys:  # two figures whose names collide both get a hash of their key
            names[k] = name if len(keys) == 1 else f"{name}-{hashlib.sha256(repr(k).encode()).hexdigest()[:7]}"
    rows_s, rows_p, rows_g, rows_c = [], [], [], []
    for k in sorted(series, key=lambda k: names[k]):
        per_set = series[k]
        placed = [versions.Placed(slug, sets[slug]["software"], sets[slug]["date"]) for slug in per_set]
        order = versions.order(placed)
        points = [trend.Point(slug, tuple(per_set[slug]), _testbed(sets[slug], k.test_id)) for slug in order.slugs]
        t = trend.analyse(points, BETTER[k.metric])
        sid = names[k]
        shown = {p.slug: _version_text(p.software, order) for p in placed}
        rows_s.append([sid, sid.split("/")[0], k.vendor, k.model, k.test_id, sets[order.slugs[-1]]["tests"][k.test_id]["title"], k.frame_size, k.imix,
                       k.load_pct, k.direction, k.variant, k.metric, BETTER[k.metric], order.by, list(order.components), len(points),
                       sum(len(p.trials) for p in points), t.detectable.noise, t.detectable.newest, t.detectable.sustained])
        group_of = {i: n for n, g in enumerate(t.groups) for i in range(g.first, g.last + 1)}
        starts = {c.at: c.kind for c in t.changes}
        for i, p in enumerate(points):
            g = t.groups[group_of[i]]
            rows_p.append([sid, i, p.key, shown[p.key], sets[p.key]["date"], json.dumps(dict(p.testbed)), list(p.trials),
                           sum(p.trials) / len(p.trials), group_of[i], g.avg, g.stdev, starts.get(i)])
        for n, g in enumerate(t.groups):
            rows_g.append([sid, n, g.first, g.last, g.trials, g.avg, g.stdev, g.segment])
        for c in t.changes:
            what = "; ".join(f"{aspect}: {old or 'not stated'} → {new or 'not stated'}" for aspect, old, new in c.testbed)
            rows_c.append([sid, c.at, points[c.at].key, shown[points[c.at].key], sets[points[c.at].key]["date"], c.kind, c.before.avg, c.after.avg,
                           c.relative, c.before.trials, c.after.trials, c.bits, c.confidence, c.smallest, what or None])
    con.execute("BEGIN TRANSACTION")
    try:
        for table in ("trend_series", "trend_points", "trend_groups", "trend_changes"):
            con.execute(f"DELETE FROM {table}")
        for table, rows in (("trend_series", rows_s), ("trend_points", rows_p), ("trend_groups", rows_g), ("trend_changes", rows_c)):
            append(con, table, rows)
        con.execute("INSERT OR REPLACE INTO catalog_info VALUES ('trend_inputs', ?)", [h])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return True


def _version_text(software: tuple[tuple[str, str], ...], order: versions.Order) -> str:
    """What a point is called on the series' axis: the versions that vary along it (or every version the set names)."""
    named = dict(software)
    shown = [(n, named.get(n, "not named")) for n in order.components] if order.by == "version" else list(software)
    return "; ".join(f"{n} {v}" for n, v in shown)


def _dicts(cur) -> list[dict[str, Any]]:
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def series_list(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Every trend series (its trend_series row), by device and series id."""
    return _dicts(con.execute("SELECT * FROM trend_series ORDER BY device, series"))


def series_detail(con: duckdb.DuckDBPyConnection, sid: str) -> dict[str, Any]:
    """One series: its row, its points (with every trial) in order, its groups and its changes, and each
    point's set title (the reader of the trend pages, the trend report and the chart)."""
    rows = _dicts(con.execute("SELECT * FROM trend_series WHERE series = ?", [sid]))
    if not rows:
        raise LookupError(f"no trend series {sid!r} in the catalog")
    points = _dicts(con.execute("SELECT p.*, s.title, s.published FROM trend_points p JOIN result_sets s USING (slug)"
                                " WHERE p.series = ? ORDER BY p.position", [sid]))
    for p in points:
        p["testbed"] = json.loads(p["testbed"])
    groups = _dicts(con.execute("SELECT * EXCLUDE (series) FROM trend_groups WHERE series = ? ORDER BY grp", [sid]))
    changes = _dicts(con.execute("SELECT * EXCLUDE (series) FROM trend_changes WHERE series = ? ORDER BY position", [sid]))
    return {**rows[0], "points": points, "groups": groups, "changes": changes}


def set_series(con: duckdb.DuckDBPyConnection, slug: str) -> list[str]:
    """The series a result set is a point of."""
    return [s for (s,) in con.execute("SELECT DISTINCT series FROM trend_points WHERE slug = ? ORDER BY series", [slug]).fetchall()]
