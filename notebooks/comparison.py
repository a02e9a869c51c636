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
# The comparisons a result set declares (no ACL vs 15,000 ACL entries, one chassis vs a virtual
# switch, single ports vs LAGs, legacy redundancy vs VSS failover, …): each metric side by side.

# %% tags=["parameters"]
slug = "cisco-7600-osm-acl-2001"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/comparison"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import comparison_chart
from wirespeed.engine.failover import improvement
from wirespeed.steps.notebook import open_set
from wirespeed.presentation.tables.comparison import comparison_table

run = open_set(slug, catalog, output_dir)
for comparison in run.summary["meta"].get("comparisons", []):
    display(run.out.table(comparison_table(run.summary, comparison)))
    display(run.out.chart(comparison_chart(run.summary, comparison)))

# %% [markdown]
# Failover comparisons: how many times faster each configuration recovered than the first.

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
