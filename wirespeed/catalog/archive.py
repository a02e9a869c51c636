"""The catalog as a hive-partitioned Parquet archive that DuckDB, Spark or Trino read as it is:
<dest>/<table>/device=<device>/test=<test>[/year=<year>]/data_0.parquet, written by DuckDB's
`COPY … (FORMAT parquet, PARTITION_BY …)`. Values are in canonical units (frames/s, bit/s, seconds,
percent), one column per metric named with its unit, as the per-set Parquet downloads.

- measurements: every measurement row of the sets given, with its set, device and year (of the source's date);
- trend_series, trend_points, trend_changes: the trend tables (catalog/trend.py), a point's and a change's
  year being its set's.

device is the trend pages' device id (vendor and model as a slug), test the test id; an undated set's year
is Hive's default partition (read back as NULL). index.json beside the tables lists every file, its size in bytes
(`bytes`, in the order of `files`: a browser reads a file's footer without asking its size first) and the result
sets each measurements file holds (`sets`: a browser comparing sets reads only their files).

The site reads the measurements a byte range at a time (hyparquet on the results page, DuckDB-Wasm on the SQL
page): a reader fetches the footer, then only the columns (and row groups) a query needs. A measurements file of
SPLIT_ROWS rows or more holds one row group per frame size (smallest first, then IMIX and other rows; a frame size
with more than 2048 rows takes several), each row group's statistics telling a reader which frame sizes it holds.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import quote

import duckdb

from wirespeed.catalog.tally import published
from wirespeed.catalog.trend import device_id
from wirespeed.system import atomic

SPLIT_ROWS = 1000
"""A measurements partition of this many rows or more has a row group per frame size (a reader of one frame size skips
the others); a smaller one is one row group, as ~70 columns' metadata per row group would outweigh a few rows."""
TABLES = ("measurements", "trend_series", "trend_points", "trend_changes")
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")  # the schema's slug pattern: safe inside a quoted SQL literal


def _queries(slugs: list[str]) -> dict[str, tuple[str, str]]:
    """Per archive table: its SELECT over the catalog and its partition columns."""
    listed = ", ".join(f"'{s}'" for s in slugs) or "NULL"
    return {
        "measurements": (f"SELECT wirespeed_device(s.dut_vendor, s.dut_model) AS device, m.test_id AS test, s.year, m.* EXCLUDE (test_id),"
                         f" s.dut_vendor, s.dut_model, s.published FROM measurements m JOIN result_sets s USING (slug)"
                         f" WHERE m.slug IN ({listed}) ORDER BY m.slug, m.row_id", ""),  # written by _measurements
        "trend_series": ("SELECT device, test_id AS test, * EXCLUDE (device, test_id) FROM trend_series ORDER BY series", "device, test"),
        "trend_points": ("SELECT t.device, t.test_id AS test, s.year, p.* FROM trend_points p JOIN trend_series t USING (series)"
                         " JOIN result_sets s USING (slug) ORDER BY p.series, p.position", "device, test, year"),
        "trend_changes": ("SELECT t.device, t.test_id AS test, s.year, c.* FROM trend_changes c JOIN trend_series t USING (series)"
                          " JOIN result_sets s USING (slug) ORDER BY c.series, c.position", "device, test, year"),
    }


def _hive(value: object) -> str:
    """A partition folder's value as DuckDB writes it: NULL as Hive's default partition, other characters than
    letters, digits and -._~ percent-encoded (slugs and years are written as they are)."""
    return "__HIVE_DEFAULT_PARTITION__" if value is None else quote(str(value), safe="")


