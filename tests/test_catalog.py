"""The DuckDB catalog: incremental ingest, every row accounted for, derived figures from the engine."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest

from conftest import run_cli
from wirespeed.catalog.store import ingest, result_folders


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "catalog.duckdb"


def test_ingest_is_incremental(archive_copy: Path, db: Path):
    first = {r.slug: r for r in ingest(result_folders(archive_copy), db)}
    assert {r.action for r in first.values()} == {"loaded"}
    assert first["cisco-nexus-9516-128x100g-2015"].rows_loaded == 77 + 231
    second = {r.slug: r for r in ingest(result_folders(archive_copy), db)}
    assert {r.action for r in second.values()} == {"unchanged"}
    csv = archive_copy / "cisco-7600-osm-acl-2001" / "baseline.csv"
    csv.write_text(csv.read_text().replace("baseline,64,26.9,91.2", "baseline,64,26.9,91.1"))
    third = {r.slug: r for r in ingest(result_folders(archive_copy), db)}
    assert third["cisco-7600-osm-acl-2001"].action == "loaded"
    assert [s for s, r in third.items() if r.action == "loaded"] == ["cisco-7600-osm-acl-2001"]
    con = duckdb.connect(str(db))
    assert con.execute("SELECT text FROM cells JOIN rows USING (slug, row_id) WHERE test_id='baseline' AND frame_size=64 AND metric='throughput_max_theoretical'").fetchone() == ("91.1",)


def test_removed_folder_is_pruned(archive_copy: Path, db: Path):
    ingest(result_folders(archive_copy), db)
    import shutil

    shutil.rmtree(archive_copy / "keysight-ixnetwork-ve-dpdk-400g-2022")
    reports = {r.slug: r.action for r in ingest(result_folders(archive_copy), db)}
    assert reports["keysight-ixnetwork-ve-dpdk-400g-2022"] == "removed"
    con = duckdb.connect(str(db))
    assert con.execute("SELECT count(*) FROM rows WHERE slug LIKE 'keysight%'").fetchone() == (0,)


def test_every_row_is_loaded_or_rejected_with_a_reason(archive_copy: Path, db: Path):
    csv = archive_copy / "cisco-7600-osm-acl-2001" / "packet-filtering.csv"
    csv.write_text(csv.read_text().replace("filter-no-acl,64,26.9,34.6,0,0", "filter-no-acl,64,26.9,lots,0,0"))
    reports = {r.slug: r for r in ingest(result_folders(archive_copy), db)}
    r = reports["cisco-7600-osm-acl-2001"]
    assert (r.rows_read, r.rows_loaded, r.rows_rejected) == (30, 29, 1)
    con = duckdb.connect(str(db))
    file, line, reason, rule = con.execute("SELECT file, line, reason, rule FROM rejects WHERE slug = 'cisco-7600-osm-acl-2001'").fetchone()
    assert file.endswith("packet-filtering.csv") and line == 4 and "latency_avg_us" in reason and rule == "csv.non-numeric"


def test_broken_set_is_rejected_whole_and_counted(archive_copy: Path, db: Path):
    toml = archive_copy / "keysight-ixnetwork-ve-dpdk-400g-2022" / "result.toml"
    toml.write_text(toml.read_text().replace('licence = "CC0-1.0"\n', ""))
    reports = {r.slug: r for r in ingest(result_folders(archive_copy), db)}
    r = reports["keysight-ixnetwork-ve-dpdk-400g-2022"]
    assert r.action == "rejected" and r.rows_read == 7 and r.rows_rejected == 7 and r.rows_loaded == 0
    con = duckdb.connect(str(db))
    assert "licence" in con.execute("SELECT reason FROM rejects WHERE slug LIKE 'keysight%'").fetchone()[0]


def test_cli_ingest_prints_counts_and_fails_on_rejects(archive_copy: Path, db: Path):
    proc = run_cli("ingest", "--db", str(db), *map(str, result_folders(archive_copy)))
    assert proc.returncode == 0, proc.stderr
    assert "cisco-nexus-9516-128x100g-2015: loaded, 308 rows read, 308 loaded, 0 rejected" in proc.stdout
    per_set = [int(n) for n in re.findall(r"^\S+: loaded, (\d+) rows read, \1 loaded, 0 rejected$", proc.stdout, re.M)]
    assert len(per_set) == len(result_folders(archive_copy))
    total = sum(per_set)  # 767 in the eight examples, 1,047 with the measured trend series
    assert f"{total} rows read, {total} loaded, 0 rejected" in proc.stderr and total >= 767
    csv = archive_copy / "cisco-7600-osm-acl-2001" / "baseline.csv"
    csv.write_text(csv.read_text() + "baseline,2048,x,1\n")
    proc = run_cli("ingest", "--db", str(db), *map(str, result_folders(archive_copy)))
    assert proc.returncode == 1
    assert "cisco-7600-osm-acl-2001: loaded, 31 rows read, 30 loaded, 1 rejected" in proc.stdout


def test_derived_figures_in_the_catalog(db: Path):
    from conftest import ARCHIVE

    ingest(result_folders(ARCHIVE), db)
    con = duckdb.connect(str(db))
    line, pct, l2 = con.execute(
        "SELECT d.line_rate_fps, d.throughput_pct_line_rate, d.throughput_l2_bps FROM derived d JOIN rows r USING (slug, row_id)"
        " WHERE r.slug = 'cisco-nexus-9516-128x100g-2015' AND r.test_id = 'l2-multicast' AND r.frame_size = 64").fetchone()
    assert line == pytest.approx(18_898_809_523.8, abs=0.1)
    assert round(pct, 3) == 99.999 and round(l2 / 1e12, 3) == 9.676
    wide = con.execute("SELECT throughput_fps, latency_avg_s, jitter_max_s FROM measurements WHERE slug='cisco-nexus-9516-128x100g-2015'"
                       " AND test_id='ipv6-unicast' AND frame_size=86 AND load_pct=99.999").fetchone()
    assert wide == (15094190275.0, pytest.approx(4.06e-6), pytest.approx(2.30e-6))
    n, agree = con.execute("SELECT count(*), count(*) FILTER (WHERE agree) FROM agreements").fetchone()
    assert (n, agree) == (277, 260)
    meta = json.loads(con.execute("SELECT meta FROM result_sets WHERE slug='cisco-7600-osm-acl-2001'").fetchone()[0])
    assert meta["dut"]["forwarding_cap_pps"] == 30e6
