"""Interrupted builds: killing `wirespeed analyse` leaves no worker or kernel running (nor does its normal end); killing a
Hugo build leaves the previous public/ whole; the next run sweeps what a killed run left behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conftest import ARCHIVE, ROOT, WIRESPEED

MARK = "WIRESPEED_TEST_RUN"


def marked(token: str) -> dict[int, str]:
    """Live processes (pid → command name) whose environment carries MARK=token."""
    found = {}
    needle = f"{MARK}={token}".encode()
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            if needle not in (d / "environ").read_bytes().split(b"\0"):
                continue
            state = (d / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z":
                found[int(d.name)] = (d / "comm").read_text().strip()
        except OSError:
            continue
    return found


def wait_for(cond, timeout: float, step: float = 0.02):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(step)
    return cond()


def reap(proc: subprocess.Popen, token: str) -> None:
    """Test hygiene: whatever survived (the test then fails) is killed, never left behind."""
    for pid in marked(token):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    if proc.poll() is None:
        proc.kill()
    proc.wait()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_killing_analyse_leaves_no_worker_running(tmp_path, sig):
    slug = "cisco-7600-osm-acl-2001"
    shutil.copytree(ARCHIVE / slug, tmp_path / "data" / "results" / slug)
    (tmp_path / "notebooks").symlink_to(ROOT / "notebooks")
    token = uuid.uuid4().hex
    env = {**os.environ, MARK: token}
    proc = subprocess.Popen([*WIRESPEED, "analyse", "-j", "2"], cwd=tmp_path, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        set_dir = tmp_path / "build" / "analysis" / slug
        # a worker is inside a notebook: its temporary folder exists and its kernel runs
        started = wait_for(lambda: set_dir.is_dir() and any(p.is_dir() and p.name.startswith(".") for p in set_dir.iterdir())
                           and len(marked(token)) >= 4, 120)
        assert started and proc.poll() is None, f"analyse did not reach its notebooks: {marked(token)} {proc.poll()}"
        before = marked(token)
        proc.send_signal(sig)
        proc.wait(30)
        left = wait_for(lambda: not marked(token), 20) or marked(token)
        assert left is True, f"still running after the parent was killed ({sig.name}): {left} (were {before})"
        if sig == signal.SIGTERM:
            assert proc.returncode != 0
            # every exit path removes the temporary folders
            assert not [p for p in set_dir.iterdir() if p.is_dir() and p.name.startswith(".")]
    finally:
        reap(proc, token)
    # the next run sweeps whatever a killed run could leave behind (here planted), and keeps the rest
    build = tmp_path / "build"
    planted = [build / ".hugo-data.k2j4_x9a", build / ".site-static.0a1b2c3d", build / "analysis" / ".x.abcdefgh",
               set_dir / ".throughput.zz1yy2xx"]
    for d in planted:
        d.mkdir(parents=True, exist_ok=True)
        (d / "half-written.json").write_text("{")
    (build / "reports").mkdir(exist_ok=True)
    temp_file = build / "reports" / f".{slug}.pdf.q1w2e3r4"
    temp_file.write_bytes(b"%PDF-")
    keep = [build / "wirespeed.duckdb", set_dir / ".throughput.kernel.log"]
    keep[1].write_text("keep")
    run = subprocess.run([*WIRESPEED, "report"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in run.stderr, run.stderr
    assert not [p for p in planted + [temp_file] if p.exists()]
    assert all(k.exists() for k in keep)


def test_a_finished_analyse_leaves_no_kernel_running(tmp_path):
    """Kernels are kept warm across a worker's runs: when the command ends they end with it."""
    slug = "cisco-7600-osm-acl-2001"
    shutil.copytree(ARCHIVE / slug, tmp_path / "data" / "results" / slug)
    (tmp_path / "notebooks").symlink_to(ROOT / "notebooks")
    token = uuid.uuid4().hex
    proc = subprocess.Popen([*WIRESPEED, "analyse", "-j", "2"], cwd=tmp_path, env={**os.environ, MARK: token}, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert out.startswith("2 notebook runs executed"), out
        left = wait_for(lambda: not marked(token), 20) or marked(token)
        assert left is True, f"still running after analyse finished: {left}"
    finally:
        reap(proc, token)


def _hugo(dest: Path, token: str) -> subprocess.Popen:
    code = ("import sys; from pathlib import Path; from wirespeed.system import hugo, interrupts\n"
            "with interrupts.signals_exit():\n"
            "    hugo.build(Path(sys.argv[1]), Path(sys.argv[2]), ['--config', 'config.toml,tests/site_fixture/config.toml'])\n")
    return subprocess.Popen([sys.executable, "-c", code, str(ROOT), str(dest)], cwd=ROOT, env={**os.environ, MARK: token},
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_killing_hugo_leaves_the_previous_site_whole(tmp_path, sig):
    from wirespeed.system import interrupts
    public = tmp_path / "public"
    (public / "results").mkdir(parents=True)
    old = {"index.html": "<p>old site</p>", "results/index.html": "<p>old results</p>", "404.html": "old 404"}
    for name, text in old.items():
        (public / name).write_text(text)
    for _attempt in range(3):
        token = uuid.uuid4().hex
        proc = _hugo(public, token)
        try:
            hugo_seen = wait_for(lambda: [p for p, name in marked(token).items() if name == "hugo"], 60, 0.005)
            assert hugo_seen, "hugo never started"
            time.sleep(0.15)
            if proc.poll() is not None:  # the build finished before the signal: try again
                continue
            proc.send_signal(sig)
            proc.wait(30)
            assert wait_for(lambda: not marked(token), 20) is True, f"hugo survived its parent: {marked(token)}"
            break
        finally:
            reap(proc, token)
    else:
        pytest.fail("hugo finished each time before it could be interrupted")
    got = {p.relative_to(public).as_posix(): p.read_text() for p in public.rglob("*") if p.is_file()}
    assert got == old
    leftovers = list(tmp_path.glob(".public.*"))
    if sig == signal.SIGTERM:
        assert leftovers == []
    removed = interrupts.sweep(tmp_path / "build", (public,))
    assert set(leftovers) <= set(removed) and not list(tmp_path.glob(".public.*"))
    # and an uninterrupted build replaces it whole
    from wirespeed.system import hugo
    hugo.build(ROOT, public, ["--config", str(ROOT / "config.toml") + "," + str(ROOT / "tests/site_fixture/config.toml")])
    assert "old site" not in (public / "index.html").read_text() and not (public / "404.html").read_text().startswith("old")
    assert (public / "_headers").is_file()
