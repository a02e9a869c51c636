"""Analysis step: full run, no-op rebuild and one-CSV rebuild, against re-executing everything; and
the cost of a notebook run itself (kernel, papermill, export), from a notebook that does nothing,
run for every set on one worker.

To time another source tree with the same script (e.g. git main, for a before/after ratio), put that
tree first on the path: `PYTHONPATH=/path/to/main .venv/bin/python bench/analysis.py`."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, examples_catalog, save, timer  # noqa: E402

EMPTY = '''# %% tags=["parameters"]
slug = ""
catalog = ""
output_dir = ""

# %%
import json, os
os.makedirs(output_dir, exist_ok=True)
with open(os.path.join(output_dir, "outputs.json"), "w") as f:
    json.dump({"slug": slug, "tables": {}, "charts": {}}, f)
'''

os.chdir(ROOT)
from wirespeed.analysis import run as analysis  # noqa: E402
from wirespeed.catalog.store import ingest, result_folders  # noqa: E402


def main() -> None:
    r: dict = {"load_start": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        archive, db, out = examples_catalog(tmp)
        with timer(r, "full_s"):
            plan, errors = analysis.run(db, out_root=out)
        r["notebook_runs"] = len(plan.run)
        r["workers"] = min(os.cpu_count() or 1, len(plan.run))
        r["worker_s_per_run"] = round(r["full_s"] * r["workers"] / len(plan.run), 3)
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
        nbs = tmp / "empty"
        nbs.mkdir()
        (nbs / "empty.py").write_text(EMPTY)
        with timer(r, "empty_s"):
            plan, errors = analysis.run(db, out_root=tmp / "empty-out", notebooks_dir=nbs, jobs=1)
        assert not errors, errors
        r["empty_runs"] = len(plan.run)
        r["empty_s_per_run"] = round(r["empty_s"] / len(plan.run), 3)
    r["noop_vs_full"] = round(r["noop_s"] / r["full_s"], 3)
    r["one_csv_vs_full"] = round(r["one_csv_s"] / r["full_s"], 3)
    r["load_end"] = round(os.getloadavg()[0], 2)
    save("analysis", r)


if __name__ == "__main__":
    main()
