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
#     applies_when: "SELECT coalesce(json_array_length(meta -> 'comparisons'), 0) FROM result_sets WHERE slug = ?"
# ---

# %% [markdown]
# # Comparisons between configurations
#
# A result set can declare comparisons between its own tests (no ACL vs 15,000 ACL entries, one
# chassis vs a virtual switch, single ports vs LAGs, legacy redundancy vs VSS failover, …): the
# same measurement under two or more configurations, each metric side by side per frame size. A
# comparison is only as fair as its tests are alike: the set's methodology says what else differed,
# and two figures within the rounding of their printed digits are no difference at all.
#
# This notebook lists, with SQL over the catalog, every figure the comparisons read; checks that
# each number in the comparison tables is exactly the catalog's; computes the failover improvement in
# view and checks it against the engine's; and writes the tables and charts the site and the PDF
# report show.

# %% tags=["parameters"]
slug = "cisco-7600-osm-acl-2001"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/comparison"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import comparison_chart
from wirespeed.engine.failover import improvement
from wirespeed.analysis.notebook import open_set
from wirespeed.presentation.tables.comparison import comparison_table
from wirespeed.engine.columns import METRICS
from wirespeed.engine.units import UNITS

run = open_set(slug, catalog, output_dir)
con = run.con  # the catalog, read-only: every query below can be run and edited here

# %% [markdown]
# ## The figures each comparison reads
#
# The comparisons are declared in the set's `result.toml` (kept whole in `result_sets.meta`): an id,
# the tests compared, optionally the metrics and frame sizes. Each compared test's published figures
# are in `cells` (canonical units), and what the engine derived in `derived`.

# %%
con.execute("""
CREATE TEMP TABLE compared AS
WITH c AS (SELECT unnest(from_json(meta -> 'comparisons', '["JSON"]')) AS comparison FROM result_sets WHERE slug = $slug),
figures AS (  -- the published figures, then what the engine derived (the names the tables use for them)
  SELECT slug, row_id, metric, value FROM cells WHERE slug = $slug
  UNION ALL
  SELECT slug, row_id, metric, value FROM (
    UNPIVOT (SELECT slug, row_id, throughput_fps AS throughput, throughput_l1_bps AS throughput_l1, throughput_l2_bps AS throughput_l2,
                    throughput_pct_line_rate AS throughput_line_rate, throughput_pct_max_theoretical AS throughput_max_theoretical,
                    line_rate_fps AS line_rate, lost_frames AS lost, loss_pct AS loss FROM derived WHERE slug = $slug)
    ON COLUMNS(* EXCLUDE (slug, row_id)) INTO NAME metric VALUE value)
  WHERE (slug, row_id, metric) NOT IN (SELECT (slug, row_id, metric) FROM cells WHERE slug = $slug)
)
SELECT comparison ->> 'id' AS comparison, r.test_id, r.row_id, coalesce(CAST(r.frame_size AS VARCHAR), r.imix, '') AS frame,
       r.load_pct, r.variant, r.direction, f.metric, f.value
FROM c JOIN rows r ON list_contains(from_json(comparison -> 'tests', '["VARCHAR"]'), r.test_id)
JOIN figures f USING (slug, row_id)
WHERE r.slug = $slug AND r.kind = 'measurements'
ORDER BY comparison, r.test_id, r.row_id, f.metric
""", {"slug": slug})
compared = con.table("compared")
print(f"{len(compared)} figures of {len(run.summary['meta'].get('comparisons', []))} comparisons")
compared.limit(10).show(max_width=250)

# %% [markdown]
# ## Every number in the comparison tables is the catalog's
#
# A comparison table prints each figure in one unit per column (the unit most of the column's
# figures were published in): the number shown is the catalog's value ÷ that unit's size. Each cell
# names the row and metric it comes from; here each is looked up in the query above.

# %%
UNIT_SIZE = {(u.dimension, u.symbol): float(u.factor) for u in UNITS.values()}
catalog_value = {(c, row_id, metric): value for c, _, row_id, _, _, _, _, metric, value in compared.fetchall()}
here, engine, tables = {}, {}, {}
for comparison in run.summary["meta"].get("comparisons", []):
    table = tables[comparison["id"]] = comparison_table(run.summary, comparison)
    for i, column in enumerate(table.columns):
        for row in table.rows:
            cell = row[i]
            if cell.source is None or cell.value is None:
                continue  # a key column (frame size, variant) or a figure this test does not have
            row_id, metric = cell.source
            size = UNIT_SIZE[(METRICS[metric].dimension, column.unit)]
            here[(comparison["id"], row_id, metric)] = {"shown": catalog_value[(comparison["id"], row_id, metric)] / size}
            engine[(comparison["id"], row_id, metric)] = {"shown": cell.value}
checked = run.agree_rows(here, engine, "comparison tables")
print(f"{checked} numbers in the comparison tables, each the catalog's figure in the column's unit")

# %% [markdown]
# ## The comparison tables and charts the site shows

# %%
for comparison in run.summary["meta"].get("comparisons", []):
    display(run.out.table(tables[comparison["id"]]))  # the tables checked above
    display(run.out.chart(comparison_chart(run.summary, comparison)))

# %% [markdown]
# ## Failover: how many times faster each configuration recovered than the first
#
# A failover test cuts a link or a supervisor while traffic runs at a known rate; every frame lost
# during the outage is one frame interval of it, so the outage is the frames lost ÷ the offered rate
# per stream (the figure `failover_time` the set publishes). Comparing configurations:
#
#     improvement = failover time of the first test ÷ failover time of this test   (wirespeed/engine/failover.py)

# %%
improvements = con.sql("""
WITH f AS (
  SELECT comparison, test_id, value AS failover_s, from_json(comparison_json -> 'tests', '["VARCHAR"]') AS tests
  FROM compared JOIN (SELECT unnest(from_json(meta -> 'comparisons', '["JSON"]')) AS comparison_json FROM result_sets WHERE slug = $slug)
       ON comparison_json ->> 'id' = comparison
  WHERE metric = 'failover_time'
)
SELECT a.comparison, b.test_id, a.test_id AS first_test, a.failover_s AS first_s, b.failover_s, a.failover_s / b.failover_s AS improvement
FROM f a JOIN f b ON a.comparison = b.comparison AND a.test_id = a.tests[1] AND b.test_id <> a.test_id
ORDER BY a.comparison, list_position(b.tests, b.test_id)
""", params={"slug": slug})
here = {(c, t): {"improvement": x} for c, t, _, _, _, x in improvements.fetchall()}
engine = {}
for comparison in run.summary["meta"].get("comparisons", []):
    times = {r["test_id"]: r["cells"]["failover_time"]["value"] for r in run.summary["rows"]
             if r["test_id"] in comparison["tests"] and "failover_time" in r["cells"]}
    first = comparison["tests"][0]
    for t in comparison["tests"][1:]:
        if first in times and t in times:
            engine[(comparison["id"], t)] = {"improvement": improvement(times[first], times[t])}
checked = run.agree_rows(here, engine, "failover improvement")
if checked:
    improvements.show(max_width=250)
else:
    print("no failover comparison in this set")

# %%
for comparison in run.summary["meta"].get("comparisons", []):
    times = {}
    for r in run.summary["rows"]:
        if r["test_id"] in comparison["tests"] and "failover_time" in r["cells"]:
            times[r["test_id"]] = r["cells"]["failover_time"]["value"]
    if len(times) > 1:
        first = comparison["tests"][0]
        for t in comparison["tests"][1:]:
            print(f"{t}: {improvement(times[first], times[t]):.1f} times faster than {first}")

# %%
run.finish()
