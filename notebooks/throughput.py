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
# # Throughput and line rate per frame size
#
# RFC 2544 (benchmarking methodology), RFC 2889 (LAN switches), RFC 5180 (IPv6) and RFC 3918 (multicast)
# all report throughput the same way: the highest rate, in frames per second, at which the device
# forwarded every frame it was offered (RFC 2544 §26.1), for each frame size the test used. A rate
# in frames per second means little on its own: a 100 Gbit/s port carries 148.8 million 64-byte
# frames per second but only 8.1 million 1518-byte frames. So each throughput is also shown in bits
# per second and as a share of the line rate, the most frames the links could carry.
#
# This notebook reads the result set from the catalog (a DuckDB file, opened read-only), computes the
# line rate, the bit rates, the shares, the loss and the forwarding rate in view with the formulas
# below, and checks that every one equals, to the last bit, the figure the wirespeed engine stored in
# the catalog (`wirespeed/engine/linerate.py`, `derive.py`). If the engine changes a formula, the
# notebook stops at the check that no longer holds. Then it draws the tables and charts the site
# and the PDF report show.

# %% tags=["parameters"]
slug = "cisco-nexus-9516-128x100g-2015"
catalog = "build/wirespeed.duckdb"
output_dir = "build/analysis/scratch/throughput"

# %%
from statistics import mean

from IPython.display import display

from wirespeed.presentation.charts.definitions import latency_chart, throughput_chart
from wirespeed.analysis.notebook import open_set
from wirespeed.presentation.overview import overview_chart
from wirespeed.presentation.charts.summary import summary_chart
from wirespeed.presentation.tables.trial_throughput import trial_throughput_table
from wirespeed.presentation.tables.results import results_tables

run = open_set(slug, catalog, output_dir)
con = run.con  # the catalog, read-only: every query below can be run and edited here
print(run.summary["meta"]["title"])

# %% [markdown]
# ## The measurements, as the catalog holds them
#
# `rows` has one row per row of the result set's CSV tables (or per row an importer read from a
# tool's own file); `cells` one row per published number, in canonical units (frames/s, bit/s,
# seconds, percent, frames); `tests` the test's ports, link speed and topology; `derived` what the
# engine computed per row. The query gathers what the formulas below need, one row per measurement
# that has a frame size and a link.

# %%
con.execute("""
CREATE TEMP TABLE measured AS
SELECT r.row_id, r.test_id, coalesce(CAST(r.frame_size AS VARCHAR), r.imix) AS frame, r.frame_size,
       t.media, t.payload_bps, t.frame_size_convention AS convention,
       coalesce(CAST(t.methodology ->> 'vlan_tags' AS INTEGER), 0) AS vlan_tags,
       coalesce(CAST(t.meta ->> 'encapsulation_bytes' AS INTEGER), 0) AS encapsulation_bytes,
       t.topology, t.ports, t.receivers, coalesce(r.direction, t.direction) AS direction,
       coalesce(CAST(t.meta ->> 'port_speed_nominal' AS BOOLEAN), false) AS nominal_speed,
       coalesce(list_contains(t.rfc, 'loadtest-ramp') OR (t.methodology ->> 'search') = 'ramp', false) AS running_stream,
       s.forwarding_cap_pps,
       max(c.value) FILTER (WHERE c.metric = 'throughput') AS throughput,
       max(c.value) FILTER (WHERE c.metric = 'throughput_l1') AS throughput_l1,
       max(c.value) FILTER (WHERE c.metric = 'throughput_l2') AS throughput_l2,
       max(c.value) FILTER (WHERE c.metric = 'tx') AS tx, max(c.lo) FILTER (WHERE c.metric = 'tx') AS tx_lo,
       max(c.value) FILTER (WHERE c.metric = 'rx') AS rx,
       max(c.value) FILTER (WHERE c.metric = 'lost') AS lost,
       max(c.value) FILTER (WHERE c.metric = 'duration') AS duration, max(c.lo) FILTER (WHERE c.metric = 'duration') AS duration_lo,
       any_value(d) AS catalog  -- the engine's figures for this row (table derived)
FROM rows r
JOIN derived d USING (slug, row_id)
JOIN tests t USING (slug, test_id)
JOIN result_sets s USING (slug)
LEFT JOIN cells c USING (slug, row_id)
WHERE r.slug = $slug AND r.kind = 'measurements'
GROUP BY ALL
ORDER BY r.row_id
""", {"slug": slug})
measured = con.table("measured")
print(f"{len(measured)} measurement rows with a frame size and a link")
measured.select("row_id, test_id, frame, media, payload_bps, topology, ports, direction, throughput, throughput_l1, throughput_l2, tx, rx, duration").limit(8).show(max_width=250)

