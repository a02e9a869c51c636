"""Sharded builds: the archive's result sets split into N shards by a stable hash of their slugs, each
shard's per-set jobs (the notebook runs, then the sets' site data and PDF reports) built on its own
machine (`wirespeed build --shard I/N`, e.g. a GitHub Actions matrix), then merged into one build
(`wirespeed merge DIR…`). A shard exports its own sets' site data as the whole build would: with every
other published set taken as on the site, so that a report's inputs, and its key, are the same.

A shard is a cache the merge fills its build folder from: it copies each shard's per-set outputs, with
the manifests that hold their keys, into build/, and then runs the whole build once. Every job whose
inputs are those the shard saw is fresh and reused as it is; any other (a shard missing, a set changed
since, a notebook that failed there) runs in the merge. So the merged build is the unsharded build, byte
for byte, and Hugo and Pagefind run once over the merged data.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from wirespeed.pipeline import paths
from wirespeed.site import data as sitedata
from wirespeed.report import typesetting
from wirespeed.system import atomic

RECORD = "shard.json"  # in a shard's build folder: which shard it is and its sets
_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
_SAFE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class ShardError(ValueError):
    """A shard specification or a shard's build folder that cannot be merged."""


@dataclass(frozen=True)
class Shard:
    index: int  # 1 … of
    of: int

    def __str__(self) -> str:
        return f"{self.index}/{self.of}"

    def holds(self, slug: str) -> bool:
        return number(slug, self.of) == self.index


def parse(text: str) -> Shard:
    """`I/N` (1 ≤ I ≤ N) as a Shard."""
    m = _SPEC.match(text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise ShardError(f"shard {text!r}: expected I/N with 1 <= I <= N, e.g. 1/4")
    return Shard(int(m.group(1)), int(m.group(2)))


def number(slug: str, of: int) -> int:
    """The shard (1 … of) a set belongs to: a hash of its slug, so a set stays in its shard however the archive grows."""
    return int.from_bytes(hashlib.sha256(slug.encode()).digest()[:8], "big") % of + 1


def select(slugs: list[str], shard: Shard) -> list[str]:
    return [s for s in slugs if shard.holds(s)]


def record(build: Path, shard: Shard, slugs: list[str]) -> None:
    """Say in a shard's build folder which shard it built and its sets (what `merge` copies)."""
    atomic.write_text(build / RECORD, json.dumps({"shard": shard.index, "of": shard.of, "sets": sorted(slugs)}, indent=1) + "\n")


def reports(db: Path, slugs: list[str], published: list[str], base_url: str | None, jobs: int | None,
            scheduler: str) -> tuple[int, list[str]]:
    """A shard's sets' site data (build/hugo-data, build/site-static: for the reports only, not merged) and their PDF
    reports; returns (reports built, one line per set left out)."""
    lines: list[str] = []
    if not slugs:
        return 0, lines
    exported = sitedata.export(db, refused=lines, items=[], only=set(slugs))
    if not exported:
        return 0, lines
    built, _fresh, errors = typesetting.run(exported, jobs, base_url=base_url, scheduler=scheduler, on_site=published)
    return len(built) - len(errors), lines + errors


def _read(folder: Path) -> tuple[Shard, list[str]]:
    try:
        data = json.loads((folder / RECORD).read_text(encoding="utf-8"))
        shard, sets = Shard(int(data["shard"]), int(data["of"])), [str(s) for s in data["sets"]]
    except FileNotFoundError:
        raise ShardError(f"{folder}: not a shard's build folder (no {RECORD}; build one with wirespeed build --shard I/N)") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ShardError(f"{folder / RECORD}: unreadable shard record: {exc}") from None
    bad = [s for s in sets if not _SAFE.match(s) or not shard.holds(s)]
    if bad or not 1 <= shard.index <= shard.of:
        raise ShardError(f"{folder / RECORD}: set {bad[0] if bad else '?'} does not belong to shard {shard}")
    return shard, sets


def _copy_dir(src: Path, dest: Path) -> None:
    tmp = atomic.temp_dir_beside(dest)
    try:
        # a shard's outputs are the build's own files: links (which no step writes) are not copied
        shutil.copytree(src, tmp, ignore=lambda d, names: [n for n in names if os.path.islink(os.path.join(d, n))], dirs_exist_ok=True)
        atomic.swap_dir(tmp, dest)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def merge(folders: list[Path], build: Path = paths.BUILD) -> list[str]:
    """Copy the per-set outputs of the shards' build folders into `build` (each shard's sets' notebook runs and PDF
    reports with their manifests); returns the sets copied. Every shard 1 … N must be given, once."""
    found: dict[int, tuple[Path, list[str]]] = {}
    of = None
    for folder in folders:
        shard, sets = _read(folder)
        if of is not None and shard.of != of:
            raise ShardError(f"{folder}: shard {shard} is not one of {of} shards like the others")
        if shard.index in found:
            raise ShardError(f"{folder}: shard {shard} given twice (also {found[shard.index][0]})")
        of = shard.of
        found[shard.index] = (folder, sets)
    missing = [f"{i}/{of}" for i in range(1, (of or 0) + 1) if i not in found]
    if missing or not found:
        raise ShardError(f"shard{'s' if len(missing) != 1 else ''} {', '.join(missing) or '(none)'} missing: give every shard's build folder")
    copied = []
    for folder, sets in found.values():
        for slug in sets:
            src = folder / paths.ANALYSIS.relative_to(paths.BUILD) / slug
            if src.is_dir() and not src.is_symlink():
                _copy_dir(src, build / paths.ANALYSIS.relative_to(paths.BUILD) / slug)
                copied.append(slug)
            reports = folder / paths.REPORTS.relative_to(paths.BUILD)
            pdf, manifest = reports / f"{slug}.pdf", reports / f"{slug}.manifest.json"
            if all(p.is_file() and not p.is_symlink() for p in (pdf, manifest)):  # the manifest last: it says the PDF is complete
                dest = build / paths.REPORTS.relative_to(paths.BUILD)
                atomic.write_bytes(dest / pdf.name, pdf.read_bytes())
                atomic.write_bytes(dest / manifest.name, manifest.read_bytes())
    return sorted(copied)
