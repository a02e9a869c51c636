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
from wirespeed.engine.ramp import summarise
from wirespeed.presentation.tables.multicast import ramp_table
from wirespeed.presentation.ramptable import loss_onset_table

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
for test_id in dict.fromkeys(s["test_id"] for s in samples):
    # a ramp needs both rates of a sample (iperf3 client intervals carry only what was sent)
    pts = sorted((s for s in samples if s["test_id"] == test_id and s["tx_rate_fps"] is not None and s["rx_rate_fps"] is not None), key=lambda s: s["t_s"])
    if pts:
        # the onset is marked when the test ramps one series (several variants get the loss panel, and the table, per variant)
        one = len({(p["variant"], p["direction"], p["port"], p["frame_size"]) for p in pts}) == 1
        ramp = summarise([(p["t_s"], p["tx_rate_fps"], p["rx_rate_fps"]) for p in pts])
        # the line rate is the catalog's (one frame size per ramp), never recomputed here
        line = {r["line_rate_fps"] for r in run.summary["rows"] if r["test_id"] == test_id and r.get("line_rate_fps") and r["frame_size"] in {p["frame_size"] for p in pts}}
        display(run.out.chart(ramp_chart(pts, tests[test_id], ramp.onset_t_s if one else None, line.pop() if len(line) == 1 else None,
                                         run.summary["meta"]["dut"].get("forwarding_cap_pps"))))
        display(run.out.chart(ramp_latency_chart(pts, tests[test_id])))
    for metric in SAMPLE_SERIES:
        chart = samples_chart(samples, tests[test_id], metric)
        if chart is not None:
            display(run.out.chart(chart))

# %%
run.finish()
