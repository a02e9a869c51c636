"""PDF reports: seconds per report on one core, and all reports (one core vs every core)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, save, timer  # noqa: E402

os.chdir(ROOT)
from wirespeed.report import typesetting as report  # noqa: E402
def main() -> None:
    r: dict = {}
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})  # one core for the serial run (children inherit it)
    with tempfile.TemporaryDirectory() as tmp:
        todo, _ = report.plan(None, out=Path(tmp) / "one")
        for job in todo:
            with timer(r, f"{job.slug}_s"):
                res = report.build(job, str(ROOT))
            assert res["ok"], res
        per = [v for k, v in r.items() if k.endswith("_s")]
        r["max_per_report_s"] = max(per)
        r["all_serial_one_core_s"] = round(sum(per), 3)
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
        with timer(r, "all_parallel_s"):
            built, fresh, errors = report.run(None, out=Path(tmp) / "all")
        assert not errors, errors
    r["parallel_vs_serial"] = round(r["all_parallel_s"] / r["all_serial_one_core_s"], 3)
    r["max_per_report_vs_5s_target"] = round(r["max_per_report_s"] / 5, 3)
    save("reports", r)


if __name__ == "__main__":
    main()
