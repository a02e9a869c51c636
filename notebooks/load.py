# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
#   wirespeed:
#     applies_when: "SELECT count(*) FROM (SELECT test_id FROM rows WHERE slug = ? AND kind = 'measurements' AND load_pct IS NOT NULL GROUP BY test_id, frame_size, imix HAVING count(DISTINCT load_pct) > 1)"
# ---

# %% [markdown]
# # Latency and jitter versus offered load
#
# RFC 2544 §26.2 measures latency at the throughput rate; many reports also measure it at several
# offered loads below it (e.g. 10, 50, 90 and 99.999 % of line rate), because a device that keeps
# its latency flat until the link is full behaves differently from one whose queues fill early.
# Jitter is the delay variation between consecutive frames, as the instrument reports it (RFC 4689
# jitter; iperf3 and RTP receivers report the RFC 3550 running estimate instead).
#
# Latency and jitter are published figures: the catalog cannot recompute them without every frame's
# time stamps. What is derived is the rate each load stands for. This notebook queries the figures
# per frame size and load, computes the offered rate in view and checks it against the engine's,
# checks that every number in the tables is the catalog's, and writes the tables and charts the site
# and the PDF report show.

# %% tags=["parameters"]
slug = "cisco-nexus-9516-128x100g-2015"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/load"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import load_chart
from wirespeed.analysis.notebook import open_set
from wirespeed.presentation.tables.load import load_table
from wirespeed.engine.columns import METRICS as COLUMNS
from wirespeed.engine.units import UNITS

run = open_set(slug, catalog, output_dir)
con = run.con  # the catalog, read-only: every query below can be run and edited here
METRICS = ["latency_min", "latency_avg", "latency_max", "jitter_avg", "jitter_max"]

# %% [markdown]
# ## The figures per frame size and offered load
#
# The catalog's view `measurements` has one column per metric in canonical units (seconds here, shown
# in µs below), and the row's offered load in percent of line rate (`load_pct`). Only tests measured
# at more than one load count.
#
#     offered rate, frames/s = load % ÷ 100 × line rate        (wirespeed/engine/derive.py)

# %%
con.execute("""
CREATE TEMP TABLE under_load AS
WITH m AS (
  SELECT m.*, d.line_rate_fps, count(DISTINCT m.load_pct) OVER (PARTITION BY m.test_id, m.frame_size, m.imix) AS loads
  FROM measurements m LEFT JOIN derived d USING (slug, row_id)
  WHERE m.slug = $slug AND m.load_pct IS NOT NULL
)
SELECT row_id, test_id, coalesce(CAST(frame_size AS VARCHAR), imix, '') AS frame, load_pct, variant, direction,
       load_pct / 100 * line_rate_fps AS offered_fps,
       latency_min_s * 1e6 AS latency_min_us, latency_avg_s * 1e6 AS latency_avg_us, latency_max_s * 1e6 AS latency_max_us,
       jitter_avg_s * 1e6 AS jitter_avg_us, jitter_max_s * 1e6 AS jitter_max_us
FROM m WHERE loads > 1
ORDER BY test_id, frame_size, imix, load_pct, row_id
""", {"slug": slug})
under_load = con.table("under_load")
print(f"{len(under_load)} rows measured at more than one load")
under_load.limit(12).show(max_width=250)

# %% [markdown]
# Where the source also published the offered rate, the engine recomputed it from the load and the
# line rate (table `agreements`, metric `offered_rate`); the figures computed here must equal the
# engine's. A port without a line rate of its own (its speed a label) has no offered rate here.

# %%
offered = con.sql("""
SELECT u.test_id, u.frame, u.load_pct, u.offered_fps, a.recomputed AS catalog_offered_fps
FROM under_load u JOIN agreements a ON a.slug = $slug AND a.row_id = u.row_id AND a.metric = 'offered_rate'
WHERE u.offered_fps IS NOT NULL
ORDER BY u.test_id, u.frame, u.load_pct
""", params={"slug": slug})
checked = run.agree(offered, {"offered_fps": "catalog_offered_fps"}, "offered rate")
print(f"offered rate: {checked} rows computed here, each equal to the engine's" if checked
      else "offered rate: the source published none, so there is no engine figure to compare with")

# %% [markdown]
# ## Every number in the tables is the catalog's
#
# Each table prints one metric, one column per load, in one unit per column; each number is the
# catalog's value ÷ that unit's size, from the row its cell names.

# %%
UNIT_SIZE = {(u.dimension, u.symbol): float(u.factor) for u in UNITS.values()}
published = {(row_id, metric): value for row_id, metric, value in
             con.execute("SELECT row_id, metric, value FROM cells WHERE slug = ?", [slug]).fetchall()}
tables = {(test["id"], metric): load_table(run.summary, test["id"], metric) for test in run.tests for metric in METRICS}
here, engine = {}, {}
for table in (t for t in tables.values() if t is not None):
    for i, column in enumerate(table.columns):
        for row in table.rows:
            cell = row[i]
            if cell.source is None or cell.value is None or cell.source not in published:
                continue  # the frame-size column, an empty cell, or a derived figure (none in these tables)
            here[(table.id, *cell.source)] = {"shown": published[cell.source] / UNIT_SIZE[(COLUMNS[cell.source[1]].dimension, column.unit)]}
            engine[(table.id, *cell.source)] = {"shown": cell.value}
checked = run.agree_rows(here, engine, "load tables")
print(f"{checked} numbers in {sum(t is not None for t in tables.values())} tables, each the catalog's figure in the column's unit")

# %% [markdown]
# ## The tables and charts the site shows

# %%
for test in run.tests:
    for metric in METRICS:
        table = run.out.table(tables[(test["id"], metric)])  # the tables checked above
        if table is not None:
            display(table)
            display(run.out.chart(load_chart(run.summary, test["id"], metric)))

# %%
run.finish()
