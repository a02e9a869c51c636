"""A synthetic archive of N result sets for the Hugo benchmark, made from a real build's site data.

A built working folder (`make`: build/hugo-data, build/site-static, build/reports, build/trends) holds
the site data of the example sets. The archive keeps them as they are (the review articles cite them)
and adds copies until it holds N sets. Each copy has its own content: a new slug (every path and file
name that carries the slug follows it), its own title, and its numbers changed — two digits, drawn from a
generator seeded with the copy's number, inserted after the first decimal of every decimal number in
the files Hugo reads (the set's data, its explanation records, its compiled chart specs), so no two
copies' pages or charts are alike. Everything a real set gets is there, so every page kind is built:
the set, test, comparison and explanation pages, its charts, tables, notebooks, data, test-bed
diagram, preview image and PDF report. Files Hugo only copies to the site (PDF, PNG, SVG, CSV,
notebooks, Parquet) are hard links to the originals: Hugo copies them byte for byte, whatever they
hold. The trend pages, the compare data and the Parquet archive are the real build's (they are made
across sets by the pipeline, not per set).

Never published: benchmark input only, in a temporary folder.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from pathlib import Path

from wirespeed.site import setindex

# Folders of a working folder's build/ that the site mounts (config.toml's module mounts).
HUGO_DATA = Path("build/hugo-data")
SITE_STATIC = Path("build/site-static")
REPORTS = Path("build/reports")
TRENDS = Path("build/trends")
MOUNTED = (HUGO_DATA, SITE_STATIC, REPORTS, TRENDS)

# Files of a set's static folder that Hugo reads (resources.Get: the explanation page's body, the chart specs), not only copies.
READ_BY_HUGO = re.compile(r"(^explain\.html$)|(^charts/.*\.vg\.json$)")
DECIMAL = re.compile(rb"(\d\.\d)")


class ArchiveError(RuntimeError):
    """The build to copy from is missing or cannot make the archive asked for."""


def originals(src: Path) -> list[str]:
    """The slugs of the sets exported in the working folder `src`, sorted."""
    sets = src / HUGO_DATA / "wirespeed" / "sets"
    if not sets.is_dir():
        raise ArchiveError(f"{sets}: no exported site data; run `make` (or `wirespeed site --data-only` and `wirespeed report`) first")
    return sorted(p.stem for p in sets.glob("*.json"))


def copy_slug(slug: str, i: int) -> str:
    return f"{slug}-synthetic-{i:05d}"


def _digits(seed: int, i: int) -> bytes:
    return f"{random.Random(seed * 1_000_003 + i).randrange(100):02d}".encode()


def perturb(text: bytes, old: str, new: str, digits: bytes) -> bytes:
    """The text with slug `old` renamed `new` and `digits` inserted after the first decimal of every decimal number."""
    return DECIMAL.sub(rb"\g<1>" + digits, text.replace(old.encode(), new.encode()))


def _link(src: Path, dest: Path) -> None:
    try:
        os.link(src, dest)
    except OSError:  # another file system: a copy
        shutil.copyfile(src, dest)


def _link_tree(src: Path, dest: Path) -> None:
    shutil.copytree(src, dest, copy_function=lambda s, d: _link(Path(s), Path(d)))


def _copy_set(src: Path, dest: Path, slug: str, new: str, title: str, digits: bytes) -> dict:
    """Copy set `slug` as `new` with its title and numbers changed; returns the copy's site data."""
    data = src / HUGO_DATA / "wirespeed" / "sets" / f"{slug}.json"
    d = json.loads(perturb(data.read_bytes(), slug, new, digits))
    d["title"] = title
    (dest / HUGO_DATA / "wirespeed" / "sets" / f"{new}.json").write_text(json.dumps(d, ensure_ascii=False) + "\n", encoding="utf-8")
    folder = src / SITE_STATIC / "results" / slug
    out = dest / SITE_STATIC / "results" / new
    for dirpath, _dirs, names in os.walk(folder):
        rel = Path(dirpath).relative_to(folder)
        (out / rel).mkdir(parents=True, exist_ok=True)
        for n in names:
            target = out / rel / n.replace(slug, new)
            if READ_BY_HUGO.match((rel / n).as_posix()):
                target.write_bytes(perturb((Path(dirpath) / n).read_bytes(), slug, new, digits))
            else:
                _link(Path(dirpath) / n, target)
    for pdf in (src / REPORTS).glob(f"{slug}.pdf"):
        _link(pdf, dest / REPORTS / f"{new}.pdf")
    return d


