"""Each workflow's steps run here, in order, in a scratch repository made from the working tree's
tracked files, so a renamed make target, a missing file or a broken script fails `make test`, not
the first real pull request.

The GitHub-specific steps are stubbed by their documented behaviour: `actions/checkout` clones the
scratch repository at the step's `ref` into its `path` (sparsely when asked), `configure-pages`
outputs a project site's `base_url`, `upload-pages-artifact` and `deploy-pages` only check their
input. `make` is dry-run (`make -n`: an unknown target or a missing prerequisite still fails) and
the virtual environment it would create is the worktree's own `.venv`. Every `${{ }}` expression
must be one this file knows, so a new one needs a stub here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from test_workflows import commit, git

WORKFLOWS = ROOT / ".github" / "workflows"
PAGES_URL = "https://octocat.github.io/wirespeed"  # configure-pages' documented form of a project site
EXPRESSION = re.compile(r"\$\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}")


@pytest.fixture(scope="module")
def origin(tmp_path_factory):
    """The working tree's tracked files committed on main (the base), and a pull request branch
    that changes one result set."""
    repo = tmp_path_factory.mktemp("origin")
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        src, dest = ROOT / name, repo / name
        if src.is_file() or src.is_symlink():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest, follow_symlinks=False)
    git(repo, "init", "-q", "-b", "main")
    base = commit(repo, "base")
    git(repo, "checkout", "-q", "-b", "contribution")
    toml = repo / "data" / "results" / "cisco-7600-osm-acl-2001" / "result.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "# changed by the pull request\n", encoding="utf-8")
    head = commit(repo, "a pull request changes a result set")
    git(repo, "checkout", "-q", "main")
    return repo, base, head


@pytest.fixture
def shims(tmp_path):
    """`make` as a dry run that leaves the worktree's .venv where the real one would be made, and an
    empty public/ where `make` (all) builds the site."""
    bin_dir = tmp_path / "shims"
    bin_dir.mkdir()
    real_make = shutil.which("make")
    (bin_dir / "make").write_text(f"""#!/bin/sh
