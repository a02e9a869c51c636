"""FD.io CSIT's trending and iterative Parquet tables (csit.infra.etl: the UTI info.json files of
many test runs, flattened by Spark), read with DuckDB into csit_run.Run: one run per row.

A column is a UTI path joined with underscores (result_ndr_lower_rate_value is result.ndr.lower.
rate.value); the ETL adds job and build, and writes a boolean `passed` (the 2021 glue tables:
`status`). The rows are put back into the UTI shape and read by csit_uti, so a Parquet row and
an info.json of the same run give the same rows. The file is read through a private copy with
the file system otherwise closed to DuckDB, one thread and bounded memory; a file with more runs
than a result set can show, or none (a `_metadata` footer: column types only), is refused.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from wirespeed.importers.csit_run import LOADS, RULE, Run
from wirespeed.importers.csit_uti import read as read_uti
from wirespeed.problems import Problem

MAX_RUNS = 256
"""Test runs of one Parquet file: each becomes a test of the set (the example sets have at most 12)."""

TOP = ("job", "build", "duration", "dut_type", "dut_version", "tg_type", "tg_version", "start_time", "end_time", "passed", "status",
       "test_id", "suite_id", "suite_name", "test_name", "test_name_long", "test_name_short", "test_type", "tags", "version", "message")


def _result_paths() -> list[tuple[str, ...]]:
    paths = [("result", "type")]
    for block in ("ndr", "pdr", "critical_rate"):
        for side in ("lower", "upper"):
            for part in ("rate", "bandwidth"):
                paths += [("result", block, side, part, leaf) for leaf in ("value", "unit")]
    for direction in ("forward", "reverse"):
        for load in LOADS:
            paths += [("result", f"latency_{direction}", load, leaf) for leaf in ("min", "avg", "max", "hdrh", "unit")]
    for part in ("rate", "bandwidth"):
        paths += [("result", "receive_rate", part, leaf) for leaf in ("values", "avg", "stdev", "unit")]
    return paths


PATHS = {"_".join(p): p for p in [*((t,) for t in TOP), *_result_paths()]}
"""Flattened column name → UTI path, for every column CSIT's ETL writes that wirespeed reads."""


def read(data: bytes, file: str) -> tuple[list[Run], list[Problem]]:
    """The runs of a CSIT Parquet file (failed runs left out with a warning each; errors when none passed)."""
    rows, problems = _rows(data, file)
    if problems:
        return [], problems
    runs, failed = [], []
    for i, values in enumerate(rows, start=1):
        doc = _nest(values)
        got, probs = read_uti(doc, file)
        probs = [_at_row(p, i, values.get("test_id")) for p in probs]
        if not got:
            failed += probs or [Problem(file, None, f"row {i}", "no result of a known type", RULE)]
            continue
        run = got[0]
        run.source, run.where = "CSIT Parquet", f"row {i}"
        run.job = str(values["job"]).strip() if values.get("job") not in (None, "") else None
        run.build = str(values["build"]).strip() if values.get("build") not in (None, "") else None
        problems += probs
        runs.append(run)
    if runs:
        failed = [Problem(p.file, p.line, p.field, p.message, p.rule, "warning") for p in failed]
    return runs, problems + failed


def _at_row(p: Problem, row: int, test_id) -> Problem:
    """A problem of the UTI reader, its JSON path named as the Parquet column of that row."""
    column = re.sub(r"\.", "_", p.field) if p.field else ""
    where = f"row {row} ({test_id})" if test_id else f"row {row}"
    return Problem(p.file, None, f"{where} {column}".strip(), p.message, p.rule, p.severity)


def _nest(values: dict) -> dict:
    """A flat row → the UTI document it was flattened from (null cells left out)."""
    doc: dict = {}
    for column, value in values.items():
        if value is None or column not in PATHS:
            continue
        node = doc
        *parents, leaf = PATHS[column]
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = value
    if isinstance(doc.get("status"), bool) and "passed" not in doc:  # the 2021 glue tables
        doc["passed"] = doc.pop("status")
    if isinstance(doc.get("result"), dict) and "type" not in doc["result"] and doc.get("test_type"):
        doc["result"]["type"] = doc["test_type"]
    doc.setdefault("result", {})
    return doc


def _rows(data: bytes, file: str) -> tuple[list[dict], list[Problem]]:
    import duckdb

    with tempfile.TemporaryDirectory(prefix="wirespeed-csit-") as tmp:
        path = Path(tmp) / "table.parquet"
        path.write_bytes(data)
        con = duckdb.connect(":memory:", config={"threads": 1, "memory_limit": "512MB"})
        try:
            con.execute(f"SET allowed_directories=['{tmp}/']")
            con.execute("SET enable_external_access=false")
            con.execute("SET lock_configuration=true")
            count = con.execute("SELECT sum(num_rows) FROM parquet_file_metadata(?)", [str(path)]).fetchone()[0] or 0
            if count == 0:
                return [], [Problem(file, None, "", "a Parquet file without rows (CSIT's _metadata footer: the column types of the "
                                                    "trending tables, no test result): nothing to import", RULE)]
            if count > MAX_RUNS:
                return [], [Problem(file, None, "", f"{count:,} test runs: a result set holds at most {MAX_RUNS} (select the runs to publish "
                                                    "first, e.g. with DuckDB: COPY (SELECT * FROM 'file.parquet' WHERE test_id LIKE '%…%') "
                                                    "TO 'part.parquet')", "limit.rows")]
            columns = [r[0] for r in con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [str(path)]).fetchall()]
            if "test_id" not in columns or not any(c.startswith("result_") for c in columns):
                return [], [Problem(file, None, "", "expected CSIT's flattened UTI columns (test_id, result_type, result_…), found "
                                                    + ", ".join(columns[:8]) + (" …" if len(columns) > 8 else ""), RULE)]
            wanted = [c for c in columns if c in PATHS]
            select = ", ".join(f'"{c}"' for c in wanted)
            cursor = con.execute(f"SELECT {select} FROM read_parquet(?, file_row_number=true) ORDER BY file_row_number", [str(path)])
            return [dict(zip(wanted, r)) for r in cursor.fetchall()], []
        except duckdb.Error as exc:
            return [], [Problem(file, None, "", f"not a readable Parquet file: {str(exc).splitlines()[0][:200]}", "import.parquet")]
        finally:
            con.close()
