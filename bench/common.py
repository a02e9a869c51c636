"""Shared helpers of the benchmark scripts: timing, copies of the archive, result files."""

from __future__ import annotations

import json
import shutil
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / "data" / "results"
OUT = ROOT / "build" / "bench"


@contextmanager
def timer(results: dict, name: str):
    t = time.perf_counter()
    yield
    results[name] = round(time.perf_counter() - t, 3)


def copy_archive(dest: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(ARCHIVE, dest)
    return dest


def examples_catalog(tmp: Path) -> tuple[Path, Path, Path]:
    """A copy of the example archive in tmp/results, ingested into tmp/c.duckdb; (the archive, the catalog, the
    analysis output root tmp/analysis, not made yet)."""
    from wirespeed.catalog.store import ingest, result_folders

    archive, db = copy_archive(tmp / "results"), tmp / "c.duckdb"
    ingest(result_folders(archive), db)
    return archive, db, tmp / "analysis"


def save(name: str, results: dict, path: Path | None = None) -> None:
    """Write results as JSON to path (default build/bench/<name>.json) and print them."""
    path = path or OUT / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    width = max(len(k) for k in results)
    print(f"== {name}")
    for k, v in results.items():
        print(f"  {k:<{width}}  {v}")
