"""Issue 25: `wirespeed serve` previews the site with Hugo's server on a free port it names, shows a draft
article marked as a draft (the built site leaves it out), and reloads an edited article within seconds;
stopping it stops its Hugo too. Run in a scratch copy of the session pipeline's built folder."""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import WIRESPEED
from pipeline import BUILD, WORK, build

pytestmark = pytest.mark.slow
SOURCES = ["config.toml", "layouts", "content", "static", "assets", "data", "docs", "CONTRIBUTING.md"]
DRAFT = """---
title: "Review draft: the ramp router, in preview"
date: 2026-11-26
draft: true
summary: "A draft that only a preview shows."
resultsets: ["linux-netns-ipv4-ramp-2026-11"]
---

The first paragraph of a draft review.
"""


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, ""


def _until(what, timeout: float, step: float = 0.25):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(step)
    return None


@pytest.fixture
def work(tmp_path: Path) -> Path:
    build("site")
    w = tmp_path / "w"
    w.mkdir()
    for name in SOURCES:
        src = WORK / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, w / name)
    (w / "node_modules").symlink_to((WORK / "node_modules").resolve())
    shutil.copytree(BUILD, w / "build", ignore=shutil.ignore_patterns("analysis", "logs", "*.duckdb*", ".*lock"))
    (w / "content" / "reviews" / "zz-preview-draft.md").write_text(DRAFT, encoding="utf-8")
    return w


def test_serve_previews_drafts_marked_and_reloads_an_edited_article(work):
    proc = subprocess.Popen([*WIRESPEED, "serve", "--no-build"], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
        m = re.search(r"serving the site at (http://127\.0\.0\.1:(\d+)/) with live reload", first)
        assert m, first
        base = m.group(1)
        assert _until(lambda: _get(base)[0] == 200, 180), "the preview did not answer"
        status, html = _get(base + "reviews/zz-preview-draft/")
        assert status == 200 and re.search(r'class="?draft-mark', html) and "The first paragraph of a draft review." in html
        assert "livereload" in html  # Hugo's reload script: the browser reloads when a source changes
        status, html = _get(base + "reviews/linux-netns-ipv4-ramp-2026-11/")
        assert status == 200 and "draft-mark" not in html  # a published article is not marked
        article = work / "content" / "reviews" / "zz-preview-draft.md"
        article.write_text(DRAFT.replace("The first paragraph", "An edited first paragraph"), encoding="utf-8")
        t = time.monotonic()
        assert _until(lambda: "An edited first paragraph of a draft review." in _get(base + "reviews/zz-preview-draft/")[1], 60), \
            "the edit did not show"
        print(f"edit shown after {time.monotonic() - t:.1f} s")
        port = int(m.group(2))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    with socket.socket() as sock:  # Hugo stopped with it: the port is free again
        assert _until(lambda: sock.connect_ex(("127.0.0.1", port)) != 0, 10)


def test_serving_the_built_site_needs_one(work):
    """--built serves public/ as published; without a built site it says so in one line (no traceback)."""
    proc = subprocess.run([*WIRESPEED, "serve", "--built", "--no-build"], cwd=work, capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "public/ holds no built site: run wirespeed build first" in proc.stderr, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("built", [True, False])
def test_an_address_it_cannot_listen_on_is_one_line(work, built):
    """A --bind name that does not resolve is an error naming the address, for the built site and the live one."""
    (work / "public").mkdir(exist_ok=True)
    (work / "public" / "index.html").write_text("<!doctype html><title>built</title>", encoding="utf-8")
    args = ["serve", "--no-build", "--bind", "no-such-host.invalid", *(["--built"] if built else [])]
    proc = subprocess.run([*WIRESPEED, *args], cwd=work, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "cannot listen on no-such-host.invalid" in proc.stderr, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
