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
#     applies_when: "SELECT count(*) FROM rows WHERE slug = ? AND kind = 'measurements'"
# ---

# %% [markdown]
# # Throughput and latency per frame size
#
# RFC 2544 / RFC 2889 / RFC 5180 / RFC 3918: for every test of the result set, throughput per
# frame size in frames/s, bit/s and percent of line rate (published figures, with the engine's
# recomputation beside them), latency at the throughput rate, and the theoretical line rate.

# %% tags=["parameters"]
slug = "cisco-nexus-9516-128x100g-2015"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/throughput"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import latency_chart, throughput_chart
from wirespeed.steps.notebook import open_set
from wirespeed.presentation.overview import overview_chart
from wirespeed.presentation.charts.summary import summary_chart
from wirespeed.presentation.tables.trial_throughput import trial_throughput_table
from wirespeed.presentation.tables.results import results_tables

run = open_set(slug, catalog, output_dir)
print(run.summary["meta"]["title"])

# %% [markdown]
# ## One table and chart per test

# %%
for test in run.tests:
    tables = [run.out.table(t) for t in results_tables(run.summary, test["id"])]
    if not tables:
        continue
    for table in tables:
        display(table)
    for chart in (throughput_chart(run.summary, test["id"]), latency_chart(run.summary, test["id"])):
        if chart is not None:
            display(run.out.chart(chart))

# %% [markdown]
# ## Overview: one small chart per test, on one % of line rate scale (the top of the set page)

# %%
for test in run.tests:
    display(run.out.chart(overview_chart(run.summary, test["id"])))

# %% [markdown]
# ## Summary: every test on one shared scale (the top of a review, the PDF's executive summary)

# %%
chart = summary_chart(run.summary)
if chart is not None:
    display(run.out.chart(chart))

# %% [markdown]
# ## RFC 2544 throughput from trials (result sets that carry per-trial frame counts)

# %%
table = run.out.table(trial_throughput_table(run.summary))
if table is not None:
    display(table)

# %% [markdown]
# ## Published figures the engine did not reproduce

# %%
bad = [a for a in run.summary["agreements"] if not a["agree"]]
for a in bad:
    print(f"{a['where']}: {a['metric']} published {a['published']}, recomputed {a['recomputed_text']} {a['unit_symbol']}")
print(f"{len(run.summary['agreements'])} published derived figures, {len(bad)} disagree")

# %%
run.finish()
