"""A no-op build: `wirespeed build` with nothing changed (it answers from build/build-stamp.json) beside the
previous design, `make`'s chain of one process per step (validate, ingest, analyse, site --data-only, report,
site, summary), each of which asks its own manifests. Run after `make` in the repository (a built tree)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, save  # noqa: E402

WIRESPEED = [sys.executable, "-m", "wirespeed"]
CHAIN = [["validate"], ["ingest"], ["analyse"], ["site", "--data-only"], ["report"], ["site"], ["summary"]]


def _run(args: list[str]) -> float:
    t = time.perf_counter()
    proc = subprocess.run([*WIRESPEED, *args], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"wirespeed {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return time.perf_counter() - t


def main() -> None:
    if not (ROOT / "public" / "index.html").is_file():
        raise SystemExit("run make first: public/ is not built")
    _run(["build"])  # whatever is out of date, so that the next build has nothing to do
    noop = min(_run(["build"]) for _ in range(3))
    chain = min(sum(_run(step) for step in CHAIN) for _ in range(2))
    _run(["build"])  # the chain rebuilt public/: the stamp's record of it is renewed
    r = {"sets": len([p for p in (ROOT / "data" / "results").iterdir() if p.is_dir()]), "noop_build_s": round(noop, 3),
         "previous_step_chain_s": round(chain, 3), "ratio": round(noop / chain, 4), "load_average": os.getloadavg()[0]}
    save("noop", r)


if __name__ == "__main__":
    main()
