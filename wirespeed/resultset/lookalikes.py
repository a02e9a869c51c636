"""Look-alike names across the archive: a vendor or device that imitates one already there is refused.

Names are compared by their skeleton (wirespeed.resultset.text.skeleton: NFKC and the Unicode
confusables). Vendors (dut.vendor, instrument.vendor) are one namespace, devices (dut.model,
instrument.product) another. When two different names have one skeleton, the original is the plainer
one (fewer characters outside ASCII), then the one published first, then the first slug; every other
spelling is refused with one line naming the name it imitates and where that is, e.g.
`data/results/x/result.toml: dut.vendor: 'Сіѕсо' looks like 'Cisco' (dut.vendor of cisco-7600-osm-acl-2001) [text.lookalike]`.
The sets beside the batch (the rest of the archive) are read for their names only: their result.toml,
within its size limit and without following links.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wirespeed.problems import Problem, display_path
from wirespeed.resultset.text import group_key, skeleton

FIELDS = {"vendor": (("dut", "vendor"), ("instrument", "vendor")), "device": (("dut", "model"), ("instrument", "product"))}
RULE = "text.lookalike"


@dataclass(frozen=True)
class Name:
    """One name one set gives in one field."""

    text: str
    slug: str
    field: str
    published: str

    def rank(self) -> tuple:
        return (sum(not c.isascii() for c in self.text), self.published or "9999", self.slug, self.field)


def names_of(meta: dict[str, Any], slug: str) -> dict[str, list[Name]]:
    """The vendor and device names of one result.toml document."""
    published = str((meta.get("source") or {}).get("published") or "")
    out: dict[str, list[Name]] = {kind: [] for kind in FIELDS}
    for kind, fields in FIELDS.items():
        for section, key in fields:
            value = (meta.get(section) or {}).get(key) if isinstance(meta.get(section), dict) else None
            if isinstance(value, str) and value.strip():
                out[kind].append(Name(value, slug, f"{section}.{key}", published))
    return out


def _sibling_meta(folder: Path) -> dict[str, Any] | None:
    """A set's result.toml beside the batch, read safely for its names (None when it cannot be read)."""
    from wirespeed.resultset.nesting import toml_depth_problem
    from wirespeed.resultset.setfolder import SetFolder, UnsafeFile

    try:
        with SetFolder(folder) as setdir:
            raw, _st = setdir.read("result.toml", "file_size.toml", "result.toml")
        text = raw.decode("utf-8-sig")
        if toml_depth_problem(text, "") is not None:
            return None
        return tomllib.loads(text)
    except (UnsafeFile, OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, RecursionError):
        return None


def archive_names(batch: list[tuple[Path, Any]]) -> dict[str, list[Name]]:
    """Names of the sets in the batch (loaded) and of every other set folder beside them."""
    out: dict[str, list[Name]] = {kind: [] for kind in FIELDS}
    seen: set[Path] = set()
    for folder, rs in batch:
        seen.add(Path(folder).absolute())
        if rs is not None:
            for kind, names in names_of(rs.meta, rs.slug).items():
                out[kind] += names
    for parent in {Path(folder).absolute().parent for folder, _rs in batch}:
        try:
            siblings = sorted(p for p in parent.iterdir() if p.is_dir() and not p.is_symlink() and p.absolute() not in seen)
        except OSError:
            continue
        for sib in siblings:
            meta = _sibling_meta(sib)
            if isinstance(meta, dict):
                for kind, names in names_of(meta, sib.name).items():
                    out[kind] += names
    return out


def imitations(names: list[Name]) -> dict[Name, Name]:
    """Each name that imitates another (same skeleton, different text) → the original it imitates."""
    groups: dict[str, list[Name]] = {}
    for n in names:
        groups.setdefault(skeleton(n.text), []).append(n)
    out: dict[Name, Name] = {}
    for group in groups.values():
        if len({n.text for n in group}) < 2:
            continue
        original = min(group, key=Name.rank)
        for n in group:
            if n.text != original.text:
                out[n] = original
    return out


def check(loaded: list[tuple[Path, Any, list[Problem]]]) -> None:
    """Add a problem to every loaded set that gives a name imitating another of the archive."""
    names = archive_names([(folder, rs) for folder, rs, _p in loaded])
    copied = {kind: imitations(found) for kind, found in names.items()}
    for folder, rs, problems in loaded:
        if rs is None:
            continue
        file = display_path(Path(folder) / "result.toml")
        for kind, own in names_of(rs.meta, rs.slug).items():
            for n in own:
                original = copied[kind].get(n)
                if original is not None:
                    where = original.field + ("" if original.slug == rs.slug else f" of {original.slug}")
                    problems.append(Problem(file, None, n.field, f"{n.text!r} looks like {original.text!r} ({where}): "
                                            f"a {kind} name that imitates another is refused; write it as the archive does", RULE))


def display_names(rows: list[tuple[str, str, str]]) -> dict[str, str]:
    """For the results filter: each group of names that differ only in case or look-alike characters
    (group_key) → the one spelling shown, the one most sets use (then the first published, then the first slug).
    rows: (name, published, slug)."""
    counts: dict[str, dict[str, list]] = {}
    for name, published, slug in rows:
        entry = counts.setdefault(group_key(name), {}).setdefault(name, [0, str(published or "9999"), slug])
        entry[0] += 1
        entry[1] = min(entry[1], str(published or "9999"))
    return {key: min(spellings, key=lambda s: (-spellings[s][0], spellings[s][1], spellings[s][2], s)) for key, spellings in counts.items()}
