"""Catalog ingest: cold load of every example, then an unchanged re-ingest (the incremental path)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, copy_archive, save, timer  # noqa: E402

os.chdir(ROOT)
from wirespeed.catalog.store import ingest, result_folders  # noqa: E402


def main() -> None:
    r: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        archive = copy_archive(Path(tmp) / "results")
        db = Path(tmp) / "c.duckdb"
        with timer(r, "cold_s"):
            reports = ingest(result_folders(archive), db)
        r["rows"] = sum(x.rows_loaded for x in reports)
        with timer(r, "unchanged_s"):
            ingest(result_folders(archive), db)
    r["unchanged_vs_cold"] = round(r["unchanged_s"] / r["cold_s"], 3)
    save("ingest", r)


if __name__ == "__main__":
    main()
