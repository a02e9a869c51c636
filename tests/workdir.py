"""A scratch working folder for the whole pipeline, as tests/test_hostile_site.py sets one up: the
site's sources copied from the repository, node_modules linked, and an archive under data/results."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conftest import ROOT, WIRESPEED, copy_examples

# What the CLI reads relative to its working folder (besides data/results and build/).
SITE_SOURCES = ["config.toml", "layouts", "content", "static", "assets", "notebooks", "reports", "Makefile"]


def make(w: Path, examples: bool = True, series: int | None = 0) -> Path:
    """Fill w with the site's sources (and the example archive unless examples=False: every example but the
    trend series, of which `series` sets, None for all); returns w."""
    for name in SITE_SOURCES:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, w / name)
    (w / "node_modules").symlink_to(ROOT / "node_modules")
    for name in ("pyproject.toml", "package.json", "package-lock.json"):  # the Makefile's prerequisites, their times kept
        shutil.copy2(ROOT / name, w / name)
    if examples:
        copy_examples(w / "data" / "results", series)
    else:
        (w / "data" / "results").mkdir(parents=True)
    return w


def make_without_reviews(w: Path, *slugs: str) -> Path:
    """Fill w with the site's sources and only the named example sets (none: an empty archive), without the review
    articles, which cite the bundled examples; returns w."""
    make(w, examples=False)
    for article in (w / "content" / "reviews").glob("*.md"):
        article.unlink()
    for slug in slugs:
        shutil.copytree(ROOT / "data" / "results" / slug, w / "data" / "results" / slug)
    return w


def wirespeed(w: Path, *args: str, timeout: int = 1800) -> subprocess.CompletedProcess:
    """Run the CLI in the working folder as a user would."""
    return subprocess.run([*WIRESPEED, *args], cwd=w, capture_output=True, text=True, timeout=timeout)
