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
#     applies_when: "SELECT count(*) FROM rows WHERE slug = ? AND kind = 'histograms'"
# ---

# %% [markdown]
# # Latency distributions
#
# A minimum, an average and a maximum (RFC 2544 §26.2 asks for the latency of a frame at the
# throughput rate) say little about how latency spreads: one late frame sets the maximum. A
# histogram counts the frames whose latency fell in each bucket, so the percentiles can be read:
# the latency the median frame, the 99th-percentile frame and the slowest frame stayed below.
#
# Histograms come from the instrument (its latency bins), from a round-trip tool (ping's replies
# binned), or from a capture: two packet captures, one on each side of the device, whose frames the
# capture engine pairs one by one (`wirespeed/capture/`), giving every frame's latency; those are
# binned into at most about 50 buckets of a 1-2-5 width.
#
# This notebook reads the buckets from the catalog, computes the cumulative share and the
# percentiles in view, checks them against the percentile table the engine builds, and draws the
# tables and charts the site and the PDF report show.

# %% tags=["parameters"]
slug = "linux-netns-ipv4-ramp-2026-11"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/distribution"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import histogram_chart
from wirespeed.analysis.notebook import open_set
from wirespeed.presentation.tables.latency_percentiles import histogram_table
from wirespeed.presentation.tables.results import frame_label
from wirespeed.engine.units import UNITS

run = open_set(slug, catalog, output_dir)
con = run.con  # the catalog, read-only: every query below can be run and edited here
tests = {t["id"]: t for t in run.tests}

# %% [markdown]
# ## The buckets and their cumulative share
#
# The catalog's view `histograms` has one row per bucket: its edges in µs (`bucket_low_us`
# inclusive, `bucket_high_us` exclusive) and the frames counted in it (`count_frames`). One histogram
# is the buckets of one test, frame size, offered load and variant, in edge order.
#
#     cumulative frames of a bucket = frames in it and in every bucket below it
#     cumulative share              = cumulative frames ÷ all frames of the histogram × 100

# %%
con.execute("""
CREATE TEMP TABLE buckets AS
SELECT test_id, coalesce(CAST(frame_size AS VARCHAR), imix, '') AS frame, load_pct, variant, bucket_low_us, bucket_high_us, count_frames,
       sum(count_frames) OVER (PARTITION BY test_id, frame, load_pct, variant ORDER BY bucket_low_us ROWS UNBOUNDED PRECEDING) AS cumulative_frames,
       sum(count_frames) OVER (PARTITION BY test_id, frame, load_pct, variant) AS total_frames,
       cumulative_frames / total_frames * 100 AS cumulative_pct
FROM histograms WHERE slug = $slug
ORDER BY test_id, frame, load_pct, variant, bucket_low_us
""", {"slug": slug})
con.table("buckets").limit(10).show(max_width=250)

# %% [markdown]
# ## Percentiles, bounded by the bucket edges
#
# The p-th percentile is the latency below which p % of the frames arrived. A histogram does not
# know where inside its bucket a frame fell, so it bounds each percentile by the edges of the bucket
# that holds it:
#
#     bucket of the p-th percentile = the first bucket whose cumulative frames ≥ all frames × p ÷ 100
#     p-th percentile               ≥ its lower edge and < its upper edge
#
# The narrower the buckets, the tighter the bound. Where a set also states the percentiles
# themselves (exact, from every frame's latency), the site shows those and draws the histogram only.

# %%
con.execute("""
CREATE TEMP TABLE percentiles AS
SELECT test_id, frame, load_pct, variant, pct,
       min(bucket_low_us) AS at_least_us, arg_min(bucket_high_us, bucket_low_us) AS below_us
FROM buckets, (VALUES (50.0::DOUBLE), (90.0), (99.0), (99.9), (100.0)) AS p(pct)
WHERE cumulative_frames >= total_frames * CAST(pct AS DOUBLE) / 100
GROUP BY ALL ORDER BY ALL
""")
percentiles = con.table("percentiles")
# the engine's percentile table of each histogram (wirespeed.presentation.tables.latency_percentiles), in the time unit of its
# largest edge: the bounds computed here are put in the same unit (µs × 1e-6 ÷ the unit's seconds)
UNIT_SECONDS = {u.symbol: float(u.factor) for u in UNITS.values() if u.dimension == "time"}
engine, scale = {}, {}
by_histogram = {}
for b in run.histograms():
    by_histogram.setdefault((b["test_id"], frame_label(b), b["load_pct"], b["variant"]), []).append(b)
for key, group in by_histogram.items():
    table = histogram_table(group, tests[key[0]], *key[1:])
    scale[key] = 1e-6 / UNIT_SECONDS[table.columns[1].unit]
    for row in table.rows:
        engine[(*key, row[0].value)] = {"at least": row[1].value, "below": row[2].value}
here = {}
for test_id, frame, load, variant, pct, low_us, high_us in percentiles.fetchall():
    key = (test_id, frame, load, variant)
    here[(*key, pct)] = {"at least": low_us * scale[key], "below": high_us * scale[key]}
checked = run.agree_rows(here, engine, "latency percentiles")
print(f"{checked} percentiles of {len(by_histogram)} histograms bounded here, each equal to the engine's table")
percentiles.show(max_width=250)

# %% [markdown]
# ## The tables and charts the site shows

# %%
groups = by_histogram  # the buckets of each histogram, grouped above
# where the set also states the percentiles themselves (exact, from every frame's latency), the bucket-bounded table would
# only repeat them coarsely: the histogram's chart is drawn, its percentile table is not
exact = {(r["test_id"], frame_label(r), r["load_pct"], r["variant"]) for r in run.summary["rows"] if "latency_p50" in r["cells"]}
for (test_id, frame, load, variant), buckets in groups.items():
    if (test_id, frame, load, variant) not in exact:
        display(run.out.table(histogram_table(buckets, tests[test_id], frame, load, variant)))
    display(run.out.chart(histogram_chart(buckets, tests[test_id], frame, load, variant)))

# %%
run.finish()