def build(src: Path, dest: Path, n: int, seed: int = 0) -> list[str]:
    """Write the mounted build folders of an archive of n sets under dest/build/; returns its slugs."""
    real = originals(src)
    if n < len(real):
        raise ArchiveError(f"--sets {n}: the archive keeps the {len(real)} exported sets (the articles cite them); ask for {len(real)} or more")
    for folder in MOUNTED:
        (dest / folder).mkdir(parents=True, exist_ok=True)
    (dest / HUGO_DATA / "wirespeed" / "sets").mkdir(parents=True)
    (dest / SITE_STATIC / "results").mkdir(parents=True)
    for entry in (src / HUGO_DATA / "wirespeed").iterdir():  # the trend data; the sets, their index and build.json below
        if entry.name not in ("sets", "build.json", "index.json"):
            (_link_tree if entry.is_dir() else _link)(entry, dest / HUGO_DATA / "wirespeed" / entry.name)
    for entry in (src / SITE_STATIC).iterdir():  # the trend charts, compare data and Parquet archive
        if entry.name != "results":
            (_link_tree if entry.is_dir() else _link)(entry, dest / SITE_STATIC / entry.name)
    for entry in (src / TRENDS).glob("*.pdf"):
        _link(entry, dest / TRENDS / entry.name)
    slugs = []
    for slug in real:
        for path in (src / HUGO_DATA / "wirespeed" / "sets").glob(f"{slug}.json"):
            _link(path, dest / HUGO_DATA / "wirespeed" / "sets" / path.name)
        _link_tree(src / SITE_STATIC / "results" / slug, dest / SITE_STATIC / "results" / slug)
        for pdf in (src / REPORTS).glob(f"{slug}.pdf"):
            _link(pdf, dest / REPORTS / pdf.name)
        slugs.append(slug)
    entries = {}  # slug → its entry in the index the lists read, as the pipeline makes it
    for s in real:
        entries[s] = setindex.entry(json.loads((src / HUGO_DATA / "wirespeed" / "sets" / f"{s}.json").read_text(encoding="utf-8")))
    for i in range(len(real), n):
        slug = real[i % len(real)]
        new = copy_slug(slug, i)
        entries[new] = setindex.entry(_copy_set(src, dest, slug, new, f"{entries[slug]['title']} (synthetic copy {i})", _digits(seed, i)))
        slugs.append(new)
    setindex.write(entries, dest / HUGO_DATA / "wirespeed" / "index.json")
    build_json = json.loads((src / HUGO_DATA / "wirespeed" / "build.json").read_text(encoding="utf-8"))
    build_json["sets"] = slugs
    (dest / HUGO_DATA / "wirespeed" / "build.json").write_text(json.dumps(build_json) + "\n", encoding="utf-8")
    return slugs


def retitle(dest: Path, slug: str, suffix: str) -> None:
    """Change one set's title in the archive (the one-set-changed rebuild)."""
    path = dest / HUGO_DATA / "wirespeed" / "sets" / f"{slug}.json"
    d = json.loads(path.read_text(encoding="utf-8"))
    d["title"] += suffix
    path.unlink()  # it may be a hard link to a real build's file: never write through it
    path.write_text(json.dumps(d, ensure_ascii=False) + "\n", encoding="utf-8")
    index = dest / HUGO_DATA / "wirespeed" / "index.json"
    entries = json.loads(index.read_text(encoding="utf-8"))["sets"]
    entries[slug] = setindex.entry(d)
    setindex.write(entries, index)  # a new file (atomic): never through a link
