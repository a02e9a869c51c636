"""Analysis step: full run, no-op rebuild and one-CSV rebuild, against re-executing everything."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, copy_archive, save, timer  # noqa: E402

os.chdir(ROOT)
from wirespeed.steps import analysis  # noqa: E402
from wirespeed.catalog.store import ingest, result_folders  # noqa: E402


def main() -> None:
    r: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        archive = copy_archive(tmp / "results")
        db, out = tmp / "c.duckdb", tmp / "analysis"
        ingest(result_folders(archive), db)
        with timer(r, "full_s"):
            plan, errors = analysis.run(db, out_root=out)
        r["notebook_runs"] = len(plan.run)
        with timer(r, "noop_s"):
            ingest(result_folders(archive), db)
            plan, errors = analysis.run(db, out_root=out)
        r["noop_runs"] = len(plan.run)
        csv = archive / "cisco-7600-osm-acl-2001" / "cpu.csv"
        csv.write_text(csv.read_text().replace("cpu-utilisation,idle,,NMP,1", "cpu-utilisation,idle,,NMP,2"))
        with timer(r, "one_csv_s"):
            ingest(result_folders(archive), db)
            plan, errors = analysis.run(db, out_root=out)
        r["one_csv_runs"] = len(plan.run)
        assert not errors, errors
    r["noop_vs_full"] = round(r["noop_s"] / r["full_s"], 3)
    r["one_csv_vs_full"] = round(r["one_csv_s"] / r["full_s"], 3)
    save("analysis", r)


if __name__ == "__main__":
    main()
