"""The catalog as a hive-partitioned Parquet archive that DuckDB, Spark or Trino read as it is:
<dest>/<table>/device=<device>/test=<test>[/year=<year>]/data_0.parquet, written by DuckDB's
`COPY … (FORMAT parquet, PARTITION_BY …)`. Values are in canonical units (frames/s, bit/s, seconds,
percent), one column per metric named with its unit, as the per-set Parquet downloads.

- measurements: every measurement row of the sets given, with its set, device and year (of the source's date);
- trend_series, trend_points, trend_changes: the trend tables (catalog/trend.py), a point's and a change's
  year being its set's.

device is the trend pages' device id (vendor and model as a slug), test the test id; an undated set's year
is Hive's default partition (read back as NULL). index.json beside the tables lists every file.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb

from wirespeed.catalog.trend import device_id
from wirespeed.system import atomic

TABLES = ("measurements", "trend_series", "trend_points", "trend_changes")
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")  # the schema's slug pattern: safe inside a quoted SQL literal


def _queries(slugs: list[str]) -> dict[str, tuple[str, str]]:
    """Per archive table: its SELECT over the catalog and its partition columns."""
    listed = ", ".join(f"'{s}'" for s in slugs) or "NULL"
    return {
        "measurements": (f"SELECT wirespeed_device(s.dut_vendor, s.dut_model) AS device, m.test_id AS test, s.year, m.* EXCLUDE (test_id),"
                         f" s.dut_vendor, s.dut_model, s.published FROM measurements m JOIN result_sets s USING (slug)"
                         f" WHERE m.slug IN ({listed}) ORDER BY m.slug, m.row_id", "device, test, year"),
        "trend_series": ("SELECT device, test_id AS test, * EXCLUDE (device, test_id) FROM trend_series ORDER BY series", "device, test"),
        "trend_points": ("SELECT t.device, t.test_id AS test, s.year, p.* FROM trend_points p JOIN trend_series t USING (series)"
                         " JOIN result_sets s USING (slug) ORDER BY p.series, p.position", "device, test, year"),
        "trend_changes": ("SELECT t.device, t.test_id AS test, s.year, c.* FROM trend_changes c JOIN trend_series t USING (series)"
                          " JOIN result_sets s USING (slug) ORDER BY c.series, c.position", "device, test, year"),
    }


def export(con: duckdb.DuckDBPyConnection, dest: Path, slugs: list[str]) -> list[str]:
    """Write the archive of the sets `slugs` (and the trend tables) into dest, replacing it whole; returns its files."""
    bad = [s for s in slugs if not SLUG.match(s)]
    if bad:
        raise ValueError(f"not a result set slug: {bad[0]!r}")
    tmp = atomic.temp_dir_beside(dest)
    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    try:
        con.execute("SET threads = 1")  # one writer: the same rows in the same files in the same order every build
        con.create_function("wirespeed_device", device_id, ["VARCHAR", "VARCHAR"], "VARCHAR")  # removed below: exports may run again
        for table, (query, partitions) in _queries(slugs).items():
            if con.execute(f"SELECT count(*) FROM ({query})").fetchone()[0] == 0:
                continue  # no rows: no folder
            out = tmp / table  # a path of the build's own (atomic.temp_dir_beside), no quote in it
            con.execute(f"COPY ({query}) TO '{out.as_posix()}' (FORMAT parquet, PARTITION_BY ({partitions}))")
        files = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*.parquet"))
        (tmp / "index.json").write_text(json.dumps({"tables": [t for t in TABLES if (tmp / t).is_dir()], "files": files}, indent=1) + "\n", encoding="utf-8")
        dest.parent.mkdir(parents=True, exist_ok=True)
        atomic.swap_dir(tmp, dest)
    finally:
        con.execute(f"SET threads = {int(threads)}").fetchall()  # finished: DuckDB removes a function only from an idle connection
        try:
            con.remove_function("wirespeed_device")
        except (duckdb.InvalidInputException, duckdb.CatalogException):
            pass  # not registered: the export failed before
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return files