def _measurements(con: duckdb.DuckDBPyConnection, query: str, out: Path) -> dict[str, list[str]]:
    """The measurements partitioned device / test / year. A partition of SPLIT_ROWS rows or more has one row group per
    frame size: a COPY of its own, a UNION ALL of one SELECT per frame size (each ending its own chunks) with
    ROW_GROUP_SIZE 1, so that every chunk (at most 2048 rows) is a row group (DuckDB merges them otherwise). The
    smaller ones are written together by PARTITION_BY, one row group each: there a row group's metadata for the
    table's ~70 columns would outweigh its rows, and a reader gains more by reading only the columns it needs.
    Returns the result sets each file holds, by its path under the archive."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE archive_m AS SELECT dense_rank() OVER (ORDER BY device, test, year NULLS LAST) AS part,"
                f" dense_rank() OVER (PARTITION BY device, test, year ORDER BY frame_size NULLS LAST) AS grp,"
                f" count(*) OVER (PARTITION BY device, test, year) AS part_rows, * FROM ({query})")
    try:
        drop = "part, grp, part_rows"
        if con.execute(f"SELECT count(*) FROM archive_m WHERE part_rows < {SPLIT_ROWS}").fetchone()[0]:
            con.execute(f"COPY (SELECT * EXCLUDE ({drop}) FROM archive_m WHERE part_rows < {SPLIT_ROWS} ORDER BY slug, row_id)"
                        f" TO '{out.as_posix()}' (FORMAT parquet, PARTITION_BY (device, test, year))")
        big = con.execute(f"SELECT part, any_value(device), any_value(test), any_value(year), max(grp) FROM archive_m WHERE part_rows >= {SPLIT_ROWS}"
                          " GROUP BY part ORDER BY part").fetchall()
        for part, device, test, year, groups in big:
            folder = out / f"device={_hive(device)}" / f"test={_hive(test)}" / f"year={_hive(year)}"
            folder.mkdir(parents=True)
            selects = " UNION ALL ".join(f"(SELECT * EXCLUDE ({drop}, device, test, year) FROM archive_m WHERE part = {int(part)} AND grp = {g}"
                                         f" ORDER BY slug, row_id)" for g in range(1, int(groups) + 1))
            con.execute(f"COPY ({selects}) TO '{(folder / 'data_0.parquet').as_posix()}' (FORMAT parquet, ROW_GROUP_SIZE 1)")
        holds = con.execute("SELECT any_value(device), any_value(test), any_value(year), list(DISTINCT slug ORDER BY slug) FROM archive_m GROUP BY part").fetchall()
        return {f"measurements/device={_hive(d)}/test={_hive(t)}/year={_hive(y)}/data_0.parquet": list(sl) for d, t, y, sl in holds}
    finally:
        con.execute("DROP TABLE IF EXISTS archive_m")


def export(con: duckdb.DuckDBPyConnection, dest: Path, slugs: list[str]) -> list[str]:
    """Write the archive of the sets `slugs` (and the trend tables) into dest, replacing it whole; returns its files."""
    bad = [s for s in slugs if not SLUG.match(s)]
    if bad:
        raise ValueError(f"not a result set slug: {bad[0]!r}")
    tmp = atomic.temp_dir_beside(dest)
    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    try:
        holds: dict[str, list[str]] = {}
        con.execute("SET threads = 1")  # one writer: the same rows in the same files in the same order every build
        con.create_function("wirespeed_device", device_id, ["VARCHAR", "VARCHAR"], "VARCHAR")  # removed below: exports may run again
        for table, (query, partitions) in _queries(slugs).items():
            if con.execute(f"SELECT count(*) FROM ({query})").fetchone()[0] == 0:
                continue  # no rows: no folder
            out = tmp / table  # a path of the build's own (atomic.temp_dir_beside), no quote in it
            if table == "measurements":
                holds = _measurements(con, query, out)
            else:
                con.execute(f"COPY ({query}) TO '{out.as_posix()}' (FORMAT parquet, PARTITION_BY ({partitions}))")
        files = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*.parquet"))
        sizes = [(tmp / f).stat().st_size for f in files]
        (tmp / "index.json").write_text(json.dumps({"tables": [t for t in TABLES if (tmp / t).is_dir()], "files": files, "bytes": sizes, "sets": {f: holds[f] for f in files if f.startswith("measurements/")}},
                                                   indent=1) + "\n", encoding="utf-8")
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


def export_published(db: Path, dest: Path) -> tuple[list[str], list[str]]:
    """`wirespeed archive`: the archive of every published set of the catalog at db into dest; (its files, the sets)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        slugs = published(con)
        return export(con, dest, slugs), slugs
    finally:
        con.close()
