"""The site step asks Hugo only when what it reads changed (wirespeed/site/hugomemo.py): the same inputs and an
untouched site folder keep the site; a changed page, a changed base URL, a file missing from the built site or a
broken memory rebuild it."""

from __future__ import annotations

from pathlib import Path

import pytest

import workdir

pytestmark = pytest.mark.slow

KEPT = "site up to date"
BUILT = "site built"


def _site(w: Path, *args: str) -> str:
    proc = workdir.wirespeed(w, "site", *args)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


def test_hugo_runs_only_when_what_it_reads_or_the_site_changed(tmp_path):
    w = workdir.make_without_reviews(tmp_path, "cisco-7600-osm-acl-2001")  # one small set
    for step in ("ingest", "analyse"):
        proc = workdir.wirespeed(w, step)
        assert proc.returncode == 0, proc.stderr[-2000:]
    assert BUILT in _site(w)
    front = w / "public" / "index.html"
    inode = front.stat().st_ino
    assert KEPT in _site(w)
    assert front.stat().st_ino == inode  # the site was not built again
    about = w / "content" / "about.md"
    about.write_text(about.read_text(encoding="utf-8") + "\nA sentence added after the last build.\n", encoding="utf-8")
    assert BUILT in _site(w)
    assert "A sentence added after the last build." in (w / "public" / "about" / "index.html").read_text(encoding="utf-8")
    assert KEPT in _site(w)
    (w / "public" / "about" / "index.html").unlink()  # the built site changed since: built again, the page back
    assert BUILT in _site(w)
    assert (w / "public" / "about" / "index.html").is_file()
    assert BUILT in _site(w, "--base-url", "https://example.org/wirespeed/")  # another address: other links
    assert "/wirespeed/" in front.read_text(encoding="utf-8")
    assert KEPT in _site(w, "--base-url", "https://example.org/wirespeed/")
    (w / "build" / "cache" / "hugo.json").write_text("{broken", encoding="utf-8")
    assert BUILT in _site(w, "--base-url", "https://example.org/wirespeed/")
