"""Shared fixtures: the repository root, the example archive, and a scratch copy of it."""

from __future__ import annotations

import inspect
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / "data" / "results"
WIRESPEED = [sys.executable, "-m", "wirespeed"]
# The bundled example sets, named: expectations that hold only for them (every set has charts, tables,
# particular figures) say so; a contributed set gets the generic checks only.
EXAMPLES = frozenset({"cisco-7600-osm-acl-2001", "cisco-asr9006-rsp440-trex-2022", "cisco-catalyst-6500-vss-2008",
                      "cisco-nexus-9516-128x100g-2015", "keysight-ixnetwork-ve-dpdk-400g-2022", "linux-netns-ipv4-ramp-2026-11", "linux-netns-bridge-forward-nftables-2026-11",
                      "linux-netns-udp-capture-2026-11"})
# The measured trend series (examples/collect/trend): 20 sets of one shape. The session pipeline (tests/pipeline.py)
# builds and checks every one of them; a scratch build that tests something else takes `series` of them.
SERIES = "linux-netns-nft-series-"


def example_folders(series: int | None = 0) -> list[Path]:
    """The bundled result sets: all but the trend series, plus its first `series` sets (None: all of them)."""
    folders = sorted(p for p in ARCHIVE.iterdir() if p.is_dir())
    runs = [p for p in folders if p.name.startswith(SERIES)]
    return [p for p in folders if not p.name.startswith(SERIES)] + (runs if series is None else runs[:series])


def copy_examples(dest: Path, series: int | None = 0) -> Path:
    """Copy example_folders(series) into dest (an archive folder, made if missing)."""
    dest.mkdir(parents=True, exist_ok=True)
    for folder in example_folders(series):
        shutil.copytree(folder, dest / folder.name)
    return dest


# The session's scratch working folders, each built once per session: the whole pipeline of the examples
# (tests/pipeline.py) and the sets imported from the real tool outputs (tests/realbuild.py). Made by the
# controlling process, inherited by pytest-xdist workers through the environment, removed at the end of the session.
# The reports' precompiled formats (report/latexformat.py) are shared the same way: every scratch build of the session
# that typesets a report uses the one format of the template instead of dumping its own.
PIPELINE_ENV = "WIRESPEED_TEST_PIPELINE"
REAL_ENV = "WIRESPEED_TEST_REAL"


def pytest_configure(config):
    from wirespeed.pipeline.paths import LATEX_FORMATS_ENV

    owned = []
    for env, prefix in ((PIPELINE_ENV, "wirespeed-pipeline-"), (REAL_ENV, "wirespeed-real-"), (LATEX_FORMATS_ENV, "wirespeed-latex-formats-")):
        if env not in os.environ and not hasattr(config, "workerinput"):
            os.environ[env] = tempfile.mkdtemp(prefix=prefix)
            owned.append(env)
    config.stash[_OWNED] = owned


def pytest_unconfigure(config):
    for env in config.stash.get(_OWNED, []):
        shutil.rmtree(os.environ.pop(env), ignore_errors=True)


_OWNED = pytest.StashKey[list]()