# %% [markdown]
# ## Line rate: the most frames the links can carry (RFC 2544 §20 and Appendix B; RFC 5180 Appendix A)
#
# On Ethernet every frame costs its own bytes plus 20 more on the wire: a 7-byte preamble, a 1-byte
# start-of-frame delimiter and a 12-byte inter-frame gap. Frame sizes follow RFC 2544: a "64-byte
# frame" counts its 4-byte FCS (a tool that counts packets without it, such as T-Rex, is corrected by
# +4 bytes, and each 802.1Q tag adds 4). RFC 5180 §5 keeps the same frame sizes for IPv6 (its minimum
# frame is larger, to hold the IPv6 header and the instrument's signature). On Packet over
# SONET/SDH the packet plus its PPP/HDLC framing fills the SONET payload.
#
#     frame bytes      = size (+ 4 for a T-Rex packet) + 4 × VLAN tags   (an IMIX: the catalog's weighted mean)
#     bits on the wire = (frame bytes + 20) × 8                          (Ethernet)
#                      = (frame bytes + encapsulation bytes) × 8         (POS)
#     line rate of one port, frames/s = payload bit/s ÷ bits on the wire
#
# (RFC 5180 Appendix A.1 writes the Ethernet case as line rate ÷ (8 × (X + 20)) and lists its values
# from 10 Mbit/s to 10 Gbit/s; RFC 2544 Appendix B lists them for 10 Mbit/s Ethernet.)
#
# A test's line rate adds up the port-directions that receive at once: every port in a full mesh or a
# bidirectional test, half of them in unidirectional pairs, and each receiver of a multicast test
# (RFC 3918), which gets a copy of every frame. The maximum theoretical rate is the lower of the line
# rate and the forwarding cap the vendor states for the device. A port without a line rate of its
# own (a veth pair, whose speed is only a label) has no line rate and no share of it.

# %%
con.execute("""
CREATE TEMP TABLE line_rate AS
WITH f AS (
  SELECT *, CASE WHEN frame_size IS NULL THEN catalog.frame_bytes  -- an IMIX: its weighted mean frame
                 ELSE frame_size + CASE convention WHEN 'trex-packet' THEN 4 ELSE 0 END + 4 * vlan_tags END AS frame_bytes
  FROM measured
), w AS (
  SELECT *, CASE media WHEN 'ethernet' THEN (frame_bytes + 20) * 8 ELSE (frame_bytes + encapsulation_bytes) * 8 END AS wire_bits,
            CASE WHEN topology = 'multicast' THEN receivers WHEN topology = 'full-mesh' OR direction = 'bidirectional' THEN ports
                 ELSE ports // 2 END AS streams
  FROM f
), l AS (
  SELECT *, CASE WHEN NOT nominal_speed THEN payload_bps / wire_bits * streams END AS line_rate_fps FROM w
)
SELECT row_id, test_id, frame, frame_bytes, catalog.frame_bytes AS catalog_frame_bytes, wire_bits, catalog.wire_bits AS catalog_wire_bits,
       streams, catalog.streams AS catalog_streams, line_rate_fps, catalog.line_rate_fps AS catalog_line_rate_fps,
       CASE WHEN forwarding_cap_pps > 0 AND line_rate_fps IS NOT NULL THEN least(line_rate_fps, forwarding_cap_pps) ELSE line_rate_fps END AS max_theoretical_fps,
       catalog.max_theoretical_fps AS catalog_max_theoretical_fps,
       line_rate_fps * wire_bits AS line_rate_l1_bps, catalog.line_rate_l1_bps AS catalog_line_rate_l1_bps
FROM l ORDER BY row_id
""")
line_rate = con.table("line_rate")
checked = run.agree(line_rate, {"frame_bytes": "catalog_frame_bytes", "wire_bits": "catalog_wire_bits", "streams": "catalog_streams",
                                "line_rate_fps": "catalog_line_rate_fps", "max_theoretical_fps": "catalog_max_theoretical_fps",
                                "line_rate_l1_bps": "catalog_line_rate_l1_bps"}, "line rate")
