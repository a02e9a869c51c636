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
# For tests measured at several offered loads (e.g. 10, 50, 90 and 99.999 % of line rate): each
# metric per frame size and load, as a table and as one line per frame size.

# %% tags=["parameters"]
slug = "cisco-nexus-9516-128x100g-2015"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/load"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import load_chart
from wirespeed.steps.notebook import open_set
from wirespeed.presentation.tables.load import load_table

run = open_set(slug, catalog, output_dir)
METRICS = ["latency_min", "latency_avg", "latency_max", "jitter_avg", "jitter_max"]

# %%
for test in run.tests:
    for metric in METRICS:
        table = run.out.table(load_table(run.summary, test["id"], metric))
        if table is not None:
            display(table)
            display(run.out.chart(load_chart(run.summary, test["id"], metric)))

# %%
run.finish()
