"""The Parquet archive's measurements files as the browser reads them (wirespeed/catalog/archive.py): index.json
gives every file's size and the sets each measurements file holds, a partition of SPLIT_ROWS rows or more has one row group per frame size (its statistics
naming that size), a smaller one a single row group, and either way the archive holds the same rows."""

from __future__ import annotations

import json

import duckdb

from pipeline import read_catalog
from wirespeed.catalog import archive

ROWS = "SELECT * EXCLUDE (year) FROM read_parquet('{root}/measurements/*/*/*/*.parquet', hive_partitioning = true) ORDER BY slug, row_id"


def test_row_groups_per_frame_size_in_large_partitions(tmp_path, monkeypatch):
    with read_catalog() as con:
        slugs = [s for (s,) in con.execute("SELECT slug FROM published_sets ORDER BY slug").fetchall()]
        small = archive.export(con, tmp_path / "small", slugs)
        monkeypatch.setattr(archive, "SPLIT_ROWS", 40)  # the Nexus 9516's partitions (44 rows, 11 frame sizes) split
        split = archive.export(con, tmp_path / "split", slugs)
    assert small == split
    for root in (tmp_path / "small", tmp_path / "split"):
        index = json.loads((root / "index.json").read_text())
        assert index["bytes"] == [(root / f).stat().st_size for f in index["files"]]
        for f, slugs in index["sets"].items():  # the sets each measurements file holds, as it holds them
            assert slugs == [s for (s,) in duckdb.sql(f"SELECT DISTINCT slug FROM '{root / f}' ORDER BY slug").fetchall()]
        assert set(index["sets"]) == {f for f in index["files"] if f.startswith("measurements/")}
    reader = duckdb.connect()
    assert reader.execute(ROWS.format(root=tmp_path / "small")).fetchall() == reader.execute(ROWS.format(root=tmp_path / "split")).fetchall()
    nexus = "measurements/device=cisco-nexus-9516/test=ipv4-unicast/year=2015/data_0.parquet"
    groups = reader.execute(f"SELECT row_group_id, row_group_num_rows, stats_min, stats_max FROM parquet_metadata('{tmp_path / 'split' / nexus}')"
                            " WHERE path_in_schema = 'frame_size' ORDER BY row_group_id").fetchall()
    sizes = [s for (s,) in reader.execute(f"SELECT DISTINCT frame_size FROM '{tmp_path / 'split' / nexus}' ORDER BY 1").fetchall()]
    assert [(lo, hi) for _, _, lo, hi in groups] == [(str(s), str(s)) for s in sizes] and len(sizes) == 11
    assert sum(n for _, n, _, _ in groups) == 44
    one = reader.execute(f"SELECT count(DISTINCT row_group_id) FROM parquet_metadata('{tmp_path / 'small' / nexus}')").fetchone()[0]
    assert one == 1
