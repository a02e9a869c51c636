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
#     applies_when: "SELECT count(*) FROM tests WHERE slug = ? AND topology = 'multicast'"
# ---

# %% [markdown]
# # RFC 3918 multicast: groups, receivers and replication
#
# The aggregate throughput of a 1 → N multicast test counts every replicated copy: here it is split
# into what each receiver port forwarded, with the forwarding-table scale the test required.

# %% tags=["parameters"]
slug = "cisco-nexus-9516-128x100g-2015"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/multicast"

# %%
from IPython.display import display

from wirespeed.steps.notebook import open_set
from wirespeed.presentation.tables.multicast import multicast_table

run = open_set(slug, catalog, output_dir)
for test in run.tests:
    table = run.out.table(multicast_table(run.summary, test["id"]))
    if table is not None:
        display(table)

# %%
run.finish()
