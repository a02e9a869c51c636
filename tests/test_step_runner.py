"""The one step runner: a job is fresh only when its manifest holds its key and its outputs exist,
`why` names the component that changed, and `wirespeed why SLUG` covers the PDF report as well as
the notebooks: up to date after a build, then the build stamp, the template or a missing PDF."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

import workdir
from conftest import ARCHIVE, WIRESPEED


def _job(tmp_path: Path, components: dict):
    from wirespeed.pipeline import runner

    @dataclass
    class FileJob(runner.Job):
        out: Path

        @property
        def manifest(self) -> Path:
            return self.out.with_suffix(".manifest.json")

        @property
        def outputs(self) -> tuple[Path, ...]:
            return (self.out,)

    return FileJob("some-set", runner.digest(components), components, tmp_path / "some-set.out")


def test_why_names_the_changed_component_and_its_entries(tmp_path: Path):
    from wirespeed.pipeline import runner

    before = {"data": "a", "charts": {"c1": "x", "c2": "y"}, "tools": {"pandoc": "3.1", "xelatex": "X"}, "build": "s1", "article": None}
    job = _job(tmp_path, before)
    assert runner.why(job).startswith("would run: never run (no ") and not job.fresh()
    job.manifest.write_text(job.manifest_text())
    assert runner.why(job) == f"would run: output missing ({job.out})"
    assert runner.split([job]) == ([job], [])
    job.out.write_text("built")
    assert runner.why(job) == "up to date" and job.fresh() and runner.split([job]) == ([], [job])
    after = {**before, "charts": {"c1": "x", "c2": "z", "c3": "w"}, "tools": {"pandoc": "3.2", "xelatex": "X"}, "build": "s2"}
    changed = _job(tmp_path, after)
    assert changed.key != job.key
    assert runner.why(changed, {"build": "build stamp"}) == "would run: changed charts (c2, c3), tools (pandoc 3.1 → 3.2), build stamp"
    (tmp_path / "gone.out").write_text("old")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "old-set").mkdir()
    assert runner.stale(tmp_path, {"some-set.out", "some-set.manifest.json"}, dirs=False) == [tmp_path / "gone.out"]
    assert runner.stale(tmp_path, set(), dirs=True, skip_hidden=True) == [tmp_path / "old-set"]
    runner.prune([tmp_path / "gone.out", tmp_path / "old-set"])
    assert sorted(p.name for p in tmp_path.iterdir()) == [".hidden", "some-set.manifest.json", "some-set.out"]


@pytest.mark.slow
def test_wirespeed_why_covers_the_report(tmp_path: Path):
    if shutil.which("xelatex") is None:
        pytest.skip("xelatex is not installed")
    (tmp_path / "w").mkdir()
    w = workdir.make(tmp_path / "w", examples=False)
    slug = "keysight-ixnetwork-ve-dpdk-400g-2022"
    shutil.copytree(ARCHIVE / slug, w / "data" / "results" / slug)
    env = {**os.environ, "HUGO_BASEURL": "https://bench.example.org/"}

    def cli(*args: str, **extra: str) -> str:
        proc = subprocess.run([*WIRESPEED, *args], cwd=w, capture_output=True, text=True, timeout=1800, env={**env, **extra})
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout

    assert "report: would not build: no exported site data for " + slug in cli("why", slug)
    cli("analyse", slug)
    cli("site", "--data-only")
    cli("report", slug)
    lines = cli("why", slug).splitlines()
    assert lines[-1] == "report: up to date" and lines[:-1] and all(l.endswith(": up to date") for l in lines[:-1]), lines
    assert cli("why", slug, "report").splitlines() == ["report: up to date"]
    assert cli("why", slug, "report", HUGO_BASEURL="https://elsewhere.example.org/").splitlines() == ["report: would run: changed build stamp (base)"]
    defaults = w / "reports" / "defaults.yaml"
    defaults.write_text(defaults.read_text() + "\n# a changed default\n")
    assert cli("why", slug, "report").splitlines() == ["report: would run: changed template"]
    data = w / "build" / "hugo-data" / "wirespeed" / "sets" / f"{slug}.json"
    data.write_text(json.dumps(json.loads(data.read_text()), indent=2))
    assert cli("why", slug, "report").splitlines() == ["report: would run: changed data, template"]
    (w / "build" / "reports" / f"{slug}.manifest.json").unlink()
    assert cli("why", slug, "report").splitlines() == [f"report: would run: never run (no build/reports/{slug}.manifest.json)"]
