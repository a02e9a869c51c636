-- The wirespeed catalog: every result set's rows as loaded, and what the engine derived from them.
-- Values are in canonical units: frames/s, bit/s, seconds, percent, frames, bytes.

CREATE TABLE IF NOT EXISTS catalog_info (key VARCHAR PRIMARY KEY, value VARCHAR);

CREATE TABLE IF NOT EXISTS result_sets (
  slug VARCHAR PRIMARY KEY, path VARCHAR, content_hash VARCHAR, engine_hash VARCHAR,
  format_version INTEGER, title VARCHAR, summary VARCHAR, status VARCHAR, embargo_until VARCHAR,
  licence VARCHAR, source_kind VARCHAR, publisher VARCHAR, publication_kind VARCHAR, document VARCHAR,
  published VARCHAR, year INTEGER, commissioned_by VARCHAR, dut_vendor VARCHAR, dut_model VARCHAR,
  dut_kind VARCHAR, instrument VARCHAR, forwarding_cap_pps DOUBLE, meta JSON
);

CREATE TABLE IF NOT EXISTS files (slug VARCHAR, path VARCHAR, role VARCHAR, sha256 VARCHAR);

CREATE TABLE IF NOT EXISTS tests (
  slug VARCHAR, test_id VARCHAR, position INTEGER, title VARCHAR, rfc VARCHAR[], scenario VARCHAR,
  topology VARCHAR, ports INTEGER, port_speed VARCHAR, media VARCHAR, link_bps DOUBLE,
  payload_bps DOUBLE, direction VARCHAR, receivers INTEGER, frame_size_convention VARCHAR,
  meta JSON, methodology JSON
);

-- One row per CSV row (or imported row); keys only.
CREATE TABLE IF NOT EXISTS rows (
  slug VARCHAR, row_id INTEGER, kind VARCHAR, file VARCHAR, line INTEGER, test_id VARCHAR,
  frame_size INTEGER, imix VARCHAR, load_pct DOUBLE, direction VARCHAR, variant VARCHAR,
  trial INTEGER, component VARCHAR, port VARCHAR, t_s DOUBLE, bucket_low_us DOUBLE, bucket_high_us DOUBLE
);

-- One row per published number: as printed and in canonical units, with its rounding interval.
CREATE TABLE IF NOT EXISTS cells (
  slug VARCHAR, row_id INTEGER, metric VARCHAR, text VARCHAR, unit VARCHAR, unit_symbol VARCHAR,
  unit_factor DOUBLE, decimals INTEGER, qualifier VARCHAR, value DOUBLE, lo DOUBLE, hi DOUBLE
);

-- What the engine derives per measurement row (linerate.py, derive.py).
CREATE TABLE IF NOT EXISTS derived (
  slug VARCHAR, row_id INTEGER, frame_bytes DOUBLE, wire_bits DOUBLE, streams INTEGER,
  line_rate_fps DOUBLE, max_theoretical_fps DOUBLE, capped BOOLEAN,
  throughput_fps DOUBLE, throughput_fps_lo DOUBLE, throughput_fps_hi DOUBLE, throughput_source VARCHAR,
  throughput_l1_bps DOUBLE, throughput_l2_bps DOUBLE, throughput_pct_line_rate DOUBLE,
  throughput_pct_max_theoretical DOUBLE, line_rate_l1_bps DOUBLE,
  lost_frames DOUBLE, loss_pct DOUBLE, forwarding_rate_fps DOUBLE
);

-- RFC 2544 throughput computed from trials (rfc2544.py).
CREATE TABLE IF NOT EXISTS trial_throughput (
  slug VARCHAR, test_id VARCHAR, frame_size INTEGER, imix VARCHAR, direction VARCHAR, variant VARCHAR,
  throughput_fps DOUBLE, min_fps DOUBLE, max_fps DOUBLE, trials INTEGER, line_rate_fps DOUBLE
);

-- Published derived figures next to their recomputation (consistency.py).
CREATE TABLE IF NOT EXISTS agreements (
  slug VARCHAR, row_id INTEGER, test_id VARCHAR, metric VARCHAR, "where" VARCHAR, published VARCHAR,
  published_lo DOUBLE, published_hi DOUBLE, recomputed DOUBLE, recomputed_lo DOUBLE, recomputed_hi DOUBLE,
  recomputed_text VARCHAR, unit_symbol VARCHAR, basis VARCHAR, agree BOOLEAN
);

-- Validation and check findings (errors reject rows; warnings and acknowledged errata are kept).
CREATE TABLE IF NOT EXISTS findings (
  slug VARCHAR, file VARCHAR, line INTEGER, field VARCHAR, message VARCHAR, rule VARCHAR, severity VARCHAR
);

-- Input rows that were not loaded, with the reason.
CREATE TABLE IF NOT EXISTS rejects (slug VARCHAR, file VARCHAR, line INTEGER, reason VARCHAR, rule VARCHAR);

-- Trend series across published result sets (catalog/trend.py, engine/trend.py): one row per series.
-- noise: relative trial-to-trial variation within groups; detect_*: the smallest relative change the
-- series could have shown in its newest set alone and held over the second half of its last segment.
CREATE TABLE IF NOT EXISTS trend_series (
  series VARCHAR, device VARCHAR, dut_vendor VARCHAR, dut_model VARCHAR, test_id VARCHAR, test_title VARCHAR,
  frame_size INTEGER, imix VARCHAR, load_pct DOUBLE, direction VARCHAR, variant VARCHAR, metric VARCHAR, better VARCHAR,
  ordered_by VARCHAR, components VARCHAR[], sets INTEGER, trials INTEGER, noise DOUBLE, detect_newest DOUBLE, detect_sustained DOUBLE
);

-- Each series' result sets in order, with every trial (canonical units), its group and the group's mean;
-- anomaly: regression, progression or testbed where a new group starts.
CREATE TABLE IF NOT EXISTS trend_points (
  series VARCHAR, position INTEGER, slug VARCHAR, version VARCHAR, date VARCHAR, testbed JSON, trials DOUBLE[], mean DOUBLE,
  grp INTEGER, trend DOUBLE, trend_stdev DOUBLE, anomaly VARCHAR
);

CREATE TABLE IF NOT EXISTS trend_groups (
  series VARCHAR, grp INTEGER, first INTEGER, last INTEGER, trials INTEGER, avg DOUBLE, stdev DOUBLE, segment INTEGER
);

-- Where a series changed: found by jumpavg (regression, progression: bits saved, confidence, the smallest
-- change groups of these sizes could show) or forced (testbed: what changed).
CREATE TABLE IF NOT EXISTS trend_changes (
  series VARCHAR, position INTEGER, slug VARCHAR, version VARCHAR, date VARCHAR, kind VARCHAR, before_avg DOUBLE, after_avg DOUBLE,
  relative DOUBLE, n_before INTEGER, n_after INTEGER, bits DOUBLE, confidence DOUBLE, smallest DOUBLE, testbed VARCHAR
);

-- A synthetic set (made by a simulator) is never published, whatever its status says (validation refuses it too).
CREATE OR REPLACE VIEW published_sets AS
SELECT * FROM result_sets
WHERE (status = 'published' OR (status = 'embargoed' AND embargo_until <= strftime(current_date, '%Y-%m-%d')))
  AND source_kind <> 'synthetic';
