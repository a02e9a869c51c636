"""The step runner's jobs on a Dask cluster (wirespeed/pipeline/cluster.py): a set's outputs are the same bytes
as on the worker pool; a Dask worker keeps its warm kernel from one run to the next and ends it; a build with
nothing to run starts no cluster; Ctrl-C leaves no worker or kernel behind; the scheduler setting."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import time
import psutil
import pytest

from conftest import WIRESPEED, interruptible
from conftest import catalog_of
from test_warm_kernels import FIRST, PROBE, SECOND, _files, _stdout

pytestmark = pytest.mark.slow  # runs notebooks on Jupyter kernels (and Dask workers): processes


def test_a_sets_outputs_on_a_dask_cluster_equal_the_pools(tmp_path):
    from wirespeed.analysis import run as analysis

    db, out = catalog_of(tmp_path, SECOND), tmp_path / "analysis"
    _, errors = analysis.run(db, [SECOND], jobs=1, out_root=out)
    assert not errors, errors
    pool = _files(out / SECOND)
    assert any(n.endswith(".ipynb") for n in pool) and any(n.endswith(".svg") for n in pool) and any(n.endswith(".csv") for n in pool)
    shutil.rmtree(out)
    plan, errors = analysis.run(db, [SECOND], jobs=2, out_root=out, scheduler="local")
    assert not errors, errors
    assert len(plan.run) == 2
    dask = _files(out / SECOND)
    assert sorted(dask) == sorted(pool)
    differ = [name for name in pool if pool[name] != dask[name]]
    assert not differ, f"outputs differ between the pool and the Dask cluster: {differ}"


def test_a_dask_worker_reuses_its_warm_kernel_and_ends_it(tmp_path):
    from wirespeed.analysis import run as analysis

    db, out, nbs = catalog_of(tmp_path, FIRST, SECOND), tmp_path / "analysis", tmp_path / "notebooks"
    nbs.mkdir()
    (nbs / "probe.py").write_text(PROBE, encoding="utf-8")
    plan, errors = analysis.run(db, jobs=1, out_root=out, notebooks_dir=nbs, scheduler="local")
    assert not errors, errors
    assert sorted(j.slug for j in plan.run) == [FIRST, SECOND]
    first, second = (_stdout(out / slug / "probe" / "probe.ipynb") for slug in (FIRST, SECOND))
    assert first[0] == second[0], "the two runs on one Dask worker did not share its kernel"
    for printed in (first, second):
        assert printed[1] == "left behind: [] None False False False"
    kernel = int(first[0].split()[1])
    deadline = time.monotonic() + 10
    while psutil.pid_exists(kernel) and psutil.Process(kernel).status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not psutil.pid_exists(kernel) or psutil.Process(kernel).status() == psutil.STATUS_ZOMBIE, "the worker's kernel outlived the cluster"


def test_nothing_to_run_starts_no_cluster(tmp_path, monkeypatch):
    import distributed

    from wirespeed.analysis import run as analysis

    db, out = catalog_of(tmp_path, SECOND), tmp_path / "analysis"
    _, errors = analysis.run(db, [SECOND], jobs=1, out_root=out)
    assert not errors, errors

    def refuse(*args, **kwargs):
        raise AssertionError("a LocalCluster was started with nothing to run")

    monkeypatch.setattr(distributed, "LocalCluster", refuse)
    monkeypatch.setattr(distributed, "Client", refuse)
    plan, errors = analysis.run(db, [SECOND], jobs=1, out_root=out, scheduler="local")
    assert not errors and not plan.run and len(plan.fresh) == 2


def test_the_scheduler_setting(monkeypatch):
    from wirespeed.pipeline import cluster

    monkeypatch.delenv(cluster.ENV, raising=False)
    assert cluster.chosen(None) == "pool"
    monkeypatch.setenv(cluster.ENV, "tcp://10.0.0.5:8786")
    assert cluster.chosen(None) == "tcp://10.0.0.5:8786"
    assert cluster.chosen("local") == "local"  # the option wins over the environment
    with pytest.raises(cluster.SchedulerError, match=r"scheduler 'dask': expected 'pool', 'local' or a scheduler address"):
        cluster.chosen("dask")


def test_the_scheduler_option_refuses_a_bad_value_in_one_line(tmp_path):
    import workdir

    w = workdir.make(tmp_path, examples=False)
    proc = workdir.wirespeed(w, "analyse", "--scheduler", "nowhere")
    assert proc.returncode == 2
    assert "--scheduler" in proc.stderr and "scheduler 'nowhere': expected 'pool', 'local' or a scheduler address" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_an_interrupt_leaves_no_dask_worker_or_kernel_behind(tmp_path, how):
    import workdir

    w = workdir.make(tmp_path)
    subprocess.run([*WIRESPEED, "ingest"], cwd=w, capture_output=True, timeout=600, check=False)
    proc = subprocess.Popen([*WIRESPEED, "analyse", "--scheduler", "local"], cwd=w, start_new_session=True, preexec_fn=interruptible,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: dict[int, str] = {}
    kernel = False
    started = time.monotonic()
    deadline = started + 300
    while not kernel and time.monotonic() < deadline and proc.poll() is None:
        try:
            children = psutil.Process(proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:  # the command itself is gone: the check below says how it ended
            break
        for child in children:
            try:
                seen[child.pid] = " ".join(child.cmdline())
            except psutil.NoSuchProcess:  # a short-lived child ended between the listing and this look: not the command's end
                continue
        kernel = any("ipykernel" in c for c in seen.values())
        time.sleep(0.2)
    if not kernel:  # say why: the run ended first (its status and last words) or nothing started within the deadline
        ended = proc.poll() is not None
        if not ended:
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
        state = f"exited with {proc.returncode}" if ended else f"still running after {time.monotonic() - started:.0f} s"
        raise AssertionError(f"no notebook kernel seen on the Dask workers; analyse {state}; processes seen: {sorted(seen.values())[:6]}; "
                             f"stdout: {out[-800:]!r}; stderr: {err[-1500:]!r}")
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # the terminal sends it to the whole foreground group
    else:
        os.kill(proc.pid, signal.SIGTERM)
    proc.communicate(timeout=120)
    assert proc.returncode != 0
    time.sleep(1)
    left = [f"{pid}: {cmd[:80]}" for pid, cmd in seen.items() if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
    assert not left, f"left running after the interrupt: {left}"
    with open(w / "build" / ".wirespeed.lock", "w") as lock:  # the build lock is free again: the next step takes it at once
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_jobs_go_to_a_running_scheduler_by_its_address(tmp_path, monkeypatch):
    from distributed import Client, LocalCluster

    from wirespeed.analysis import run as analysis
    from wirespeed.pipeline import cluster

    db, out = catalog_of(tmp_path, SECOND), tmp_path / "analysis"
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None) as lab:  # a lab's scheduler, two threads a worker
        monkeypatch.setenv(cluster.ENV, lab.scheduler_address)
        plan, errors = analysis.run(db, [SECOND], out_root=out, scheduler=cluster.chosen(None))
        assert not errors, errors
        assert len(plan.run) == 2 and (out / SECOND / "index.json").is_file()
        with Client(lab) as c:  # the lab's cluster is still up, its worker too: only the command's client closed
            assert len(c.scheduler_info()["workers"]) == 1


def test_an_unreachable_scheduler_is_one_line(tmp_path, monkeypatch):
    from wirespeed.analysis import run as analysis
    from wirespeed.pipeline import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 2)
    db, out = catalog_of(tmp_path, SECOND), tmp_path / "analysis"
    with pytest.raises(cluster.SchedulerError, match=r"^scheduler tcp://127\.0\.0\.1:9: cannot connect: "):
        analysis.run(db, [SECOND], out_root=out, scheduler="tcp://127.0.0.1:9")
