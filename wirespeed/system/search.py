"""The site search index: Pagefind (npm `pagefind`, pinned by package-lock.json) run offline over the
built site, writing <site>/pagefind/ (the index and its reader, served from 'self').

Pagefind holds what it indexes in memory (bench/README.md: about 0.9 MB a result set with the exclusions below, 1.65 MB
without them), so an archive of many sets is indexed in slices: the site's pages but the sets' in pagefind/, and the
sets' pages SLICE_SETS sets at a time in pagefind/slice-<n>/, each a Pagefind run of its own. pagefind/slices.json
lists the slices (an empty list when there are none), and the search page merges them into the main index with
Pagefind's mergeIndex (assets/js/search.js), so a reader searches one index."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

PAGEFIND = Path("node_modules/.bin/pagefind")
# Left out of the index: the tables (every figure's cell) and the charts (their alt text and data tables say the same
# numbers again). The words that find a page stay: titles, device, setup, prose, captions outside charts. This halves
# Pagefind's memory, which grows with what it indexes (bench/README.md: 5.0 → 2.7 GB at 3,000 sets).
EXCLUDED = ("table", "figure.result-chart")
SLICE_SETS = 1000  # result sets one Pagefind run indexes at most: its memory stays about 1.7 GB (bench/README.md)
OUTPUT = "pagefind"
SLICES = "slices.json"  # in OUTPUT: the slices' folders, relative to OUTPUT


class SearchIndexError(RuntimeError):
    """Pagefind is missing or failed; the message says which and how to fix it."""


def slice_folder(n: int) -> str:
    """The folder of the n-th slice's index, under OUTPUT (as slices.json names it)."""
    return f"slice-{n}/"


def command(exe: Path, site: Path, output: str, glob: str | None) -> list[str]:
    """One Pagefind run's command line: the pages `glob` selects (every page when None) into site/<output>."""
    excluded = [arg for selector in EXCLUDED for arg in ("--exclude-selectors", selector)]
    return [str(exe), "--site", str(site.resolve()), "--output-subdir", output, "--silent", *excluded, *(["--glob", glob] if glob else [])]


def commands(site: Path, root: Path = Path("."), slice_sets: int = SLICE_SETS) -> list[list[str]]:
    """Every Pagefind run that indexes `site`, in order: the site's pages but the sets', then each slice of the sets'."""
    exe = (root / PAGEFIND).resolve()
    main, parts = slices(site, slice_sets)
    return [command(exe, site, OUTPUT, main)] + [command(exe, site, f"{OUTPUT}/{slice_folder(n)}", glob) for n, glob in enumerate(parts, 1)]


def _run(cmd: list[str]) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        lines = [l for l in (proc.stderr + proc.stdout).splitlines() if l.strip()]
        raise SearchIndexError("pagefind failed: " + " | ".join(lines[-5:]))
    return proc.stdout.strip()


def _alternatives(names: list[str]) -> str:
    return names[0] if len(names) == 1 else "{" + ",".join(names) + "}"


def slices(site: Path, slice_sets: int = SLICE_SETS) -> tuple[str | None, list[str]]:
    """(the main run's glob, or None for every page; one glob per slice of the sets' pages)."""
    results = site / "results"
    slugs = sorted(d.name for d in results.iterdir() if d.is_dir() and not d.is_symlink()) if results.is_dir() else []
    if len(slugs) <= slice_sets:
        return None, []
    rest = sorted(p.name for p in site.iterdir() if p.name not in ("results", OUTPUT) and not p.is_symlink()
                  and (p.is_dir() or p.suffix == ".html"))
    top = [f"{n}/**/*.html" if (site / n).is_dir() else n for n in rest] + ["results/*.html"]
    parts = [slugs[i:i + slice_sets] for i in range(0, len(slugs), slice_sets)]
    return _alternatives(top), [f"results/{_alternatives(part)}/**/*.html" for part in parts]


def index(site: Path, root: Path = Path("."), slice_sets: int = SLICE_SETS) -> str:
    """Index the HTML pages of `site` into site/pagefind/ (and its slices); returns Pagefind's summary line."""
    exe = (root / PAGEFIND).resolve()
    if not exe.exists():
        raise SearchIndexError(f"{PAGEFIND}: Pagefind is not installed; run `npm ci` (make setup) in the repository root")
    first, *rest = commands(site, root, slice_sets)
    out = _run(first)  # first: Pagefind empties its output folder
    for cmd in rest:
        _run(cmd)
    (site / OUTPUT / SLICES).write_text(json.dumps([slice_folder(n) for n in range(1, len(rest) + 1)]), encoding="utf-8")
    return out
