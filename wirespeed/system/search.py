"""The site search index: Pagefind (npm `pagefind`, pinned by package-lock.json) run offline over the
built site, writing <site>/pagefind/ (the index and its reader, served from 'self')."""

from __future__ import annotations

import subprocess
from pathlib import Path

PAGEFIND = Path("node_modules/.bin/pagefind")
# Left out of the index: the tables (every figure's cell) and the charts (their alt text and data tables say the same
# numbers again). The words that find a page stay: titles, device, setup, prose, captions outside charts. This halves
# Pagefind's memory, which grows with what it indexes (bench/README.md: 5.0 → 2.7 GB at 3,000 sets).
EXCLUDED = ("table", "figure.result-chart")


class SearchIndexError(RuntimeError):
    """Pagefind is missing or failed; the message says which and how to fix it."""


def index(site: Path, root: Path = Path(".")) -> str:
    """Index the HTML pages of `site` into site/pagefind/; returns Pagefind's summary line."""
    exe = (root / PAGEFIND).resolve()
    if not exe.exists():
        raise SearchIndexError(f"{PAGEFIND}: Pagefind is not installed; run `npm ci` (make setup) in the repository root")
    excluded = [arg for selector in EXCLUDED for arg in ("--exclude-selectors", selector)]
    proc = subprocess.run([str(exe), "--site", str(site.resolve()), "--output-subdir", "pagefind", "--silent", *excluded],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        lines = [l for l in (proc.stderr + proc.stdout).splitlines() if l.strip()]
        raise SearchIndexError("pagefind failed: " + " | ".join(lines[-5:]))
    return proc.stdout.strip()
