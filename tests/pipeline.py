"""Build the whole pipeline once per test session, as `make` does, in a scratch working folder (never
the repository's own build/ or public/): the folder named by WIRESPEED_TEST_PIPELINE, which
conftest.py creates once per session and pytest-xdist workers share."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb

import workdir
from conftest import PIPELINE_ENV, ROOT, run_cli

_DONE: dict[str, bool] = {}
WORK = Path(os.environ[PIPELINE_ENV])
BUILD = WORK / "build"
PUBLIC = WORK / "public"
LOCK = WORK / ".pipeline.lock"
# Besides workdir's site sources: the pages the site mounts from the repository (config.toml's module mounts).
EXTRA_SOURCES = ["CONTRIBUTING.md", "docs"]


def prepare(w: Path) -> Path:
    """Fill w with what the session's pipeline builds from: the site's sources, every example set (the trend pages
    show the whole measured series) and the pages the site mounts from the repository; returns w (made if missing)."""
    w.mkdir(parents=True, exist_ok=True)
    workdir.make(w, series=None)
    for name in EXTRA_SOURCES:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, w / name)
    return w


def _prepare() -> None:
    if not (WORK / "config.toml").exists():
        prepare(WORK)


@contextlib.contextmanager
def read_catalog() -> Iterator[duckdb.DuckDBPyConnection]:
    """The session pipeline's catalog (ingested first), read-only, while no worker builds (a build writes it)."""
    build("ingest")
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        con = duckdb.connect(str(BUILD / "wirespeed.duckdb"), read_only=True)
        try:
            yield con
        finally:
            con.close()


def warm(w: Path) -> Path:
    """Give the working folder w (its sources and sets in place) the session build's build/ to start from, as the
    publish workflow starts from the build/ its Actions cache kept: a scratch build of the examples then runs only the
    notebooks and reports whose inputs it changed (what a test adds: a failing notebook, a hostile set, an odd date),
    and prunes the outputs of the sets it does not have. The session build is made first when it is not yet; returns w."""
    build("reports")
    with open(LOCK, "w") as lock:  # no worker writes build/ while it is copied
        fcntl.flock(lock, fcntl.LOCK_EX)
        shutil.copytree(BUILD, w / "build", symlinks=True, ignore=shutil.ignore_patterns("screenshots"))
    return w


def build(stage: str) -> None:
    """Run the pipeline up to `stage` (ingest, analyse, site-data, reports, site); each stage once per session."""
    stages = ["ingest", "analyse", "site-data", "reports", "site"]
    commands = {"ingest": ["ingest"], "analyse": ["analyse"], "site-data": ["site", "--data-only"], "reports": ["report"], "site": ["site"]}
    WORK.mkdir(parents=True, exist_ok=True)
    with open(LOCK, "w") as lock:  # pytest-xdist workers build one after the other (the later ones find it done)
        fcntl.flock(lock, fcntl.LOCK_EX)
        _prepare()
        for s in stages[: stages.index(stage) + 1]:
            if not _DONE.get(s):
                run_cli(*commands[s], cwd=WORK, check=True)
                _DONE[s] = True
