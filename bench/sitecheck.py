"""The publication check's element paths on the largest built pages: css_path with each page's sibling places
shared (what check-site does) against one fresh cache per element, as a ratio of their seconds (the earlier algorithm, quadratic in a parent's
children). Reads public/ as `make` built it; pages of growing size show how each grows.

    .venv/bin/python bench/sitecheck.py [--public public] [--pages 2] [--budget 20]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bs4 import BeautifulSoup

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, save, timer  # noqa: E402

from wirespeed.sitecheck.site import BLOCKS, css_path  # noqa: E402


def blocks(soup: BeautifulSoup) -> list:
    return [el for el in soup.find_all(True) if el.name in BLOCKS]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--public", type=Path, default=ROOT / "public")
    ap.add_argument("--pages", type=int, default=2)
    ap.add_argument("--budget", type=float, default=20.0, help="stop doubling N once the earlier algorithm takes this long")
    args = ap.parse_args()
    # the pages with the most table cells and list items: where an element has the most siblings
    pages = sorted(args.public.rglob("*.html"), key=lambda p: (b := p.read_bytes()).count(b"<td") + b.count(b"<li"), reverse=True)[: args.pages]
    if not pages:
        sys.exit(f"{args.public}: no built pages (run make first)")
    results: dict = {}
    for p in reversed(pages):  # smallest of the largest first
        soup = BeautifulSoup(p.read_text(encoding="utf-8"), "lxml")
        els = blocks(soup)
        page = f"{p.relative_to(args.public).as_posix()} ({p.stat().st_size // 1024} KB, {len(els)} blocks)"
        with timer(results, f"{page}: all blocks, shared"):
            shared: dict = {}
            for el in els:
                css_path(el, shared)
        # the earlier algorithm on the page's first N blocks, N doubling while it takes under --budget seconds
        n = 250
        while n <= len(els):
            with timer(results, f"{page}: first {n} blocks, per element"):
                for el in els[:n]:
                    css_path(el)
            with timer(results, f"{page}: first {n} blocks, shared"):
                shared = {}
                for el in els[:n]:
                    css_path(el, shared)
            results[f"{page}: first {n} blocks, per element / shared"] = round(
                results[f"{page}: first {n} blocks, per element"] / max(results[f"{page}: first {n} blocks, shared"], 1e-3), 1)
            if results[f"{page}: first {n} blocks, per element"] > args.budget:
                break
            n *= 2
    save("sitecheck", results)


if __name__ == "__main__":
    main()
