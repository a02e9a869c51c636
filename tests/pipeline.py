"""Build the whole pipeline once per test session, in the repository's build/ as `make` does."""

from __future__ import annotations

import fcntl

from conftest import ROOT, run_cli

_DONE: dict[str, bool] = {}
LOCK = ROOT / "build" / ".pipeline.lock"


def build(stage: str) -> None:
    """Run the pipeline up to `stage` (ingest, analyse, site-data, reports, site); each stage once per session."""
    stages = ["ingest", "analyse", "site-data", "reports", "site"]
    commands = {"ingest": ["ingest"], "analyse": ["analyse"], "site-data": ["site", "--data-only"], "reports": ["report"], "site": ["site"]}
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(LOCK, "w") as lock:  # pytest-xdist workers build one after the other (the later ones find it done)
        fcntl.flock(lock, fcntl.LOCK_EX)
        for s in stages[: stages.index(stage) + 1]:
            if not _DONE.get(s):
                run_cli(*commands[s], cwd=ROOT, check=True)
                _DONE[s] = True
