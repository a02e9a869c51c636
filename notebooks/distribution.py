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
# For result sets with latency histograms: frames per bucket, the cumulative distribution, and
# percentiles bounded by the bucket edges.

# %% tags=["parameters"]
slug = "linux-netns-ipv4-ramp-2026-11"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/distribution"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import histogram_chart
from wirespeed.steps.notebook import open_set
from wirespeed.presentation.tables.latency_percentiles import histogram_table
from wirespeed.presentation.tables.results import frame_label

run = open_set(slug, catalog, output_dir)
tests = {t["id"]: t for t in run.tests}
groups = {}
for b in run.histograms():
    groups.setdefault((b["test_id"], frame_label(b), b["load_pct"], b["variant"]), []).append(b)
# where the set also states the percentiles themselves (exact, from every frame's latency), the bucket-bounded table would
# only repeat them coarsely: the histogram's chart is drawn, its percentile table is not
exact = {(r["test_id"], frame_label(r), r["load_pct"], r["variant"]) for r in run.summary["rows"] if "latency_p50" in r["cells"]}
for (test_id, frame, load, variant), buckets in groups.items():
    if (test_id, frame, load, variant) not in exact:
        display(run.out.table(histogram_table(buckets, tests[test_id], frame, load, variant)))
    display(run.out.chart(histogram_chart(buckets, tests[test_id], frame, load, variant)))

# %%
run.finish()
