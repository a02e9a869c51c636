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
# In a 1 → N multicast test (RFC 3918) one port sends to a set of multicast groups and every receiver
# port that joined them gets its own copy of each frame: the device replicates. The aggregate
# throughput a tester reports counts every copy received, so it can be many times what was sent. The
# line rate of such a test is likewise that of all receiver ports together (the throughput notebook
# counts each receiver as one stream).
#
# This notebook splits the aggregate into what each receiver port forwarded, states how many
# forwarding entries the device had to hold, checks these figures against the table the engine
# builds, and writes that table for the site and the PDF report.

# %% tags=["parameters"]
slug = "cisco-nexus-9516-128x100g-2015"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/multicast"

# %%
from IPython.display import display

from wirespeed.analysis.notebook import open_set
from wirespeed.presentation.tables.multicast import multicast_table
from wirespeed.engine.rfc3918 import group_table_entries

run = open_set(slug, catalog, output_dir)
con = run.con  # the catalog, read-only: every query below can be run and edited here

# %% [markdown]
# ## Per receiver port, and the forwarding-table scale (RFC 3918)
#
#     per receiver port, frames/s = aggregate throughput ÷ receivers
#     port line rate, frames/s    = the test's line rate ÷ receivers
#     forwarding entries          = receivers × groups   (every receiver joins every group: one snooping or mroute entry each)
#
# The rows are those at the throughput rate: a row without an offered load, or the highest load its
# frame size was measured at (every rate tried, for trial rows).

# %%
con.execute("""
CREATE TEMP TABLE per_receiver AS
WITH m AS (
  SELECT r.row_id, r.test_id, coalesce(CAST(r.frame_size AS VARCHAR), r.imix, '') AS frame, r.load_pct, r.trial, t.receivers,
         CAST(t.meta ->> 'multicast_groups' AS BIGINT) AS groups, d.throughput_fps, d.line_rate_fps,
         max(r.load_pct) OVER (PARTITION BY r.test_id, r.frame_size, r.imix, r.direction, r.variant, r.component, r.port, r.trial) AS top_load
  FROM rows r JOIN tests t USING (slug, test_id) LEFT JOIN derived d USING (slug, row_id)
  WHERE r.slug = $slug AND r.kind = 'measurements' AND t.topology = 'multicast'
)
SELECT test_id, row_number() OVER (PARTITION BY test_id ORDER BY row_id) AS position, frame, receivers, groups,
       receivers * groups AS forwarding_entries, throughput_fps AS aggregate_fps,
       throughput_fps / receivers AS per_receiver_fps, line_rate_fps / receivers AS port_line_rate_fps
FROM m
WHERE throughput_fps IS NOT NULL AND (load_pct IS NULL OR load_pct = top_load OR trial IS NOT NULL)
ORDER BY test_id, position
""", {"slug": slug})
per_receiver = con.table("per_receiver")
here = {(r[0], r[1]): {"frame": r[2], "aggregate": r[6], "per receiver": r[7], "receivers": r[3], "port line rate": r[8], "forwarding entries": r[5]}
        for r in per_receiver.fetchall()}
engine = {}
for test in run.tests:
    table = multicast_table(run.summary, test["id"])
    for i, row in enumerate(table.rows if table is not None else [], start=1):
        engine[(test["id"], i)] = {"frame": row[0].text, "aggregate": row[1].value, "per receiver": row[2].value,
                                   "receivers": row[3].value, "port line rate": row[4].value,
                                   "forwarding entries": group_table_entries(test["receivers"], test["multicast_groups"]) if test.get("multicast_groups") else None}
checked = run.agree_rows(here, engine, "multicast replication")
print(f"{checked} rows split per receiver here, each equal to the engine's table")
per_receiver.show(max_width=250)

# %% [markdown]
# ## The table the site shows

# %%
for test in run.tests:
    table = run.out.table(multicast_table(run.summary, test["id"]))
    if table is not None:
        display(table)

# %%
run.finish()
