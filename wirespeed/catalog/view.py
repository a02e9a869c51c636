"""A result set as the catalog holds it: metadata, rows with their printed cells, derived figures,
agreements and findings. The one reader behind `wirespeed show`, the notebooks and the site data."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from wirespeed.catalog.store import connect
from wirespeed.engine.ramp import DEFAULT_THRESHOLD_PCT, RampSummary, running_stream, summarise
from wirespeed.resultset.methodology import merged


class UnknownSet(LookupError):
    """No such result set in the catalog."""


def _dicts(cur) -> list[dict[str, Any]]:
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def set_summary(con: duckdb.DuckDBPyConnection, slug: str) -> dict[str, Any]:
    """Everything `show` prints about one result set."""
    sets = _dicts(con.execute("SELECT * FROM result_sets WHERE slug = ?", [slug]))
    if not sets:
        known = [r[0] for r in con.execute("SELECT slug FROM result_sets ORDER BY slug").fetchall()]
        raise UnknownSet(f"no result set {slug!r} in the catalog (known: {', '.join(known) or 'none'})")
    meta = json.loads(sets[0]["meta"])
    tests = _dicts(con.execute("SELECT test_id, title, rfc, scenario, topology, ports, port_speed, direction FROM tests WHERE slug = ? ORDER BY position", [slug]))
    rows = _dicts(con.execute(
        "SELECT r.row_id, r.kind, r.file, r.line, r.test_id, r.frame_size, r.imix, r.load_pct, r.direction, r.variant, r.trial, r.component, r.port,"
        " d.frame_bytes, d.line_rate_fps, d.max_theoretical_fps, d.capped, d.throughput_fps, d.throughput_l1_bps, d.throughput_l2_bps,"
        " d.throughput_pct_line_rate, d.throughput_pct_max_theoretical, d.lost_frames, d.loss_pct, d.forwarding_rate_fps"
        " FROM rows r LEFT JOIN derived d USING (slug, row_id) WHERE r.slug = ? AND r.kind = 'measurements' ORDER BY r.row_id", [slug]))
    cells = _dicts(con.execute("SELECT row_id, metric, text, unit, unit_symbol, qualifier, value FROM cells WHERE slug = ? ORDER BY row_id", [slug]))
    by_row: dict[int, dict[str, Any]] = {}
    for c in cells:
        by_row.setdefault(c["row_id"], {})[c["metric"]] = {k: c[k] for k in ("text", "unit", "unit_symbol", "qualifier", "value")}
    for r in rows:
        r["cells"] = by_row.get(r["row_id"], {})
    agreements = _dicts(con.execute(
        "SELECT row_id, test_id, metric, \"where\", published, recomputed_text, unit_symbol, recomputed, recomputed_lo, recomputed_hi, basis, agree"
        " FROM agreements WHERE slug = ? ORDER BY row_id, metric, rowid", [slug]))
    findings = _dicts(con.execute("SELECT file, line, field, message, rule, severity FROM findings WHERE slug = ? ORDER BY file, line, rowid", [slug]))
    rejects = _dicts(con.execute("SELECT file, line, reason, rule FROM rejects WHERE slug = ? ORDER BY rowid", [slug]))
    trials = _dicts(con.execute("SELECT * EXCLUDE (slug) FROM trial_throughput WHERE slug = ? ORDER BY rowid", [slug]))  # as inserted (sorted)
    return {"slug": slug, "meta": meta, "tests": tests, "rows": rows, "agreements": agreements, "findings": findings,
            "rejects": rejects, "trial_throughput": trials}


def read_summary(db: Path, slug: str) -> dict[str, Any]:
    """`wirespeed show`: set_summary of one result set of the catalog at db (UnknownSet when it holds none)."""
    con = connect(db)
    try:
        return set_summary(con, slug)
    finally:
        con.close()


def samples(con: duckdb.DuckDBPyConnection, slug: str) -> list[dict[str, Any]]:
    """Per-second loadtest samples of a result set, canonical units, in time order."""
    # a sample's loss: as published, else the device's drop count ÷ sent where it states one (the engine's loss of a running
    # stream); sent − received of one interval is no loss (readers of the rates clip it, wirespeed.engine.ramp.loss_pct)
    return _dicts(con.execute("SELECT s.* REPLACE (coalesce(s.loss_pct, CASE WHEN s.lost_frames IS NOT NULL THEN d.loss_pct END) AS loss_pct),"
                              " d.line_rate_fps FROM samples s LEFT JOIN derived d USING (slug, row_id)"
                              " WHERE s.slug = ? ORDER BY s.test_id, s.frame_size, s.imix, s.direction, s.variant, s.port, s.t_s", [slug]))


@dataclass(frozen=True)
class Ramp:
    """One ramp of a loadtest (test, frame, direction, variant, port): its samples in time order, the
    engine's summary (loss onset, highest lossless rate) and the catalog's line rate. The one owner of
    the ramp summary: the ramp table and the ramp chart both read it."""

    test_id: str
    frame: str
    points: list[dict[str, Any]]
    summary: RampSummary
    line_rate_fps: float | None


def ramp_tests(meta: dict[str, Any]) -> set[str]:
    """The tests of a set that are ramps (wirespeed.engine.ramp.running_stream): their samples are a ramp; the samples
    of any other test (a capture's seconds, an iperf3 run's intervals) are not, and get no ramp table or chart."""
    return {t["id"] for t in meta["tests"] if running_stream(t.get("rfc", []), merged(meta.get("methodology"), t.get("methodology")))}


def ramps(samples: list[dict[str, Any]], threshold_pct: float = DEFAULT_THRESHOLD_PCT, tests: set[str] | None = None) -> list[Ramp]:
    """The ramps of a set's samples (those with both rates; of the `tests` given, see ramp_tests), each summarised once."""
    series: dict[tuple, list[dict[str, Any]]] = {}
    for s in samples:
        if s.get("tx_rate_fps") is None or s.get("rx_rate_fps") is None or (tests is not None and s["test_id"] not in tests):
            continue  # a ramp needs both rates of a sample (iperf3 client intervals carry only what was sent)
        frame = str(s.get("frame_size") or s.get("imix") or "")
        series.setdefault((s["test_id"], frame, s.get("direction"), s.get("variant"), s.get("port")), []).append(s)
    out = []
    for (test_id, frame, *_), pts in series.items():
        pts.sort(key=lambda s: s["t_s"])
        summary = summarise([(p["t_s"], p["tx_rate_fps"], p["rx_rate_fps"], p.get("loss_pct")) for p in pts], threshold_pct)
        out.append(Ramp(test_id, frame, pts, summary, pts[0].get("line_rate_fps") if frame.isdigit() else None))
    return out


def histograms(con: duckdb.DuckDBPyConnection, slug: str) -> list[dict[str, Any]]:
    """Latency histogram buckets of a result set, in bucket order."""
    return _dicts(con.execute("SELECT * FROM histograms WHERE slug = ? ORDER BY test_id, frame_size, load_pct, variant, bucket_low_us", [slug]))
