"""Where the per-set jobs run: the step runner's worker pool against a Dask LocalCluster (wirespeed/pipeline/cluster.py),
side by side, on the notebook runs of the examples (every run from an empty output folder) and of one set (a small
build, where a cluster's start costs most). Each figure is the best of `--repeat` alternating rounds; the ratio is
Dask's time over the pool's (above 1: Dask is slower). The pool stays the default while Dask is slower here.

`.venv/bin/python bench/executor.py [--repeat 2] [--sets N]` writes build/bench/executor.json."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ARCHIVE, ROOT, save  # noqa: E402

os.chdir(ROOT)
from wirespeed.catalog.store import ingest, result_folders  # noqa: E402
from wirespeed.analysis import run as analysis  # noqa: E402

SERIES = "linux-netns-nft-series-"  # the measured trend series: its many small sets are left out unless --sets asks
ONE = "keysight-ixnetwork-ve-dpdk-400g-2022"


def _timed(db: Path, out: Path, scheduler: str, slugs: list[str] | None) -> tuple[float, int]:
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    plan, errors = analysis.run(db, slugs, out_root=out, scheduler=scheduler)
    took = time.perf_counter() - t
    ok = len(plan.run) - len(errors)
    return took, ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--sets", type=int, default=0, help="also this many sets of the measured trend series")
    args = ap.parse_args()
    r: dict = {"cores": os.cpu_count(), "load_start": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folders = sorted(p for p in ARCHIVE.iterdir() if p.is_dir())
        chosen = [p for p in folders if not p.name.startswith(SERIES)] + [p for p in folders if p.name.startswith(SERIES)][: args.sets]
        archive = tmp / "results"
        for p in chosen:
            shutil.copytree(p, archive / p.name)
        db, out = tmp / "c.duckdb", tmp / "analysis"
        ingest(result_folders(archive), db)
        r["sets"] = len(chosen)
        for name, slugs in (("all", None), ("one_set", [ONE])):
            best: dict[str, float] = {}
            for _ in range(args.repeat):
                for scheduler in ("pool", "local"):
                    took, runs = _timed(db, out, scheduler, slugs)
                    best[scheduler] = min(best.get(scheduler, took), took)
                    r[f"{name}_runs"] = runs
            r[f"{name}_pool_s"] = round(best["pool"], 2)
            r[f"{name}_dask_s"] = round(best["local"], 2)
            r[f"{name}_dask_over_pool"] = round(best["local"] / best["pool"], 3)
    r["load_end"] = round(os.getloadavg()[0], 2)
    r["default"] = "pool" if r["all_dask_over_pool"] > 1 or r["one_set_dask_over_pool"] > 1 else "local"
    save("executor", r)


if __name__ == "__main__":
    main()
