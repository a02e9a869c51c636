"""Parquet files read through DuckDB within the limits, for the importers of columnar tool outputs (CSIT trending).

`read_parquet` writes the file's bytes (already read safely) to a private temporary folder and asks
DuckDB, in a connection of its own with a memory limit and fixed queries (no SQL from the file), for the footer
first: more columns than parquet_columns or more rows than table_rows are refused before any row is read.
Then the longest text value of each text column is measured in SQL (DuckDB streams it) and a value longer
than string_chars is refused before the rows become Python objects: a small file whose dictionary repeats
one long string cannot fill memory. Every DuckDB error is one problem naming the file.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import duckdb

from wirespeed.problems import Problem
from wirespeed.resultset import limits

MEMORY = "512MB"  # DuckDB's own limit for one file's query


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def read_parquet(data: bytes, file: str, rule: str) -> tuple[list[dict[str, Any]] | None, list[Problem]]:
    """The rows of a Parquet file as dicts (column → value), or one problem."""
    if not data.startswith(b"PAR1") or not data.endswith(b"PAR1"):
        return None, [Problem(file, None, "", "not a Parquet file (it must start and end with PAR1)", rule)]
    with tempfile.TemporaryDirectory(prefix="wirespeed-parquet-") as tmp:
        path = os.path.join(tmp, "file.parquet")
        with open(path, "wb") as f:
            f.write(data)
        con = duckdb.connect(":memory:", config={"memory_limit": MEMORY, "threads": 1})
        try:
            return _read(con, path, file)
        except duckdb.Error as exc:
            detail = " ".join(str(exc).split())[:200].replace(tmp, "")
            return None, [Problem(file, None, "", f"the Parquet file cannot be read: {detail}", rule)]
        finally:
            con.close()


def _read(con: duckdb.DuckDBPyConnection, path: str, file: str) -> tuple[list[dict[str, Any]] | None, list[Problem]]:
    rows = con.execute("SELECT coalesce(sum(num_rows), 0) FROM parquet_file_metadata(?)", [path]).fetchone()[0]
    columns = con.execute("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(?))", [path]).fetchall()
    if len(columns) > limits.value("parquet_columns"):
        return None, [Problem(file, None, "", f"{len(columns):,} columns: more than the limit of {limits.describe('parquet_columns')}", "limit.columns")]
    if rows > limits.value("table_rows"):
        return None, [Problem(file, None, "", f"{rows:,} rows: more than the limit of {limits.describe('table_rows')} in one file", "limit.rows")]
    text = [name for name, kind in columns if kind in ("VARCHAR", "BLOB") or "VARCHAR" in kind or "[]" in kind or "STRUCT" in kind or "MAP" in kind]
    if text and rows:
        longest = con.execute("SELECT " + ", ".join(f"max(strlen(CAST({_quoted(c)} AS VARCHAR)))" for c in text) + " FROM read_parquet(?)", [path]).fetchone()
        chars = limits.value("string_chars")
        for name, n in zip(text, longest):
            if n is not None and n > chars:
                return None, [Problem(file, None, name, f"a value of {n:,} characters: longer than the limit of {limits.describe('string_chars')}", "limit.string")]
    cur = con.execute("SELECT * FROM read_parquet(?)", [path])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()], []
