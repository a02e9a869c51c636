"""Validating the archive without reading every set again: each set's own problems (what loading it and the per-set
checks find) are remembered under the hash of its folder and of the code that loads and checks it (the catalog's
folder_hash and engine_hash, as ingest skips an unchanged set), and the problems that involve several sets
(duplicate slugs, the sets a comparison names, look-alike names) are worked out over the whole archive every time,
from each remembered set's names, tests and metadata: a change to one set can still put a problem on another.

The memory is build/cache/validate/<folder name>.json, our own output; an entry that cannot be read, is of another
format or has another key is ignored, and the set is read again. A set whose folder cannot be hashed safely (a link,
a special file, a limit passed), whose metadata is not plain JSON, or whose reading failed unexpectedly (an internal
problem) is not remembered: it is read every time.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from wirespeed.catalog import load as loader
from wirespeed.problems import Problem, display_path
from wirespeed.system import atomic

FORMAT = 1
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")


@dataclass
class Remembered:
    """What the cross-set rules read of a set (crossrefs, lookalikes): its slug, metadata and test ids."""

    meta: dict[str, Any]
    tests: list[str] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.meta["slug"]


@dataclass
class Checked:
    folder: Path
    rs: Any  # a ResultSet, a Remembered one, or None (it did not load)
    loading: list[Problem]  # what loading found
    checks: list[Problem]  # what the per-set checks found
    across: list[Problem] = field(default_factory=list)  # what the rules over several sets found

    @property
    def problems(self) -> list[Problem]:
        """In the order `wirespeed validate` has always printed them: loading, the archive's rules, the checks."""
        return self.loading + self.across + self.checks


def _key(folder: Path, folder_hash: str, engine: str) -> str:
    return hashlib.sha256(json.dumps([FORMAT, engine, display_path(folder), folder_hash]).encode()).hexdigest()


def _recall(memo: Path, folder: Path, key: str) -> Checked | None:
    path = memo / f"{folder.name}.json"
    try:
        if path.is_symlink():
            return None
        entry = json.loads(path.read_text(encoding="utf-8"))
        if entry.get("key") != key:
            return None
        rs = Remembered(entry["meta"], list(entry["tests"])) if entry["meta"] is not None else None
        return Checked(folder, rs, [Problem(**p) for p in entry["loading"]], [Problem(**p) for p in entry["checks"]])
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _keep(memo: Path, c: Checked, key: str) -> None:
    if any(p.rule == "internal" for p in c.loading + c.checks):
        return  # an unexpected failure (a crash, an I/O error) may not happen again: read the set again next time
    meta = c.rs.meta if c.rs is not None else None
    try:
        text = json.dumps({"key": key, "meta": meta, "tests": list(c.rs.tests) if c.rs is not None else [],
                           "loading": [asdict(p) for p in c.loading], "checks": [asdict(p) for p in c.checks]}, ensure_ascii=False)
        if json.loads(text)["meta"] != meta:  # a value JSON does not keep (a date, not a number): read it every time
            return
        atomic.write_text(memo / f"{c.folder.name}.json", text + "\n")
    except (TypeError, ValueError, OSError):
        return


def _read(folder: Path) -> Checked:
    from wirespeed.checks import run_checks

    rs, problems = loader.load_one(folder)
    return Checked(Path(folder), rs, problems, run_checks(rs) if rs is not None else [])


def validate(folders: list[Path], memo: Path | None = None) -> list[Checked]:
    """Every set's problems (Checked.problems). `memo`: the folder that remembers each set's own problems (None: read
    every set)."""
    from wirespeed.catalog.store import engine_hash, folder_hash

    engine = engine_hash() if memo is not None else ""
    out: list[Checked] = []
    for folder in folders:
        folder = Path(folder)
        key = None
        if memo is not None and _SAFE_NAME.match(folder.name):
            try:
                h = folder_hash(folder)
            except Exception:  # noqa: BLE001 - an I/O error: read it, and let loading name the problem
                h = ""
            key = _key(folder, h, engine) if h else None
        c = _recall(memo, folder, key) if memo is not None and key else None
        if c is None:
            c = _read(folder)
            if memo is not None and key:
                _keep(memo, c, key)
        out.append(c)
    loader.across([(c.folder, c.rs, c.across) for c in out])  # the rules over several sets, as load_many runs them
    if memo is not None:
        _forget_others(memo, {c.folder.name for c in out})
    return out


def _forget_others(memo: Path, names: set[str]) -> None:
    """Entries of sets no longer in the archive go (the memory stays the archive's size)."""
    try:
        for p in memo.glob("*.json"):
            if p.stem not in names:
                p.unlink(missing_ok=True)
    except OSError:
        pass

