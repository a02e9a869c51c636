"""A set's own date (wirespeed.resultset.lastchange): the newest commit touching its folder, not the repository's
last commit, so a commit elsewhere changes no set's date and rebuilds no report; its files' time when the folder
has local changes or is not in a git checkout; never the clock."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from wirespeed.resultset.lastchange import iso, last_change, last_changes
from wirespeed.report import links as reportlinks

A_TIME, B_TIME, OTHER_TIME = 1_700_000_000, 1_750_000_000, 1_790_000_000


def _commit(repo: Path, path: str, when: int) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": f"@{when} +0000", "GIT_COMMITTER_DATE": f"@{when} +0000", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "-C", str(repo), "add", path], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", f"change {path}"], check=True, env=env)


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for name in ("a", "b"):
        (repo / "data" / "results" / name).mkdir(parents=True)
        (repo / "data" / "results" / name / "result.toml").write_text(f'slug = "{name}"\n')
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    _commit(repo, "data/results/a", A_TIME)
    _commit(repo, "data/results/b", B_TIME)
    (repo / "README.md").write_text("elsewhere\n")
    _commit(repo, "README.md", OTHER_TIME)
    return repo


def test_a_sets_date_is_its_own_newest_commit_not_the_repositorys(tmp_path):
    repo = _repo(tmp_path)
    a, b = repo / "data" / "results" / "a", repo / "data" / "results" / "b"
    assert last_change(a) == A_TIME and last_change(b) == B_TIME  # the README commit after both changes neither
    assert iso(last_change(a)) == "2023-11-14T22:13:20Z"
    stamp = reportlinks.stamp("/", repo, reportlinks.data_epoch({"changed": iso(last_change(a))}))
    assert stamp["date"] == "2023-11-14"  # what a report's title page and its rebuild key carry


def test_local_changes_and_trees_outside_git_take_the_files_time(tmp_path):
    repo = _repo(tmp_path)
    a = repo / "data" / "results" / "a"
    (a / "extra.csv").write_text("test\n")  # not committed: the folder's files say when it changed
    os.utime(a / "extra.csv", (1_800_000_000, 1_800_000_000))
    assert last_change(a) == 1_800_000_000
    plain = tmp_path / "copy" / "a"  # a tarball or scratch copy: no git at all
    plain.mkdir(parents=True)
    (plain / "result.toml").write_text("x\n")
    os.utime(plain / "result.toml", (1_600_000_000, 1_600_000_000))
    (plain / "link.csv").symlink_to(tmp_path / "outside.csv")  # a link is never followed (the set's reader refuses it too)
    (tmp_path / "outside.csv").write_text("y\n")
    assert last_change(plain) == 1_600_000_000
    assert last_change(tmp_path / "empty") is None


def test_many_sets_asked_at_once_get_each_its_own_date(tmp_path):
    """last_changes asks git once for every set of a folder: the same dates as last_change set by set, with a set
    changed twice, one with local changes, one never committed, and a set folder whose name git quotes."""
    repo = _repo(tmp_path)
    results = repo / "data" / "results"
    (results / "a" / "more.csv").write_text("x\n")
    _commit(repo, "data/results/a", 1_720_000_000)  # a's second commit: after b's, before the README's
    odd = results / "ünïcode set"
    odd.mkdir()
    (odd / "result.toml").write_text("x\n")
    _commit(repo, "data/results", 1_730_000_000)
    (results / "b" / "extra.csv").write_text("local\n")
    os.utime(results / "b" / "extra.csv", (1_810_000_000, 1_810_000_000))
    fresh = results / "c"
    fresh.mkdir()
    (fresh / "result.toml").write_text("x\n")
    os.utime(fresh / "result.toml", (1_820_000_000, 1_820_000_000))
    folders = [results / n for n in ("a", "b", "c", "ünïcode set")]
    plain = tmp_path / "copy" / "d"
    plain.mkdir(parents=True)
    (plain / "result.toml").write_text("x\n")
    os.utime(plain / "result.toml", (1_600_000_000, 1_600_000_000))
    got = last_changes(folders + [plain])
    assert got == {f: last_change(f) for f in folders + [plain]}
    assert [got[f] for f in folders] == [1_720_000_000, 1_810_000_000, 1_820_000_000, 1_730_000_000] and got[plain] == 1_600_000_000
