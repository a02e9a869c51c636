"""Issue 25: the steps run in the project folder, never beside it. `cd docs && wirespeed summary` used to
create docs/build/wirespeed.duckdb, print an empty table and exit 0; now it names the project folder above
and writes nothing, and `wirespeed --root DIR` (as git -C) runs there."""

from __future__ import annotations

from conftest import ROOT, run_cli
from wirespeed.pipeline import paths


def test_a_step_beside_the_project_names_it_and_writes_nothing(tmp_path):
    project = tmp_path / "project"
    (project / "data" / "results").mkdir(parents=True)
    (project / "docs").mkdir()
    for args in (["summary"], ["show", "x"], ["ingest"], ["build"], ["serve"]):
        proc = run_cli(*args, cwd=project / "docs")
        assert proc.returncode == 3, (args, proc.stdout, proc.stderr)
        assert f"{project / 'docs'} is not a wirespeed project folder" in proc.stderr and f"run it in {project} (or: wirespeed --root {project} …)" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in (project / "docs").iterdir()) == []  # no build/ beside the project
    outside = run_cli("summary", cwd=tmp_path)
    assert outside.returncode == 3 and "run it in the project folder, or pass --root DIR" in outside.stderr
    assert not (tmp_path / "build").exists()


def test_root_runs_the_step_in_the_project(tmp_path):
    project = tmp_path / "project"
    (project / "data" / "results").mkdir(parents=True)
    proc = run_cli("--root", str(project), "ingest", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (project / "build" / "wirespeed.duckdb").is_file() and not (tmp_path / "build").exists()
    assert "0 result sets" in proc.stderr


def test_the_repository_is_a_project_and_its_subfolders_find_it():
    assert paths.is_project(ROOT) and not paths.is_project(ROOT / "docs")
    assert paths.project_root(ROOT / "docs") == ROOT and paths.project_root(ROOT / "data" / "results") == ROOT


def test_the_site_step_before_any_catalog_says_which_step_comes_first(tmp_path):
    project = tmp_path / "project"
    (project / "data" / "results").mkdir(parents=True)
    for args in (["site", "--data-only"], ["site"]):
        proc = run_cli(*args, cwd=project)
        assert proc.returncode == 3, (args, proc.stdout, proc.stderr)
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        assert lines == ["Error: build/wirespeed.duckdb: no catalog yet: run wirespeed ingest, then wirespeed analyse "
                         "(wirespeed build runs every step)"], proc.stderr
    assert not (project / "public").exists()
