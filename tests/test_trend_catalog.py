"""Trend series through the catalog, the trend pages' data and the Parquet archive, on a SYNTHETIC series
(tests/trend_sets.py; never published): the catalog orders the sets version-aware, feeds every trial to
jumpavg, cuts the series where the instrument changed, and the archive it exports reads back in DuckDB."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from trend_sets import write_series
from wirespeed.catalog import archive, store, trend
from wirespeed.presentation.charts import compile_chart
from wirespeed.site import trend_pages


@pytest.fixture(scope="module")
def trend_catalog(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("trend")
    folders = write_series(root / "results", n_sets=20, step_at=12, step=-0.05, testbed_at=16, seed=3)
    folders += write_series(root / "results", n_sets=3, prefix="draft-trend", status="draft", seed=4)  # drafts never join a series
    db = root / "wirespeed.duckdb"
    reports = store.ingest(folders, db)
    assert all(r.action == "loaded" for r in reports), [(r.slug, r.errors) for r in reports if r.action != "loaded"]
    return db


def test_the_catalog_orders_by_version_and_finds_the_step_and_the_test_bed_change(trend_catalog):
    con = duckdb.connect(str(trend_catalog), read_only=True)
    try:
        series = {r["metric"]: r for r in trend.series_list(con)}
        assert set(series) == {"throughput", "latency_min"}
        s = trend.series_detail(con, series["throughput"]["series"])
        assert s["series"] == "example-synthetic-router-1/ipv4-64b-uni-throughput"
        assert s["ordered_by"] == "version" and s["components"] == ["Example OS"] and s["sets"] == 20 and s["trials"] == 60
        # version order, not slug order: synthetic-trend-20 carries 1.0.0, synthetic-trend-01 carries 1.0.19
        assert [p["version"] for p in s["points"]][:3] == ["Example OS 1.0.0", "Example OS 1.0.1", "Example OS 1.0.2"]
        assert s["points"][10]["version"] == "Example OS 1.0.10" and s["points"][0]["slug"] == "synthetic-trend-20"
        assert all(len(p["trials"]) == 3 for p in s["points"])  # every trial, not the means
        kinds = [(c["position"], c["kind"]) for c in s["changes"]]
        assert kinds == [(12, "regression"), (16, "testbed")]
        assert s["changes"][1]["testbed"] == "instrument: Example Generator A → Example Generator B"  # the vendor once (engine/names.py)
        assert -0.07 < s["changes"][0]["relative"] < -0.03 and s["changes"][0]["confidence"] > 0.99
        lat = trend.series_detail(con, series["latency_min"]["series"])
        assert [(c["position"], c["kind"]) for c in lat["changes"]][0] == (12, "regression")  # latency rose: worse
        assert not con.execute("SELECT count(*) FROM trend_points WHERE slug LIKE 'draft-%'").fetchone()[0]
        assert trend.set_series(con, "synthetic-trend-08") == sorted(series[m]["series"] for m in series)
    finally:
        con.close()


def test_refresh_is_skipped_while_the_published_sets_are_unchanged(trend_catalog):
    con = store.connect(trend_catalog)
    try:
        assert trend.refresh(con) is False
        assert trend.refresh(con, force=True) is True
    finally:
        con.close()


def test_trend_pages_and_the_parquet_archive(trend_catalog, tmp_path):
    con = duckdb.connect(str(trend_catalog), read_only=True)
    try:
        slugs = [s for (s,) in con.execute("SELECT slug FROM published_sets ORDER BY slug").fetchall()]
        assert trend_pages.export(con, slugs, tmp_path / "data", tmp_path / "static", tmp_path / "trends") == []
        files = archive.export(con, tmp_path / "static" / "archive", slugs)
        points = con.execute("SELECT count(*), sum(len(trials)) FROM trend_points").fetchone()
    finally:
        con.close()
    index = json.loads((tmp_path / "data" / "wirespeed" / "trends" / "index.json").read_text())
    assert [d["id"] for d in index["devices"]] == ["example-synthetic-router-1"]
    assert [c["kind"] for c in index["changes"]] == ["regression", "regression"]  # the test-bed change is not one
    page = json.loads((tmp_path / "data" / "wirespeed" / "trends" / "series" / "example-synthetic-router-1" / "ipv4-64b-uni-throughput.json").read_text())
    assert page["changes"][0]["sentence"].startswith("Regression at Example OS 1.0.12 (result set synthetic-trend-08, 13 November 2026): throughput fell from ")
    assert page["changes"][1]["sentence"].startswith("The test bed changed at Example OS 1.0.16")
    assert page["limits"].startswith("This series could not have detected a fall under ") and "since its last test-bed change" in page["limits"]
    assert page["points"][0][0] == 20 and len(page["points"]) == 20  # newest first
    for _, ext in trend_pages.CHART_FILES:
        assert (tmp_path / "static" / "trends" / page["id"] / f"trend{ext}").stat().st_size > 0
    spec = json.loads((tmp_path / "static" / "trends" / page["id"] / "trend.vl.json").read_text())
    assert "regression" in json.dumps(spec) and "test bed changed" in json.dumps(spec)
    # a second export renders nothing again: the charts are fresh
    before = (tmp_path / "trends" / "series" / page["id"] / "manifest.json").stat().st_mtime_ns
    con = duckdb.connect(str(trend_catalog), read_only=True)
    try:
        trend_pages.export(con, slugs, tmp_path / "data2", tmp_path / "static2", tmp_path / "trends")
    finally:
        con.close()
    assert (tmp_path / "trends" / "series" / page["id"] / "manifest.json").stat().st_mtime_ns == before

    # the archive: hive partitions device / test / year, read by DuckDB as they are
    assert "measurements/device=example-synthetic-router-1/test=ipv4/year=2026/data_0.parquet" in files
    root = (tmp_path / "static" / "archive").as_posix()
    reader = duckdb.connect()
    rows = reader.execute(f"SELECT device, test, year, count(*), count(DISTINCT slug) FROM read_parquet('{root}/measurements/**/*.parquet', hive_partitioning = true)"
                          " GROUP BY ALL").fetchall()
    assert rows == [("example-synthetic-router-1", "ipv4", 2026, 60, 20)]
    got = reader.execute(f"SELECT count(*), sum(len(trials)) FROM read_parquet('{root}/trend_points/**/*.parquet', hive_partitioning = true)").fetchone()
    assert got == points
    changes = reader.execute(f"SELECT kind, position FROM read_parquet('{root}/trend_changes/**/*.parquet', hive_partitioning = true)"
                             " WHERE series LIKE '%throughput' ORDER BY position").fetchall()
    assert changes == [("regression", 12), ("testbed", 16)]
    tp = reader.execute(f"SELECT throughput_fps FROM read_parquet('{root}/measurements/**/*.parquet', hive_partitioning = true)"
                        " WHERE slug = 'synthetic-trend-20' ORDER BY row_id").fetchall()
    assert len(tp) == 3 and all(6e6 < v < 9e6 for (v,) in tp)
    assert json.loads((tmp_path / "static" / "archive" / "index.json").read_text())["files"] == files


def test_the_trend_chart_compiles(trend_catalog):
    con = duckdb.connect(str(trend_catalog), read_only=True)
    try:
        detail = trend.series_detail(con, "example-synthetic-router-1/ipv4-64b-uni-throughput")
    finally:
        con.close()
    from wirespeed.presentation import trend_chart

    spec = compile_chart(trend_chart.definition(detail, "trend"))
    assert spec["description"].startswith("IPv4 forwarding: throughput, 64-byte frames, unidirectional: 20 result sets in software version order, 60 trials")
    layers = spec["layer"]
    assert any(layer.get("mark", {}).get("type") == "point" and layer["data"]["values"] and "kind" in layer["data"]["values"][0] for layer in layers)


def test_a_group_band_stops_at_zero(trend_catalog):
    """mean ± 1 standard deviation, never below zero: a group whose deviation exceeds its mean (a noisy maximum latency)
    drew a band, and so a scale, down to a negative latency."""
    con = duckdb.connect(str(trend_catalog), read_only=True)
    try:
        detail = trend.series_detail(con, "example-synthetic-router-1/ipv4-64b-uni-throughput")
    finally:
        con.close()
    from wirespeed.presentation import trend_chart

    g = detail["groups"][0]
    noisy = {**detail, "groups": [{**g, "stdev": 2 * g["avg"]}] + detail["groups"][1:]}
    bands = trend_chart.definition(noisy, "trend")["groups"]
    assert bands[0]["lo"] == 0.0 and bands[0]["hi"] == pytest.approx(3 * bands[0]["avg"])
    assert all(b["lo"] > 0 for b in bands[1:])  # the others as they were: each mean less one deviation
