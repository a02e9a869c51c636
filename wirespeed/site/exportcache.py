"""The site export's memory (site/data.py): a result set whose inputs are those it had at the last export is taken
from that export's output instead of being exported again, so a build after a commit that changed one set, or
none, exports that one set, or none.

A set's key is the content hash of everything its export reads: its rows in the catalog (the catalog's own hashes of
the set's folder and of the ingest code that loaded it), its analysis outputs (every file, never following a link), the
date of its last change, the trend series it belongs to, the display names of every vendor and device (they depend on
the other sets), the export's code, and the versions of the tools it runs (DuckDB writes its Parquet, Graphviz its
test-bed diagram, vl-convert and Pillow its preview). A set that compares itself with other sets (`set_comparisons`)
reads their rows in the catalog too: its key also holds each compared set's catalog hashes and whether it is
published in this export (a comparison with a set left out is left out).

The memory is build/site-export/: a file per set with its key, the hash of its site data file, the files it wrote (path
and size) and its rows of the compare page, and a mark that the memory is
complete. The mark is removed before an export swaps its output in and written after the files, so the memory never
describes another export's output (a shard's export leaves it incomplete); an entry is used only when the
previous output is still as it describes (the data file's hash, every file's size), and the files are linked, not
rewritten. What comes out is byte for byte what a fresh export writes (tests/test_export_cache.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from wirespeed.pipeline import buildstamp
from wirespeed.system import atomic

FOLDER = "site-export"  # under build/: <slug>.json per set, and COMPLETE
COMPLETE = "complete"
FORMAT = 3  # 2: each entry keeps its analysis files' stat signatures and hashes; 3: no notebook page of its own (no shared files)
CODE = "import wirespeed.site.data"
PACKAGES = ("duckdb", "vl-convert-python", "graphviz", "pillow", "numpy", "jsonschema", "jsonschema-rs")


@dataclass
class Entry:
    key: str
    data_sha256: str
    files: list[list]  # [path under results/<slug>/, size]
    compared: list[dict[str, Any]]  # its rows of the compare page
    analysis: dict[str, list] = field(default_factory=dict)  # its analysis files: path -> [size, mtime_ns, inode, sha256]


def tree_hash(top: Path, previous: dict[str, list] | None = None) -> tuple[str, dict[str, list]]:
    """The content hash of every file and link under `top` (names and contents; a link by its target's name, never
    followed: buildstamp's walk), the same for a missing folder every time; and each file's [size, mtime_ns, inode,
    sha256]. A file whose size, time and inode are those in `previous` keeps its hash there, as git's index does: an
    export reads again only the analysis outputs that were written since (a megabyte a set)."""
    previous = previous or {}
    h = hashlib.sha256()
    files: dict[str, list] = {}
    relpath = buildstamp.relative(top, top)
    for p, st in buildstamp.walk(top):
        rel = relpath(p)
        files[rel] = buildstamp.signed(p, st, previous.get(rel))
        h.update(rel.encode() + b"\0" + files[rel][3].encode() + b"\n")
    return h.hexdigest(), files


def context() -> str:
    """What every set's key shares: the export's code, the tools' versions."""
    import graphviz

    from wirespeed.system.codehash import code_closure, package_versions

    try:
        dot = ".".join(map(str, graphviz.version()))
    except (graphviz.ExecutableNotFound, RuntimeError, OSError):
        dot = None
    whole = {"format": FORMAT, "code": code_closure(CODE), "packages": package_versions(*PACKAGES), "dot": dot}
    return hashlib.sha256(json.dumps(whole, sort_keys=True).encode()).hexdigest()


def set_key(con: Any, shared_key: str, slug: str, analysis_dir: Path, known: tuple[str | None, Any], shown: Any,
            published: set[str] | frozenset[str] = frozenset(), analysis_seen: dict[str, list] | None = None) -> tuple[str, dict[str, list]]:
    """A set's export key (see the module's docstring), and its analysis files' signatures (tree_hash). `shared_key`:
    context(); `known`: the set's last change and trend links (site/data.py changed_and_trends); `published`: the sets
    this export publishes (the comparisons' sets); `analysis_seen`: the signatures its last entry kept."""
    loaded_from, hashes, across = con.execute("SELECT path, content_hash || ':' || engine_hash, json_extract(meta, '$.set_comparisons')"
                                              " FROM result_sets WHERE slug = ?", [slug]).fetchone()
    compared = sorted({s for c in json.loads(across or "[]") or [] for s in c.get("sets", [])})
    others = [[s, s in published, *(con.execute("SELECT path, content_hash || ':' || engine_hash FROM result_sets WHERE slug = ?", [s]).fetchone() or [])]
              for s in compared]
    changed, trends = known
    analysis, files = tree_hash(analysis_dir, analysis_seen)
    whole = {"context": shared_key, "slug": slug, "catalog": [loaded_from, hashes], "analysis": analysis, "changed": changed,
             "trends": trends, "shown": shown, "compared": others}
    return hashlib.sha256(json.dumps(whole, sort_keys=True, default=str).encode()).hexdigest(), files


class Memory:
    """The last export's entries, read one set at a time (none when the memory is incomplete or of another format)."""

    def __init__(self, build: Path):
        self.folder = build / FOLDER
        try:
            self.complete = (self.folder / COMPLETE).read_text(encoding="utf-8").strip() == str(FORMAT)
        except OSError:
            self.complete = False

    def get(self, slug: str) -> Entry | None:
        if not self.complete:
            return None
        try:
            return Entry(**json.loads((self.folder / f"{slug}.json").read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None

    def take(self, slug: str, key: str | None, data_file: Path, old_static: Path, new_static: Path,
             e: Entry | None = None) -> tuple[str, list[dict[str, Any]]] | None:
        """(site data text, compare rows) of `slug` from the last export, its files linked into new_static (reuse()), when
        its entry (`e`, else read) has this key and the last output is still as the entry describes; else None (nothing written)."""
        e = (e or self.get(slug)) if key is not None else None
        if e is None or e.key != key:
            return None
        text = reuse(e, slug, data_file, old_static, new_static)
        return None if text is None else (text, e.compared)


def forget(build: Path) -> None:
    """Before an export swaps its output in: the memory no longer describes what is on disk."""
    (build / FOLDER / COMPLETE).unlink(missing_ok=True)


def save(build: Path, entries: dict[str, Entry]) -> None:
    """After the export's output is in place: one file per set (rewritten only when it changed), no other, then the mark
    that the memory is complete."""
    folder = build / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for slug, e in entries.items():
        # the fields as they are (JSON values already; dataclasses.asdict would copy every list and row first: a third of a
        # second for the 28 examples, under cProfile), key order kept: the compare page's rows are written as they come
        text = json.dumps({f.name: getattr(e, f.name) for f in fields(e)}, ensure_ascii=False) + "\n"
        path = folder / f"{slug}.json"
        try:
            same = path.read_text(encoding="utf-8") == text
        except OSError:
            same = False
        if not same:
            atomic.write_text(path, text)
    for path in folder.glob("*.json"):
        if path.stem not in entries:
            path.unlink()
    atomic.write_text(folder / COMPLETE, f"{FORMAT}\n")


def entry(set_key: str, data_text: str, out_dir: Path, compared: list[dict[str, Any]], analysis: dict[str, list] | None = None) -> Entry:
    """The entry of a set just exported into out_dir (its results/<slug>/ folder); `analysis`: its analysis files' signatures."""
    files = [[p.relative_to(out_dir).as_posix(), p.stat().st_size] for p in sorted(out_dir.rglob("*")) if p.is_file() and not p.is_symlink()]
    return Entry(set_key, hashlib.sha256(data_text.encode()).hexdigest(), files, compared, analysis or {})


def reuse(e: Entry, slug: str, data_file: Path, old_static: Path, new_static: Path) -> str | None:
    """The site data text of `slug` from the last export, its files linked from old_static into new_static
    (results/<slug>/), when the last output is still what `e` describes; else None (nothing written)."""
    old_dir = old_static / "results" / slug
    try:
        text = data_file.read_text(encoding="utf-8")
        if hashlib.sha256(text.encode()).hexdigest() != e.data_sha256:
            return None
        for rel, size in e.files:
            p = old_dir / rel
            if p.is_symlink() or not p.is_file() or p.stat().st_size != size:
                return None
    except (OSError, ValueError):
        return None
    pairs = [(old_dir / rel, new_static / "results" / slug / rel) for rel, _size in e.files]
    for src, dest in pairs:
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dest)
        except OSError:
            shutil.copy2(src, dest)
    return text