set -e
{real_make} -n "$@" > /dev/null
[ -e .venv ] || ln -s {ROOT / '.venv'} .venv
[ "$#" -gt 0 ] || mkdir -p public  # `make` builds public/
""")
    (bin_dir / "make").chmod(0o755)
    return bin_dir


def resolve(value, context: dict[str, str]):
    if not isinstance(value, str):
        return value

    def lookup(m):
        if m.group(1) not in context:
            pytest.fail(f"no stub for the expression {m.group(0)}")
        return context[m.group(1)]

    return EXPRESSION.sub(lookup, value)


def checkout(step, workspace: Path, origin, context):
    repo, base, head = origin
    args = {k: resolve(v, context) for k, v in step.get("with", {}).items()}
    dest = workspace / args.get("path", ".")
    assert args.get("persist-credentials") is False
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(repo), str(dest)], check=True)
    if "sparse-checkout" in args:
        cone = [] if args.get("sparse-checkout-cone-mode", True) else ["--no-cone"]
        git(dest, "sparse-checkout", "set", *cone, *args["sparse-checkout"].split())
    git(dest, "checkout", "-q", args.get("ref") or base)


def run_job(workflow: str, job_name: str, workspace: Path, origin, shims: Path, context: dict[str, str]) -> dict[str, str]:
    job = yaml.safe_load((WORKFLOWS / workflow).read_text(encoding="utf-8"))["jobs"][job_name]
    workspace.mkdir(exist_ok=True)
    for step in job["steps"]:
        action = step.get("uses", "").split("@")[0]
        if action == "actions/checkout":
            checkout(step, workspace, origin, context)
        elif action == "actions/configure-pages":
            context[f"steps.{step['id']}.outputs.base_url"] = PAGES_URL
        elif action == "actions/upload-pages-artifact":
            assert step["with"]["path"] == "public" and (workspace / "public").is_dir()
        elif action == "actions/deploy-pages":
            context[f"steps.{step['id']}.outputs.page_url"] = PAGES_URL + "/"
        elif action == "actions/cache":
            assert step["with"]["path"].strip() and step["with"]["key"].strip()
        elif action == "actions/upload-artifact":
            assert (workspace / step["with"]["path"]).is_dir(), step["with"]["path"]
        elif action:
            pytest.fail(f"{workflow}: no stub for {action}")
        else:
            env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "GITHUB_WORKSPACE": str(workspace),
                   "RUNNER_TEMP": str(workspace.parent), "GITHUB_STEP_SUMMARY": str(workspace.parent / "step-summary.md")}
            env.update({k: resolve(v, context) for k, v in step.get("env", {}).items()})
            cwd = workspace / step.get("working-directory", ".")
            proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
            assert proc.returncode == 0, f"{workflow}: {job_name}: {step.get('name', step['run'])}:\n{proc.stdout}\n{proc.stderr}"
    return {k: resolve(v, context) for k, v in job.get("outputs", {}).items()}


def test_ci_runs(tmp_path, origin, shims):
    run_job("ci.yml", "test", tmp_path / "ws", origin, shims, {})


def test_pull_request_validation_runs(tmp_path, origin, shims):
    _, base, head = origin
    context = {"github.event.pull_request.base.sha": base, "github.event.pull_request.head.sha": head}
    run_job("validate-pr.yml", "validate", tmp_path / "ws", origin, shims, context)
    pr = tmp_path / "ws" / "pr"
    assert not (pr / "Makefile").exists() and (pr / "data" / "results").is_dir()  # the pull request's data only


def test_pull_request_preview_runs(tmp_path, origin, shims):
    """The preview job copies the changed set from the pull request's data into the base's checkout,
    runs the base's `make` there and writes the base's `wirespeed summary --markdown` to the job summary."""
    _, base, head = origin
    context = {"github.event.pull_request.base.sha": base, "github.event.pull_request.head.sha": head}
    run_job("validate-pr.yml", "preview", tmp_path / "ws", origin, shims, context)
    ws = tmp_path / "ws"
    assert "# changed by the pull request" in (ws / "base" / "data" / "results" / "cisco-7600-osm-acl-2001" / "result.toml").read_text(encoding="utf-8")
    assert not (ws / "pr" / "Makefile").exists()
    summary = (tmp_path / "step-summary.md").read_text(encoding="utf-8")
    assert summary.startswith("# Result sets in this pull request")
    assert "## cisco-7600-osm-acl-2001 — valid, not built" in summary and "No problems." in summary  # `make` is a dry run here


def test_publish_runs(tmp_path, origin, shims):
    context: dict[str, str] = {}
    outputs = run_job("publish.yml", "pages", tmp_path / "pages", origin, shims, context)
    assert outputs == {"base_url": PAGES_URL}
    context.update({f"needs.pages.outputs.{k}": v for k, v in outputs.items()})
    run_job("publish.yml", "build", tmp_path / "build", origin, shims, context)
    run_job("publish.yml", "deploy", tmp_path / "deploy", origin, shims, context)


def test_publish_refuses_a_symlink_in_public(tmp_path):
    """upload-pages-artifact archives with tar --dereference: a symlink in public/ would publish its target."""
    job = yaml.safe_load((WORKFLOWS / "publish.yml").read_text(encoding="utf-8"))["jobs"]["build"]
    (guard,) = [s for s in job["steps"] if "find public -type l" in s.get("run", "")]
    (tmp_path / "public" / "results").mkdir(parents=True)
    ok = subprocess.run(["bash", "-e", "-c", guard["run"]], cwd=tmp_path, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    (tmp_path / "public" / "results" / "environ").symlink_to("/proc/self/environ")
    refused = subprocess.run(["bash", "-e", "-c", guard["run"]], cwd=tmp_path, capture_output=True, text=True)
    assert refused.returncode == 1 and "public/results/environ" in refused.stderr
