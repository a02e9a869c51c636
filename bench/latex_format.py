"""The reports' packages in a precompiled format (wirespeed/report/latexformat.py) against loading them in every
XeLaTeX run (the previous design). Every example's report is built in this process, one at a time (one core), into a
fresh build folder each round: no cross-reference seeds, no chart PDFs, no format (so the format side pays its one dump),
as in a clean `make`; then built again over that folder (seeded: one XeLaTeX run each, as after a commit that changes
a set). Rounds alternate the sides. CPU is this process's children (pandoc, XeLaTeX, xdvipdfmx) plus its own.

`.venv/bin/python bench/latex_format.py [--rounds 2]` (after `make`) writes build/bench/latex_format.json."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, save  # noqa: E402

os.chdir(ROOT)
from wirespeed.pipeline import paths  # noqa: E402
from wirespeed.report import typesetting  # noqa: E402

REAL_FORMATS = paths.latex_formats


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _build_all(out: Path, with_format: bool) -> dict:
    paths.latex_formats = REAL_FORMATS if with_format else (lambda _out: None)
    todo, _ = typesetting.plan(None, out=out)
    cpu, wall = _cpu(), time.perf_counter()
    for job in todo:
        res = typesetting.build(job, str(ROOT))
        assert res["ok"], res
    return {"reports": len(todo), "wall_s": round(time.perf_counter() - wall, 2), "cpu_s": round(_cpu() - cpu, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})  # one core (children inherit it)
    runs: dict = {"before": {"clean": [], "seeded": []}, "after": {"clean": [], "seeded": []}}
    with tempfile.TemporaryDirectory(prefix="wirespeed-bench-format-") as tmp:
        for n in range(args.rounds):
            for side in (("before", "after") if n % 2 == 0 else ("after", "before")):
                out = Path(tmp) / f"{side}-{n}" / "reports"
                runs[side]["clean"].append(_build_all(out, side == "after"))
                for job in typesetting.plan(None, out=out)[1]:  # built: force the rebuild of each (seeded now)
                    job.out.unlink()
                runs[side]["seeded"].append(_build_all(out, side == "after"))
    paths.latex_formats = REAL_FORMATS
    r: dict = {"reports": runs["after"]["clean"][0]["reports"], "rounds": args.rounds, "load_average": os.getloadavg()[0]}
    for kind in ("clean", "seeded"):
        for key in ("cpu_s", "wall_s"):
            b = statistics.median(x[key] for x in runs["before"][kind])
            a = statistics.median(x[key] for x in runs["after"][kind])
            r[f"{kind}_{key}"] = f"{b:.2f} → {a:.2f} ({a / b:.3f})"
        b = statistics.median(x["cpu_s"] for x in runs["before"][kind]) / r["reports"]
        a = statistics.median(x["cpu_s"] for x in runs["after"][kind]) / r["reports"]
        r[f"{kind}_cpu_s_per_report"] = f"{b:.2f} → {a:.2f}"
    r["runs"] = runs
    save("latex_format", r)


if __name__ == "__main__":
    main()
