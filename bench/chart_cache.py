"""The charts' drawing cache (wirespeed/analysis/drawings.py), side by side with drawing every chart: every notebook of
every example set run again over the same data, as after a change to the notebooks' code that leaves their charts as
they were (the runs' manifests removed, so each runs), once with the cache the previous runs left and once without it
(the previous design: every chart drawn by vl-convert). Rounds alternate, the first with a cold cache.

`.venv/bin/python bench/chart_cache.py [--rounds 2]` writes build/bench/chart_cache.json."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, examples_catalog, save  # noqa: E402

os.chdir(ROOT)
from wirespeed.analysis import run as analysis  # noqa: E402
from wirespeed.pipeline import paths  # noqa: E402


def _rerun(db: Path, out: Path) -> tuple[float, float, int]:
    """Every notebook run again (wall and CPU seconds of this process and its workers, runs)."""
    for manifest in out.glob("*/*/manifest.json"):
        manifest.unlink()
    t, cpu = time.perf_counter(), _cpu()
    plan, errors = analysis.run(db, out_root=out)
    assert not errors, errors
    return time.perf_counter() - t, _cpu() - cpu, len(plan.run)


def _cpu() -> float:
    own, kids = os.times()[:2], os.times()[2:4]
    return sum(own) + sum(kids)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    r: dict = {"load_start": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _archive, db, out = examples_catalog(tmp)
        plan, errors = analysis.run(db, out_root=out)  # the outputs the reruns replace, and a full cache
        assert not errors, errors
        cache = paths.chart_cache(out)
        r["charts"] = sum(1 for _ in cache.glob("*/*"))
        cold, warm = [], []
        for _ in range(args.rounds):
            shutil.rmtree(cache)
            wall, cpu, runs = _rerun(db, out)  # nothing kept: every chart drawn (as before the cache)
            cold.append((round(wall, 2), round(cpu, 2)))
            wall, cpu, runs = _rerun(db, out)  # the drawings the run before kept
            warm.append((round(wall, 2), round(cpu, 2)))
        r["notebook_runs"] = runs
        r["drawn_wall_cpu_s"] = cold
        r["kept_wall_cpu_s"] = warm
        best = lambda xs, i: min(x[i] for x in xs)  # noqa: E731
        r["kept_vs_drawn_wall"] = round(best(warm, 0) / best(cold, 0), 3)
        r["kept_vs_drawn_cpu"] = round(best(warm, 1) / best(cold, 1), 3)
        r["cpu_s_per_run_drawn"] = round(best(cold, 1) / runs, 3)
        r["cpu_s_per_run_kept"] = round(best(warm, 1) / runs, 3)
        r["cache_kb"] = round(sum(p.stat().st_size for p in cache.rglob("*") if p.is_file()) / 1024, 1)
    r["load_end"] = round(os.getloadavg()[0], 2)
    save("chart_cache", r)


if __name__ == "__main__":
    main()
