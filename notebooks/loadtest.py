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
#     applies_when: "SELECT count(*) FROM rows WHERE slug = ? AND kind = 'samples'"
# ---

# %% [markdown]
# # Ramp loadtests and per-interval samples
#
# Per-second transmit and receive rates over a T-Rex-style ramp from 0 to the target rate: where
# loss sets in, and the highest rate forwarded without loss. Runs that report other per-interval
# figures (iperf3: goodput, RTT, congestion window, retransmits) get one chart per figure over time.
# Only result sets that carry samples get these charts; summary-only loadtests are charted by the
# throughput notebook.

# %% tags=["parameters"]
slug = "linux-netns-ipv4-ramp-2026-11"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/loadtest"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import SAMPLE_SERIES, ramp_chart, ramp_latency_chart, samples_chart
from wirespeed.steps.notebook import open_set
from wirespeed.catalog.view import ramp_tests, ramps
from wirespeed.presentation.tables.ramp import ramp_table
from wirespeed.presentation.tables.loss_onset import loss_onset_table

run = open_set(slug, catalog, output_dir)
samples = run.samples()
table = ramp_table(samples, run.summary)
if table is not None:
    display(run.out.table(table))
for test in run.tests:  # per ramp of a test: the declared limit, loss onset and the other readings
    onset = loss_onset_table(samples, run.summary, test["id"])
    if onset is not None:
        display(run.out.table(onset))

# %%
tests = {t["id"]: t for t in run.tests}
found = ramps(samples, tests=ramp_tests(run.summary["meta"]))  # the catalog's ramps, each summarised once (the table above reads the same)
for test_id in dict.fromkeys(s["test_id"] for s in samples):
    of_test = [r for r in found if r.test_id == test_id]
    if of_test:
        pts = sorted((p for r in of_test for p in r.points), key=lambda s: s["t_s"])
        # the onset is marked when the test ramps one series (several variants get the loss panel, and the table, per variant)
        onset = of_test[0].summary.onset_t_s if len(of_test) == 1 else None
        line = {r.line_rate_fps for r in of_test if r.line_rate_fps}  # the catalog's line rate, never recomputed here
        display(run.out.chart(ramp_chart(pts, tests[test_id], onset, line.pop() if len(line) == 1 else None,
                                         run.summary["meta"]["dut"].get("forwarding_cap_pps"))))
        display(run.out.chart(ramp_latency_chart(pts, tests[test_id])))
    for metric in SAMPLE_SERIES:
        chart = samples_chart(samples, tests[test_id], metric)
        if chart is not None:
            display(run.out.chart(chart))

# %%
run.finish()