def interruptible() -> None:
    """A Popen preexec_fn: the command starts with Ctrl-C's default action, as from a terminal, even when this test
    run was started with SIGINT ignored (a shell's background job `make test &` without job control ignores it, and a
    child keeps that: its Python then never raises KeyboardInterrupt, and an interrupt test would see a clean exit)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_cli(*args: str, cwd: Path = ROOT, check: bool = False) -> subprocess.CompletedProcess:
    """Run the wirespeed CLI as a user would, capturing its output."""
    proc = subprocess.run([*WIRESPEED, *args], cwd=cwd, capture_output=True, text=True, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"wirespeed {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    """A catalog of the bundled example sets of its own, opened read-only (never the session pipeline's, which
    other workers write while this one reads)."""
    import duckdb

    db = tmp_path_factory.mktemp("catalog") / "wirespeed.duckdb"
    run_cli("ingest", *sorted(str(p) for p in ARCHIVE.iterdir() if p.is_dir()), "--db", str(db), check=True)
    con = duckdb.connect(str(db), read_only=True)
    yield con
    con.close()


def catalog_of(tmp_path: Path, *slugs: str) -> Path:
    """A catalog (tmp_path/c.duckdb) ingested from copies of the named example sets."""
    from wirespeed.catalog.store import ingest, result_folders

    archive = tmp_path / "results"
    for slug in slugs:
        shutil.copytree(ARCHIVE / slug, archive / slug)
    db = tmp_path / "c.duckdb"
    ingest(result_folders(archive), db)
    return db


@pytest.fixture
def archive_copy(tmp_path: Path) -> Path:
    """A writable copy of the example archive."""
    dest = tmp_path / "results"
    shutil.copytree(ARCHIVE, dest)
    return dest


@pytest.fixture
def good_set(tmp_path: Path) -> Path:
    """A writable copy of one small, valid example result set."""
    src = ARCHIVE / "cisco-7600-osm-acl-2001"
    dest = tmp_path / src.name
    shutil.copytree(src, dest)
    return dest


# --- the fast lane (`make test-fast`: -m "not slow and not browser and not netns") -----------------
# A test is slow when it reaches, through its own code, its fixtures or the module's helper functions,
# something that starts a process or builds the pipeline: the CLI in a subprocess, a pipeline stage,
# an ingest of the example archive, pandoc/XeLaTeX or Hugo; and property tests (Hypothesis). The rule is static (names in the code),
# so the lane is the same on every machine; tests may also carry @pytest.mark.slow themselves.
HEAVY = frozenset({"run_cli", "WIRESPEED", "subprocess", "Popen", "build", "ingest", "typeset", "workdir", "hugo", "analysis",
                   "run_importer_cli", "export", "sleep", "read_catalog", "import_and_validate"})


def _names(code, module, seen) -> set[str]:
    out: set[str] = set()
    if code in seen:
        return out
    seen.add(code)
    for name in code.co_names:
        out.add(name)
        obj = module.__dict__.get(name)
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            out |= _names(obj.__code__, module, seen)
    for const in code.co_consts:
        if inspect.iscode(const):
            out |= _names(const, module, seen)
    return out


def _reaches_heavy(item) -> bool:
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        return True  # property tests generate hundreds of inputs
    module = item.module
    codes = [item.function.__code__] if inspect.isfunction(getattr(item, "function", None)) else []
    for defs in item._fixtureinfo.name2fixturedefs.values():
        for d in defs:
            if inspect.isfunction(d.func) and d.baseid:  # the project's own fixtures (not pytest's)
                codes.append(d.func.__code__)
    seen: set = set()
    return any(_names(c, module, seen) & HEAVY for c in codes)


# --- the order of the files (`make test`: -n TEST_WORKERS --dist loadfile --no-loadscope-reorder) ---------------
# pytest-xdist gives each worker whole files, by default those with the most tests first, which leaves the files that
# build for minutes (a few tests each) to the end, where one worker may run the last of them alone. These go first, the
# longest first, so that the many short files fill the gaps at the end. The workers take the files of the list in turn,
# one each, and the next whenever two or fewer of their tests are left to run (so the first worker, whose file is one
# test, has the next file queued behind it). The first two build the session's two shared builds (tests/realbuild.py,
# tests/pipeline.py); the third builds its own, so no worker starts by waiting for another's build; the walk of every
# page in Chromium (minutes of waiting for pages, little computing) goes to the first worker free after the examples'
# build, beside the other builds; the other readers of the shared builds, and the scratch builds that start from the
# examples' (pipeline.warm), come after them.
# Only the order changes (a file left off this list, or one that no longer exists, costs nothing but balance).
FIRST = ["test_importer_nfvbench_pipeline.py", "test_reproducible.py", "test_valid_sets_build.py", "test_page_walk_browser.py",
         "test_pdf_layout.py", "test_hostile_site.py", "test_isolation.py", "test_publish_path.py", "test_publication_check.py",
         "test_base_url.py", "test_report.py", "test_site.py"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if not any(item.get_closest_marker(n) for n in ("slow", "browser", "netns")) and _reaches_heavy(item):
            item.add_marker(pytest.mark.slow)
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))  # stable: the other files and each file's tests keep their order


# Network namespaces and veth pairs are the machine's, not a worker's: the namespace collectors hold one machine-wide
# lock while they build their topologies and refuse a second collection at once (wirespeed.system.locking), and a test
# that lists the namespaces would see another worker's. So the netns tests of a file take this lock (blocking) from their
# first test to their last, and pytest-xdist workers take turns at them instead of one skipping its tests as "busy".
NETNS_TESTS_LOCK = Path(tempfile.gettempdir()) / "wirespeed-tests-netns.lock"
_netns_held: list = []  # this worker's open lock file while it holds the lock


@pytest.hookimpl(hookwrapper=True, specname="pytest_runtest_protocol")
def pytest_runtest_protocol_netns(item, nextitem):  # a second wrapper of the same hook (specname), apart from the one below
    netns = item.get_closest_marker("netns") is not None
    if netns and not _netns_held:
        import fcntl

        f = NETNS_TESTS_LOCK.open("w")
        fcntl.flock(f, fcntl.LOCK_EX)
        _netns_held.append(f)
    try:
        yield
    finally:
        if _netns_held and (nextitem is None or nextitem.path != item.path or nextitem.get_closest_marker("netns") is None):
            _netns_held.pop().close()  # the file's last netns test is done (its module fixtures torn down): the lock goes


# The lane is checked, not trusted: a test outside it (no slow, browser or netns mark, given by hand or by the rule
# above) that starts a process — in its fixtures, its body or anything they call: a Jupyter kernel, a Dask cluster, the
# CLI — fails, naming the mark it needs, in every run (`make test` too), so the fast lane stays fast on every machine.
_FAST_LANE_MARKS = ("slow", "browser", "netns")


class ProcessInFastTest(AssertionError):
    pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if any(item.get_closest_marker(n) for n in _FAST_LANE_MARKS):
        yield
        return
    import multiprocessing.process

    popen, start = subprocess.Popen._execute_child, multiprocessing.process.BaseProcess.start

    def refuse(what):
        raise ProcessInFastTest(f"{item.nodeid} starts a process ({what}) but is not marked slow: mark it "
                                "@pytest.mark.slow (or the module's pytestmark), or name what it calls in conftest.HEAVY")

    def child(self, args, *rest, **kw):
        refuse(" ".join(map(str, args[:2])) if isinstance(args, (list, tuple)) else str(args))

    def process_start(self):
        refuse(f"multiprocessing {self.name}")

    subprocess.Popen._execute_child, multiprocessing.process.BaseProcess.start = child, process_start
    try:
        yield
    finally:
        subprocess.Popen._execute_child, multiprocessing.process.BaseProcess.start = popen, start