no_line = con.sql("SELECT count(*) FROM line_rate WHERE line_rate_fps IS NULL").fetchall()[0][0]
print(f"line rate: {checked} rows computed here, each equal to the catalog's" +
      (f"; {no_line} without a line rate (the port speed is a label, not a rate)" if no_line else ""))
line_rate.select("test_id, frame, frame_bytes, wire_bits, streams, line_rate_fps, catalog_line_rate_fps, max_theoretical_fps").limit(8).show(max_width=250)

# %% [markdown]
# ## Throughput in frames/s, bit/s and percent of line rate (RFC 2544 §26.1, RFC 2889 §5)
#
# A source publishes throughput in frames per second, or as a layer-1 bit rate (frames with their
# preamble and gap, what the link carries), or as a layer-2 bit rate (frame bytes only). Each is
# turned into the others:
#
#     frames/s  = published frames/s, else L1 bit/s ÷ bits on the wire, else L2 bit/s ÷ (frame bytes × 8)
#     L1 bit/s  = frames/s × bits on the wire
#     L2 bit/s  = frames/s × frame bytes × 8
#     % of line rate           = frames/s ÷ line rate × 100
#     % of maximum theoretical = frames/s ÷ maximum theoretical rate × 100
#
# 100 % means the device forwarded everything the links could carry; a figure above 100 % is
# impossible and the engine refuses it. Where a source published its own bit rate or share, the table
# of agreements at the end compares it with these.

# %%
con.execute("""
CREATE TEMP TABLE rates AS
WITH t AS (
  SELECT l.*, CASE WHEN m.throughput IS NOT NULL THEN m.throughput
                   WHEN m.throughput_l1 IS NOT NULL THEN m.throughput_l1 / l.wire_bits
                   WHEN m.throughput_l2 IS NOT NULL THEN m.throughput_l2 / (l.frame_bytes * 8) END AS throughput_fps,
         m.catalog
  FROM line_rate l JOIN measured m USING (row_id)
)
SELECT row_id, test_id, frame, throughput_fps, catalog.throughput_fps AS catalog_throughput_fps,
       CASE WHEN line_rate_fps IS NOT NULL THEN throughput_fps * wire_bits END AS throughput_l1_bps, catalog.throughput_l1_bps AS catalog_throughput_l1_bps,
       throughput_fps * frame_bytes * 8 AS throughput_l2_bps, catalog.throughput_l2_bps AS catalog_throughput_l2_bps,
       throughput_fps / line_rate_fps * 100 AS pct_line_rate, catalog.throughput_pct_line_rate AS catalog_pct_line_rate,
       throughput_fps / max_theoretical_fps * 100 AS pct_max_theoretical, catalog.throughput_pct_max_theoretical AS catalog_pct_max_theoretical
FROM t ORDER BY row_id
""")
rates = con.table("rates")
checked = run.agree(rates, {"throughput_fps": "catalog_throughput_fps", "throughput_l1_bps": "catalog_throughput_l1_bps",
                            "throughput_l2_bps": "catalog_throughput_l2_bps", "pct_line_rate": "catalog_pct_line_rate",
                            "pct_max_theoretical": "catalog_pct_max_theoretical"}, "throughput")
with_tp = con.sql("SELECT count(*) FROM rates WHERE throughput_fps IS NOT NULL").fetchall()[0][0]
print(f"throughput: {checked} rows computed here ({with_tp} with a throughput), each equal to the catalog's")
rates.filter("throughput_fps IS NOT NULL").select("test_id, frame, throughput_fps, throughput_l1_bps, throughput_l2_bps, pct_line_rate, catalog_pct_line_rate").limit(8).show(max_width=250)

