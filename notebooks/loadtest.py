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
# A ramp loadtest (T-Rex style) does not search for the throughput with separate trials as RFC 2544
# §26.1 does: it raises the offered rate step by step, from nothing to the target, and records what
# was sent and received every second. Where the device runs out of capacity, loss sets in. The
# figures read off a ramp are therefore per second: the rate received in the best second without
# loss (the ramp's limit), and where loss set in for good (the loss onset).
#
# This notebook computes both in view from the catalog's samples with the definitions below, checks
# them against the engine's summary (`wirespeed/engine/ramp.py`, the one every table and headline of
# a ramp reads), then draws the tables and charts the site and the PDF report show. Runs that report
# other per-interval figures (iperf3: goodput, RTT, congestion window, retransmits; a capture's
# seconds) get one chart per figure over time. Summary-only loadtests are charted by the throughput
# notebook.

# %% tags=["parameters"]
slug = "linux-netns-ipv4-ramp-2026-11"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/loadtest"

# %%
from IPython.display import display

from wirespeed.presentation.charts.definitions import SAMPLE_SERIES, ramp_chart, ramp_latency_chart, samples_chart
from wirespeed.analysis.notebook import open_set
from wirespeed.catalog.view import ramp_tests, ramps
from wirespeed.presentation.tables.ramp import ramp_table
from wirespeed.presentation.tables.loss_onset import loss_onset_table

run = open_set(slug, catalog, output_dir)
con = run.con  # the catalog, read-only: every query below can be run and edited here
samples = run.samples()

# %% [markdown]
# ## The samples of each ramp
#
# The catalog's view `samples` has one row per second (or per reported interval) with each figure in
# canonical units: `tx_rate_fps` and `rx_rate_fps` the frames per second sent and received. A ramp is
# the samples of one test, frame size, direction, variant and port, in time order. Only the tests the
# set declares as ramps count (methodology `search = "ramp"` or RFC `loadtest-ramp`), and only samples
# with both rates.
#
# A sample's loss is the one it states (the frames the device counted dropping ÷ the frames sent ×
# 100, table `derived`) when it has one. Otherwise it comes from its two rates, clipped at zero: in a
# stream that keeps running, a frame sent at the end of one second arrives in the next, so a second
# can receive more than it sent.
#
#     loss % = lost ÷ tx × 100            when the device counted its drops
#            = max((tx − rx) ÷ tx × 100, 0)  otherwise (0 when nothing was sent)

# %%
con.execute("""
CREATE TEMP TABLE ramp_samples AS
SELECT s.test_id, coalesce(CAST(s.frame_size AS VARCHAR), s.imix, '') AS frame, s.direction, s.variant, s.port, s.t_s,
       s.tx_rate_fps AS tx, s.rx_rate_fps AS rx,
       coalesce(s.loss_pct, CASE WHEN s.lost_frames IS NOT NULL THEN d.loss_pct END) AS stated_loss_pct,
       coalesce(stated_loss_pct, CASE WHEN tx <= 0 THEN 0.0 ELSE greatest((tx - rx) / tx * 100.0, 0.0) END) AS loss_pct
FROM samples s
JOIN tests t USING (slug, test_id)
LEFT JOIN derived d USING (slug, row_id)
WHERE s.slug = $slug AND s.tx_rate_fps IS NOT NULL AND s.rx_rate_fps IS NOT NULL
  AND (list_contains(t.rfc, 'loadtest-ramp') OR (t.methodology ->> 'search') = 'ramp')
ORDER BY s.test_id, frame, s.direction, s.variant, s.port, s.t_s
""", {"slug": slug})
ramp_samples = con.table("ramp_samples")
print(f"{len(ramp_samples)} samples in ramps")
ramp_samples.limit(8).show(max_width=250)

# %% [markdown]
# ## Loss onset and the highest rate without loss
#
# With a threshold of 0.1 % (a sample losing more is lossy):
#
#     highest rate without loss = the largest rx of a sample that is not lossy (the ramp's declared limit)
#     loss onset = the first lossy sample after the last sample that was not: loss that set in and never recovered
#                  (a lossy second followed by a clean one is a blip, not the onset; trex-loadtest-viz reads it so too)
#
# Both are per-second readings, coarser than an RFC 2544 binary search: the limit lies between the
# best clean step and the next one, and a one-second sample can straddle a rate change.

# %%
THRESHOLD_PCT = 0.1
con.execute(f"""
CREATE TEMP TABLE ramp_summary AS
WITH marked AS (SELECT *, loss_pct > {THRESHOLD_PCT} AS lossy FROM ramp_samples),
clean AS (SELECT *, max(t_s) FILTER (WHERE NOT lossy) OVER (PARTITION BY test_id, frame, direction, variant, port) AS last_clean_t_s
          FROM marked)
SELECT test_id, frame, direction, variant, port, count(*) AS samples, max(tx) AS max_tx_fps, max(rx) AS max_rx_fps,
       max(rx) FILTER (WHERE NOT lossy) AS max_lossless_rx_fps,
       min(t_s) FILTER (WHERE lossy AND (last_clean_t_s IS NULL OR t_s > last_clean_t_s)) AS onset_t_s,
       arg_min(tx, t_s) FILTER (WHERE lossy AND (last_clean_t_s IS NULL OR t_s > last_clean_t_s)) AS onset_tx_fps,
       arg_min(rx, t_s) FILTER (WHERE lossy AND (last_clean_t_s IS NULL OR t_s > last_clean_t_s)) AS onset_rx_fps
FROM clean
GROUP BY test_id, frame, direction, variant, port ORDER BY ALL
""")
ramp_summary = con.table("ramp_summary")
FIELDS = ("samples", "max_tx_fps", "max_rx_fps", "max_lossless_rx_fps", "onset_t_s", "onset_tx_fps", "onset_rx_fps")
here = {tuple(r[:5]): dict(zip(FIELDS, r[5:])) for r in ramp_summary.fetchall()}
# the engine's summary of the same ramps (wirespeed.catalog.view.ramps → wirespeed.engine.ramp.summarise)
engine = {(r.test_id, r.frame, r.points[0]["direction"], r.points[0]["variant"], r.points[0]["port"]): {f: getattr(r.summary, f) for f in FIELDS}
          for r in ramps(samples, THRESHOLD_PCT, ramp_tests(run.summary["meta"]))}
checked = run.agree_rows(here, engine, "ramp summary")
if checked:
    print(f"{checked} ramp{'s' if checked > 1 else ''} summarised here, each equal to the engine's summary")
    ramp_summary.show(max_width=250)
else:
    print("no ramp in this set: its samples are intervals of another kind of run, charted over time below")
# %% [markdown]
# ## The ramp tables and charts the site shows

# %%
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
        latency = ramp_latency_chart(pts, tests[test_id])  # None when the ramp measured no latency
        if latency is not None:
            display(run.out.chart(latency))
    for metric in SAMPLE_SERIES:
        chart = samples_chart(samples, tests[test_id], metric)
        if chart is not None:
            display(run.out.chart(chart))

# %%
run.finish()
