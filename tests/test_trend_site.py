"""The trend pages of the built examples: the measured series (data/results/linux-netns-nft-series-2026-11-*,
collected by examples/collect/trend/collect.sh: IPv4 forwarding in network namespaces, alternating an empty
nftables forward chain and one of 100 rules) shows its real step found and explained, every page states what
its series could not have detected, the set pages and the device link to them, and the Parquet archive the
site publishes reads back in DuckDB."""

from __future__ import annotations

import json
import re

import duckdb
import pytest

from conftest import ARCHIVE
from pipeline import BUILD, PUBLIC, build, read_catalog

SERIES_SETS = sorted(p.name for p in ARCHIVE.glob("linux-netns-nft-series-2026-11-*"))
pytestmark = pytest.mark.skipif(len(SERIES_SETS) < 20, reason="the measured trend series is not in data/results")


@pytest.fixture(scope="module")
def site():
    build("site")
    return PUBLIC


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#43;", "+")


def test_the_measured_series_finds_its_real_step():
    """Minimum latency, version order: the same device's sets that name no forward chain (the bridge example's
    IPv4 forwarding, on a test bed it did not state: a forced boundary), then 0 rules, then 100 rules; one
    regression, where the 100-rule sets start."""
    with read_catalog() as con:
        (sid,) = con.execute("SELECT series FROM trend_series WHERE metric = 'latency_min' AND test_id = 'ipv4-forward'").fetchone()
        points = con.execute("SELECT position, slug, version FROM trend_points WHERE series = ? ORDER BY position", [sid]).fetchall()
        changes = con.execute("SELECT position, kind, relative, confidence FROM trend_changes WHERE series = ?", [sid]).fetchall()
    assert {slug for _, slug, _ in points} >= set(SERIES_SETS) and len(SERIES_SETS) >= 20
    first_0 = next(pos for pos, _slug, version in points if version.endswith(" 0 rules"))
    first_100 = next(pos for pos, _slug, version in points if version.endswith("100 rules"))
    assert all(version.endswith("not named") for _, _, version in points[:first_0])  # the sets without the chain first
    assert all(version.endswith(" 0 rules") for _, _, version in points[first_0:first_100])
    assert all(version.endswith(" 100 rules") for _, _, version in points[first_100:])
    step = [c for c in changes if c[0] == first_100]
    assert [c[1] for c in step] == ["regression"], changes
    assert 0.15 < step[0][2] < 0.45 and step[0][3] > 0.9999  # about 4 ns a rule on about 1.7 µs
    # Any other change jumpavg finds in this real series (sets whose trials all ran slower while the shared VM was
    # busy) is smaller than the step
    others = [c for c in changes if c[1] != "testbed" and c[0] != first_100]
    assert all(abs(c[2]) < step[0][2] for c in others), changes
    assert all(pos <= first_0 for pos, kind, *_ in changes if kind == "testbed")  # a test bed changes only where the series starts


def test_trend_pages_explain_the_change_and_state_the_limits(site):
    index = json.loads((BUILD / "hugo-data" / "wirespeed" / "trends" / "index.json").read_text())
    (device,) = [d for d in index["devices"] if any(s["name"].endswith("latency-min") for s in d["series"])]
    series = next(s for s in device["series"] if s["name"] == "ipv4-forward-64b-uni-ndr-50-latency-min")
    page = _text((site / "trends" / series["id"] / "index.html").read_text())
    assert re.search(r"Regression at nftables forward chain of wst-dut 100 rules \(result set linux-netns-nft-series-2026-11-\d\d, [^)]+\): "
                     r"minimum latency rose from \d\.\d{3} to \d\.\d{3} µs \(\+\d\d\.\d %; \d+ trials before, \d+ after\), confidence > 99\.99 %", page), page[:2000]
    assert "This series could not have detected a rise under " in page and "in the newest result set alone" in page
    for s in device["series"]:  # every series page says what it could not have detected
        assert "could not have detected" in _text((site / "trends" / s["id"] / "index.html").read_text()), s["id"]
    trends = _text((site / "trends" / "index.html").read_text())
    assert "Regressions and progressions, newest first" in trends and "minimum latency, 64-byte frames" in trends
    assert (site / "trends" / "trends.pdf").stat().st_size > 10_000 and (site / "trends" / "changes.csv").is_file()
    # linked from each set of the series and from the device
    for slug in SERIES_SETS:
        html = (site / "results" / slug / "index.html").read_text()
        assert f'/trends/{series["id"]}/' in html and f'/trends/{device["id"]}/' in html, slug
    assert f'/trends/{series["id"]}/' in (site / "trends" / device["id"] / "index.html").read_text()


def test_the_published_parquet_archive_reads_back(site):
    root = (site / "archive").as_posix()
    files = json.loads((site / "archive" / "index.json").read_text())["files"]
    assert any(f.startswith("measurements/device=") and "/test=" in f and "/year=" in f for f in files)
    con = duckdb.connect()
    sets = con.execute(f"SELECT count(DISTINCT slug) FROM read_parquet('{root}/measurements/**/*.parquet', hive_partitioning = true)").fetchone()[0]
    exported = len(list((BUILD / "hugo-data" / "wirespeed" / "sets").glob("*.json")))
    assert sets == exported
    got = con.execute(f"SELECT kind, count(*) FROM read_parquet('{root}/trend_changes/**/*.parquet', hive_partitioning = true)"
                      " WHERE series LIKE '%ndr-50-latency-min' AND relative > 0.15 GROUP BY ALL").fetchall()
    assert got == [("regression", 1)]  # the real step
    years = {y for (y,) in con.execute(f"SELECT DISTINCT year FROM read_parquet('{root}/trend_points/**/*.parquet', hive_partitioning = true)").fetchall()}
    assert years == {2026}


def test_every_sets_trend_links_asked_at_once_are_those_asked_set_by_set():
    """all_set_links (one query for the export) against the question asked per set and per series, for every set."""
    from wirespeed.catalog import trend as catalog_trend
    from wirespeed.site import trend_pages

    with read_catalog() as con:
        slugs = [s for (s,) in con.execute("SELECT slug FROM result_sets ORDER BY slug").fetchall()]
        together = trend_pages.all_set_links(con, slugs)
        for slug in slugs:
            one = []
            for sid in catalog_trend.set_series(con, slug):
                rel = con.execute("SELECT * FROM trend_series WHERE series = ?", [sid])
                s = dict(zip([d[0] for d in rel.description], rel.fetchone()))
                one.append({"title": trend_pages.trend_text.title(s), "url": f"trends/{sid}"})
            assert [l for l in together.get(slug, {}).get("series", [])] == one, slug
        assert all(together[s]["device"]["url"].startswith("trends/") for s in SERIES_SETS)
        assert not any(s.startswith("cisco-") for s in together)  # sets in no series link none