# %% [markdown]
# ## Frame loss and forwarding rate (RFC 2544 §26.3, RFC 2889 §5.1)
#
# Where a row counts the frames sent (tx) and received (rx) in a trial:
#
#     frames lost     = tx − rx
#     frame loss rate = (tx − rx) × 100 ÷ tx                    (RFC 2544 §26.3, percent)
#     forwarding rate = rx ÷ trial duration                     (RFC 2889 §5.1, frames/s)
#
# A row that counts one interval of a stream that keeps running (a ramp's step) is different: a
# frame sent at the end of one second arrives in the next, so tx − rx of one interval is not a loss.
# There the loss is the device's own drop count ÷ tx × 100, when it states one. A figure is left
# out where its inputs are missing (no count, or a duration of zero).

# %%
con.execute("""
CREATE TEMP TABLE loss AS
WITH c AS (
  SELECT *, running_stream AND lost IS NOT NULL AND tx IS NOT NULL AND tx_lo > 0 AS from_drop_count,
            tx IS NOT NULL AND rx IS NOT NULL AND tx_lo > 0 AS from_counts
  FROM measured
)
SELECT row_id, test_id, frame, tx, rx,
       CASE WHEN NOT from_drop_count AND from_counts THEN tx - rx END AS lost_frames, catalog.lost_frames AS catalog_lost_frames,
       CASE WHEN from_drop_count THEN lost / tx * 100 WHEN from_counts THEN (tx - rx) / tx * 100 END AS loss_pct,
       catalog.loss_pct AS catalog_loss_pct,
       CASE WHEN rx IS NOT NULL AND duration IS NOT NULL AND duration_lo > 0 THEN rx / duration END AS forwarding_rate_fps,
       catalog.forwarding_rate_fps AS catalog_forwarding_rate_fps
FROM c ORDER BY row_id
""")
loss = con.table("loss")
checked = run.agree(loss, {"lost_frames": "catalog_lost_frames", "loss_pct": "catalog_loss_pct", "forwarding_rate_fps": "catalog_forwarding_rate_fps"},
                    "frame loss and forwarding rate")
counted = con.sql("SELECT count(*) FROM loss WHERE loss_pct IS NOT NULL").fetchall()[0][0]
print(f"loss: {checked} rows computed here, each equal to the catalog's" +
      (f"; {counted} with frame counts" if counted else "; no row of this set counts frames sent and received"))
if counted:
    loss.filter("loss_pct IS NOT NULL").select("test_id, frame, tx, rx, lost_frames, loss_pct, forwarding_rate_fps").limit(8).show(max_width=250)

# %% [markdown]
# ## One table and chart per test
#
# The tables the site and the PDF report show, one per test: the published figures, with the derived
# ones computed above beside them (marked as derived). Latency is the one RFC 2544 §26.2 asks for:
# measured at the throughput rate, from the end of a frame sent to the start of it received (or as
# the instrument defines it; the set's methodology says). Jitter is the instrument's delay variation
# between consecutive frames (RFC 4689). Neither can be recomputed from the catalog: they are
# published figures.

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
    chart = overview_chart(run.summary, test["id"])  # None for a test with no throughput figure to draw
    if chart is not None:
        display(run.out.chart(chart))

# %% [markdown]
# ## Summary: every test on one shared scale (the top of a review, the PDF's executive summary)

# %%
chart = summary_chart(run.summary)
if chart is not None:
    display(run.out.chart(chart))

# %% [markdown]
# ## RFC 2544 throughput from trials (result sets that carry per-trial frame counts)
#
# RFC 2544 §26.1 defines throughput as the highest offered rate at which the device lost no frame
# (or no more than the loss tolerance the set's methodology states). A set that publishes each
# trial's frames sent and received at each offered rate lets it be recomputed:
#
#     loss of a trial at a rate = (tx − rx) × 100 ÷ tx                        (RFC 2544 §26.3)
#     throughput of a trial     = the highest offered rate whose worst loss ≤ the tolerance
#     throughput                = the mean over the trials, with their lowest and highest (RFC 2544 §24)
#
# The offered rate is the one published, else the offered load × the line rate. Trials that never
# lost a frame and never reached the line rate only bound the throughput from below (latency trials
# at fixed loads, for instance): they give no throughput. The catalog's table `trial_throughput`
# holds the engine's result (`wirespeed/engine/rfc2544.py`).

