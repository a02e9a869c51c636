"""The GitHub Actions workflows are least-privilege and pinned, pass actionlint with shellcheck, and
pull-request validation runs the base branch's code on the pull request's data; the changed-set
listing is NUL-safe and runs here on real git repositories."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import ARCHIVE, ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
SCRIPTS = ROOT / ".github" / "scripts"
ACTIONLINT = ROOT / ".tools" / "bin" / "actionlint"
FILES = sorted(WORKFLOWS.glob("*.yml"))
NAMES = {"ci.yml", "validate-pr.yml", "publish.yml", "sharded-build.yml"}
PINNED = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$")
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$")
VERSION_COMMENT = re.compile(r"^\s+#\s*v\d+(?:\.\d+){0,2}\s*$")


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def steps(workflow: dict):
    for name, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            yield name, job, step


def checkouts(workflow: dict) -> list[dict]:
    return [s for _, _, s in steps(workflow) if s.get("uses", "").startswith("actions/checkout@")]


def test_the_four_workflows_exist():
    assert {p.name for p in FILES} == NAMES


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_top_level_permissions_are_contents_read(path):
    assert load(path).get("permissions") == {"contents": "read"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_write_scopes_only_on_the_deploy_job(path):
    for name, job in load(path)["jobs"].items():
        perms = job.get("permissions", {})
        assert isinstance(perms, dict), f"{path.name}: job {name}: permissions must be a mapping, not {perms!r}"
        writes = {scope for scope, level in perms.items() if level == "write"}
        if path.name == "publish.yml" and name == "deploy":
            assert perms == {"pages": "write", "id-token": "write"}
            assert all("run" not in s for s in job["steps"]), "the deploy job runs no repository code"
        else:
            assert not writes, f"{path.name}: job {name} has write scopes {sorted(writes)}"


def test_the_job_that_builds_contributed_data_reads_only():
    jobs = load(WORKFLOWS / "publish.yml")["jobs"]
    builders = [n for n, j in jobs.items() if any("make" in s.get("run", "") for s in j.get("steps", []))]
    assert builders == ["build"]
    assert jobs["build"]["permissions"] == {"contents": "read"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_with_its_version(path):
    lines = [USES_LINE.match(line) for line in path.read_text(encoding="utf-8").splitlines()]
    found = [m for m in lines if m]
    assert found, f"{path.name} uses no action"
    for m in found:
        assert PINNED.match(m.group(1)), f"{path.name}: {m.group(1)} is not pinned to a 40-hex commit"
        assert VERSION_COMMENT.match(m.group(2)), f"{path.name}: {m.group(1)} has no '# vX.Y.Z' comment"
    parsed = [s["uses"] for _, _, s in steps(load(path)) if "uses" in s]
    assert sorted(parsed) == sorted(m.group(1) for m in found)


def test_one_version_per_action_across_workflows():
    pins: dict[str, set[str]] = {}
    for path in FILES:
        for _, _, s in steps(load(path)):
            if "uses" in s:
                action, sha = s["uses"].split("@")
                pins.setdefault(action, set()).add(sha)
    assert all(len(shas) == 1 for shas in pins.values()), pins


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_checkouts_keep_no_credentials(path):
    found = checkouts(load(path))
    assert found
    for step in found:
        assert step.get("with", {}).get("persist-credentials") is False, step


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_expressions_inside_run_scripts(path):
    for job, _, step in steps(load(path)):
        if "run" in step:
            assert "${{" not in step["run"], f"{path.name}: job {job}: pass it through env: {step['run']!r}"


def test_pull_requests_are_validated_by_the_base_branch_code():
    wf = load(WORKFLOWS / "validate-pr.yml")
    events = wf[True]  # PyYAML reads the key `on` as True
    assert set(events) == {"pull_request"}
    text = (WORKFLOWS / "validate-pr.yml").read_text(encoding="utf-8")
    assert "pull_request_target" not in text.split("\non:")[1] and "secrets." not in text
    by_path = {s["with"]["path"]: s["with"] for s in checkouts(wf)}
    assert set(by_path) == {"base", "pr"}
    assert by_path["base"]["ref"] == "${{ github.event.pull_request.base.sha }}"
    assert by_path["pr"]["ref"] == "${{ github.event.pull_request.head.sha }}"
    assert by_path["pr"]["sparse-checkout"].strip() == "/data/results/"
    runs = [s for _, _, s in steps(wf) if "run" in s]
    assert [(s.get("working-directory"), s["run"]) for s in runs[:1]] == [("base", "make python-env")]
    validate = runs[1]
    assert validate["run"].split()[:3] == ["base/.github/scripts/validate-changed-sets.sh", "base/.venv/bin/wirespeed", "pr"]
    assert validate["env"] == {"BASE_SHA": "${{ github.event.pull_request.base.sha }}",
                               "HEAD_SHA": "${{ github.event.pull_request.head.sha }}"}
    for s in runs:  # nothing runs from, or out of, the pull request's checkout
        assert s.get("working-directory", "") != "pr" and not re.search(r"(^|[\s/])pr/", s["run"]), s


def test_publish_takes_the_base_url_from_configure_pages():
    jobs = load(WORKFLOWS / "publish.yml")["jobs"]
    (pages,) = [s for s in jobs["pages"]["steps"] if s.get("uses", "").startswith("actions/configure-pages@")]
    assert jobs["pages"]["outputs"]["base_url"] == f"${{{{ steps.{pages['id']}.outputs.base_url }}}}"
    (make,) = [s for s in jobs["build"]["steps"] if s.get("run") == "make"]
    assert make["env"]["HUGO_BASEURL"].startswith("${{ needs.pages.outputs.base_url }}")
    assert "pages" in jobs["build"]["needs"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_jobs_run_on_the_ubuntu_the_makefile_supports(path):
    for name, job in load(path)["jobs"].items():
        assert job["runs-on"] == "ubuntu-24.04", f"{path.name}: job {name}"


# actionlint (built by `make test-tools`) with shellcheck; actionlint silently skips shellcheck when
# it cannot run it, so shellcheck is required explicitly and a planted finding proves it is active.

def actionlint(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    if not ACTIONLINT.is_file():
        pytest.fail(f"{ACTIONLINT} is missing: `make test-tools` builds it")
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.fail("shellcheck is not installed (`make system-packages` installs it)")
    return subprocess.run([str(ACTIONLINT), "-no-color", "-shellcheck", shellcheck, *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_actionlint_with_shellcheck_passes():
    proc = actionlint()
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr


def test_actionlint_reports_a_shellcheck_finding(tmp_path):
    wf = tmp_path / ".github" / "workflows"
    wf.mkdir(parents=True)
    (wf / "bad.yml").write_text("on: push\npermissions:\n  contents: read\njobs:\n  x:\n    runs-on: ubuntu-24.04\n"
                                "    steps:\n      - run: echo $1\n")
    proc = actionlint(str(wf / "bad.yml"), cwd=tmp_path)
    assert proc.returncode == 1 and "SC2086" in proc.stdout, proc.stdout + proc.stderr


def test_the_scripts_pass_shellcheck():
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.fail("shellcheck is not installed (`make system-packages` installs it)")
    scripts = sorted(SCRIPTS.glob("*.sh"))
    assert scripts
    proc = subprocess.run([shellcheck, *map(str, scripts)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# The changed-set listing and the validation step, on a scratch repository.

def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t.invalid", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout.strip()


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def pr_repo(tmp_path):
    """A base commit with two sets and a branch that changes one, adds three, deletes one."""
    repo = tmp_path / "repo"
    results = repo / "data" / "results"
    results.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    for name in ("kept", "gone", "changed"):
        (results / name).mkdir()
        (results / name / "result.toml").write_text(f"# {name}\n")
    (repo / "Makefile").write_text("all:\n")
    base = commit(repo, "base")
    git(repo, "checkout", "-q", "-b", "contribution")
    shutil.rmtree(results / "gone")
    (results / "changed" / "result.toml").write_text("# changed by the pull request\n")
    for name in ("café set", "new\nline", "-dash [x] *"):
        (results / name).mkdir()
        (results / name / "result.toml").write_text("#\n")
    (repo / "Makefile").write_text("all:\n\tfalse\n")
    head = commit(repo, "contribution")
    return repo, base, head


def changed_sets(repo: Path, base: str, head: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPTS / "changed-sets.sh"), str(repo), base, head], capture_output=True)


def test_changed_sets_are_listed_nul_safe(pr_repo):
    repo, base, head = pr_repo
    proc = changed_sets(repo, base, head)
    assert proc.returncode == 0, proc.stderr
    listed = proc.stdout.decode().split("\0")
    assert listed.pop() == ""
    assert listed == ["data/results/-dash [x] *", "data/results/café set", "data/results/changed", "data/results/new\nline"]
    assert "deleted, not validated: data/results/gone" in proc.stderr.decode()


def test_no_changed_set_lists_nothing_and_a_bad_commit_fails(pr_repo):
    repo, base, _ = pr_repo
    proc = changed_sets(repo, base, base)
    assert proc.returncode == 0 and proc.stdout == b""
    proc = changed_sets(repo, base, "0" * 40)
    assert proc.returncode != 0 and proc.stdout == b""


def validate_changed(repo: Path, base: str, head: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPTS / "validate-changed-sets.sh"), str(ROOT / ".venv" / "bin" / "wirespeed"), str(repo), base, head],
                          capture_output=True, text=True, timeout=600)


def test_the_base_wirespeed_validates_the_changed_sets(tmp_path):
    """A real example set: changed, it is validated and passes; copied under a folder name with a
    space and an accent, it is validated (not skipped) and fails on its slug; deleted, nothing is
    left to validate."""
    repo = tmp_path / "pr"
    results = repo / "data" / "results"
    results.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    shutil.copytree(ARCHIVE / "cisco-7600-osm-acl-2001", results / "cisco-7600-osm-acl-2001")
    toml = results / "cisco-7600-osm-acl-2001" / "result.toml"
    base = commit(repo, "base")
    toml.write_text(toml.read_text(encoding="utf-8") + "# a comment added by the pull request\n", encoding="utf-8")
    changed = commit(repo, "change a set")
    proc = validate_changed(repo, base, changed)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "validating data/results/cisco-7600-osm-acl-2001\n" in proc.stdout and "1 result set: 1 valid" in proc.stderr

    shutil.copytree(ARCHIVE / "cisco-7600-osm-acl-2001", results / "café set")
    added = commit(repo, "add a set")
    proc = validate_changed(repo, base, added)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "data/results/café set/result.toml:2: slug:" in proc.stdout and "2 result sets: 1 valid, 1 invalid" in proc.stderr

    git(repo, "checkout", "-q", base)
    git(repo, "rm", "-q", "-r", "data/results/cisco-7600-osm-acl-2001")
    deleted = commit(repo, "delete a set")
    proc = validate_changed(repo, base, deleted)
    assert proc.returncode == 0 and "no changed result set left to validate" in proc.stdout, proc.stdout + proc.stderr


def test_validation_refuses_a_checkout_other_than_the_head(pr_repo):
    repo, base, head = pr_repo
    git(repo, "checkout", "-q", base)
    proc = validate_changed(repo, base, head)
    assert proc.returncode == 2 and "not " + head in proc.stderr


# Only plain folders of regular files under data/results/ (issue 28): what the PR check must refuse.

def changed_sets_deleted(repo: Path, base: str, head: str, tmp: Path) -> tuple[subprocess.CompletedProcess, list[str]]:
    out = tmp / "deleted"
    proc = subprocess.run([str(SCRIPTS / "changed-sets.sh"), "--deleted", str(out), str(repo), base, head], capture_output=True)
    return proc, [x for x in out.read_text().split("\0") if x] if out.exists() else []


def gitlink(repo: Path, path: str, sha: str) -> None:
    """A gitlink (mode 160000), the way a submodule is recorded, without any submodule to fetch."""
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},{path}")


@pytest.mark.parametrize("where", ["data/results/sub", "data/results/kept/sub"])
def test_a_gitlink_is_refused(pr_repo, tmp_path, where):
    """A submodule in place of a set, or inside one: nothing in it would be validated, and after the merge
    the build would find an empty folder. The PR check refuses it, naming it."""
    repo, base, _head = pr_repo
    git(repo, "checkout", "-q", "-b", "gitlink", base)
    gitlink(repo, where, base)
    git(repo, "commit", "-q", "-m", "a submodule")
    head = git(repo, "rev-parse", "HEAD")
    assert git(repo, "ls-tree", "-r", head, "--", where).startswith("160000 commit")
    proc, _ = changed_sets_deleted(repo, base, head, tmp_path)
    assert proc.returncode == 1
    assert f"refused: {where}: a gitlink (submodule)" in proc.stderr.decode()
    proc = validate_changed(repo, base, head)
    assert proc.returncode == 1 and "gitlink" in proc.stderr, proc.stdout + proc.stderr


@pytest.mark.parametrize("name, make", [
    ("symlinked set", lambda r: os.symlink("kept", r / "data" / "results" / "linked")),
    ("symlink in a set", lambda r: os.symlink("/etc/passwd", r / "data" / "results" / "kept" / "passwd.txt")),
    ("file in data/results", lambda r: (r / "data" / "results" / "README.md").write_text("not a set\n")),
])
def test_what_is_not_a_folder_of_regular_files_is_refused(pr_repo, tmp_path, name, make):
    repo, base, _head = pr_repo
    git(repo, "checkout", "-q", "-b", "odd", base)
    make(repo)
    head = commit(repo, name)
    proc, _ = changed_sets_deleted(repo, base, head, tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err.startswith("refused: data/results/"), err
    assert ("a symlink" in err) if "symlink" in name else ("a file directly in data/results/" in err)
    assert validate_changed(repo, base, head).returncode == 1


def review(slug: str, cites: str = "report") -> str:
    """A review article citing a set by its report (front matter), its resultsets list or a shortcode."""
    front = {"report": f'report: "{slug}"\n', "resultsets": f'resultsets: ["{slug}"]\n', "shortcode": ""}[cites]
    body = f'{{{{< result-figure set="{slug}" figure="x/throughput/64" >}}}}\n' if cites == "shortcode" else "Text.\n"
    return f"---\ntitle: Review\n{front}---\n\n{body}"


@pytest.fixture
def cited_repo(tmp_path):
    """Two sets on main, one of them cited by a review article."""
    repo = tmp_path / "cited"
    for name in ("cited", "loose"):
        (repo / "data" / "results" / name).mkdir(parents=True)
        (repo / "data" / "results" / name / "result.toml").write_text(f"# {name}\n")
    (repo / "content" / "reviews").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    base = commit(repo, "base")
    return repo, base


@pytest.mark.parametrize("cites", ["report", "resultsets", "shortcode"])
def test_deleting_a_cited_set_is_refused(cited_repo, cites):
    repo, _ = cited_repo
    (repo / "content" / "reviews" / "a-review.md").write_text(review("cited", cites))
    base = commit(repo, "a review")
    git(repo, "checkout", "-q", "-b", "delete")
    git(repo, "rm", "-q", "-r", "data/results/cited")
    head = commit(repo, "delete the cited set")
    proc = validate_changed(repo, base, head)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "a-review.md: cites cited" in proc.stdout and "deletes a result set that an article cites" in proc.stderr


def test_deleting_an_uncited_set_or_a_set_with_its_review_passes(cited_repo):
    repo, _ = cited_repo
    (repo / "content" / "reviews" / "a-review.md").write_text(review("cited"))
    base = commit(repo, "a review")
    git(repo, "checkout", "-q", "-b", "delete-loose")
    git(repo, "rm", "-q", "-r", "data/results/loose")
    head = commit(repo, "delete the loose set")
    proc = validate_changed(repo, base, head)
    assert proc.returncode == 0 and "no changed result set left to validate" in proc.stdout, proc.stdout + proc.stderr
    git(repo, "checkout", "-q", "-b", "delete-both", base)
    git(repo, "rm", "-q", "-r", "data/results/cited", "content/reviews/a-review.md")
    head = commit(repo, "delete the set and its review")
    proc = validate_changed(repo, base, head)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_review_added_on_main_after_the_branch_counts(cited_repo):
    """The articles checked are those of the merge: a review main gained after the pull request branched
    off still protects the set it cites."""
    repo, first = cited_repo
    git(repo, "checkout", "-q", "-b", "delete", first)
    git(repo, "rm", "-q", "-r", "data/results/loose")
    head = commit(repo, "delete the loose set")
    git(repo, "checkout", "-q", "main")
    (repo / "content" / "reviews" / "later.md").write_text(review("loose", "resultsets"))
    base = commit(repo, "a review of the loose set")
    git(repo, "checkout", "-q", "delete")
    proc = validate_changed(repo, base, head)
    assert proc.returncode == 1 and "later.md: cites loose" in proc.stdout, proc.stdout + proc.stderr