# %%
con.execute("""
CREATE TEMP TABLE trials AS
SELECT m.test_id, coalesce(CAST(m.frame_size AS VARCHAR), m.imix) AS frame, coalesce(m.direction, t.direction) AS direction, m.variant, m.trial,
       t.payload_bps / d.wire_bits * d.streams AS line_rate_fps,
       coalesce(m.offered_rate_fps, m.load_pct / 100 * line_rate_fps) AS offered_fps,
       trunc(m.tx_frames) AS tx, trunc(m.rx_frames) AS rx, (tx - rx) * 100 / tx AS loss_pct,
       coalesce(CAST(t.methodology ->> 'loss_tolerance_pct' AS DOUBLE), 0) AS tolerance_pct
FROM measurements m
JOIN tests t USING (slug, test_id)
LEFT JOIN derived d USING (slug, row_id)
WHERE m.slug = $slug AND m.trial IS NOT NULL AND m.tx_frames >= 1 AND m.rx_frames IS NOT NULL
  AND coalesce(m.offered_rate_fps, m.load_pct / 100 * line_rate_fps) IS NOT NULL
""", {"slug": slug})
per_trial = con.sql("""
WITH g AS (  -- per group of trials: did any lose frames, did any reach the line rate
  SELECT *, bool_or(loss_pct > tolerance_pct) OVER w AS lossy,
            max(offered_fps) OVER w >= first(line_rate_fps) OVER w * (1 - 0.001::DOUBLE) AS reached_line_rate
  FROM trials WINDOW w AS (PARTITION BY test_id, frame, direction, variant)
), worst AS (  -- the worst loss at each offered rate of each trial
  SELECT test_id, frame, direction, variant, trial, offered_fps, max(loss_pct) AS worst_loss_pct, any_value(tolerance_pct) AS tolerance_pct
  FROM g WHERE lossy OR reached_line_rate GROUP BY ALL
)
SELECT test_id, frame, direction, variant, trial, max(offered_fps) FILTER (WHERE worst_loss_pct <= tolerance_pct) AS throughput_fps
FROM worst GROUP BY ALL ORDER BY ALL
""")
here = {}
for test_id, frame, direction, variant, trial, fps in per_trial.fetchall():
    here.setdefault((test_id, frame, direction, variant), []).append(fps)
here = {key: ({"throughput_fps": mean(v), "min_fps": min(v), "max_fps": max(v), "trials": len(v)} if None not in v else
              {"throughput_fps": None, "min_fps": None, "max_fps": None, "trials": 0}) for key, v in here.items()}
engine = {(t["test_id"], str(t["frame_size"]) if t["frame_size"] is not None else t["imix"], t["direction"], t["variant"]): {k: t[k] for k in ("throughput_fps", "min_fps", "max_fps", "trials")}
          for t in run.summary["trial_throughput"]}
checked = run.agree_rows(here, engine, "RFC 2544 throughput from trials")
if checked:
    print(f"{checked} throughputs searched from trials here, each equal to the catalog's")
    con.sql("SELECT * EXCLUDE (slug) FROM trial_throughput WHERE slug = $slug ORDER BY rowid", params={"slug": slug}).show(max_width=250)
else:
    print("no test of this set carries per-trial frame counts that search for a throughput")

# %%
table = run.out.table(trial_throughput_table(run.summary))
if table is not None:
    display(table)

# %% [markdown]
# ## Published figures the engine did not reproduce
#
# Where a source published a derived figure itself (a bit rate, a share of line rate, a loss), the
# engine recomputed it from the published frame rate with the formulas above and compared the two
# within the rounding of the printed figures (table `agreements`). A disagreement is not an error
# of this notebook: it is flagged on the site beside the published figure.

# %%
con.sql("""
SELECT metric, count(*) AS figures, count(*) FILTER (WHERE agree) AS agree, count(*) FILTER (WHERE NOT agree) AS disagree
FROM agreements WHERE slug = $slug GROUP BY metric ORDER BY metric
""", params={"slug": slug}).show(max_width=250)

# %%
bad = [a for a in run.summary["agreements"] if not a["agree"]]
for a in bad:
    print(f"{a['where']}: {a['metric']} published {a['published']}, recomputed {a['recomputed_text']} {a['unit_symbol']}")
print(f"{len(run.summary['agreements'])} published derived figures, {len(bad)} disagree")

# %%
run.finish()
