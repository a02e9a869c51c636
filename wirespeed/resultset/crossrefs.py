"""References from one result set to others: a declared comparison with other sets (`[[set_comparisons]]`)
must name sets that exist beside it in the archive and tests that those sets declare. One problem per
dangling reference, naming the set's result.toml, the field and what is missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from wirespeed.problems import Problem, display_path, internal_problem
from wirespeed.resultset.model import ResultSet

RULE = "semantic.comparison-reference"


def test_ref(ref: str, own: str) -> tuple[str, str]:
    """'slug/test' → (slug, test); a bare test id is one of the declaring set's."""
    slug, sep, test = ref.partition("/")
    return (slug, test) if sep else (own, ref)


def problems_of(rs: ResultSet, file: str, tests_of: Callable[[str], set[str] | None]) -> list[Problem]:
    """Dangling references of one set's declared comparisons; tests_of(slug) gives a set's test ids, None if it does not exist."""
    out: list[Problem] = []
    ids = [c["id"] for c in rs.meta.get("comparisons", [])]
    for i, comp in enumerate(rs.meta.get("set_comparisons", [])):
        where = f"set_comparisons[{i}]"
        if comp["id"] in ids:
            out.append(Problem(file, None, f"{where}.id", f"comparison id {comp['id']!r} is used twice", RULE))
        ids.append(comp["id"])
        if "labels" in comp and len(comp["labels"]) != len(comp["tests"]):
            out.append(Problem(file, None, f"{where}.labels", f"needs one label per test ({len(comp['tests'])}), has {len(comp['labels'])}", RULE))
        named = [rs.slug, *comp["sets"]]
        for s in comp["sets"]:
            if s == rs.slug:
                out.append(Problem(file, None, f"{where}.sets", f"{s!r} is this result set; list only the others", RULE))
            elif tests_of(s) is None:
                out.append(Problem(file, None, f"{where}.sets", f"no result set {s!r} in the archive", RULE))
        for ref in comp["tests"]:
            slug, test = test_ref(ref, rs.slug)
            if slug not in named:
                out.append(Problem(file, None, f"{where}.tests", f"test {ref!r} belongs to {slug!r}, which is not in sets", RULE))
                continue
            known = set(rs.tests) if slug == rs.slug else tests_of(slug)
            if known is not None and test not in known:
                out.append(Problem(file, None, f"{where}.tests", f"result set {slug!r} has no test {test!r}", RULE))
        for s in named:
            if s != rs.slug and tests_of(s) is not None and not any(test_ref(r, rs.slug)[0] == s for r in comp["tests"]):
                out.append(Problem(file, None, f"{where}.tests", f"names no test of {s!r}", RULE))
    return out


def check(loaded: list[tuple[Path, ResultSet | None, list[Problem]]], load: Callable[[Path], tuple[Any, list[Problem]]]) -> None:
    """Add the dangling references of every loaded set to its problems; sets outside the batch are loaded from
    the folder beside the declaring one (a set that does not load counts as missing)."""
    batch = {rs.slug: rs for _f, rs, _p in loaded if rs is not None}
    cache: dict[Path, set[str] | None] = {}

    def tests_of(folder: Path, slug: str) -> set[str] | None:
        if slug in batch:
            return set(batch[slug].tests)
        path = folder.parent / slug
        if path not in cache:
            other = None
            if not path.is_symlink() and (path / "result.toml").is_file():
                other, _ = load(path)
            cache[path] = set(other.tests) if other is not None and other.slug == slug else None
        return cache[path]

    for folder, rs, problems in loaded:
        if rs is not None and rs.meta.get("set_comparisons"):
            try:
                problems.extend(problems_of(rs, display_path(folder / "result.toml"), lambda s, f=folder: tests_of(f, s)))
            except Exception as exc:  # noqa: BLE001 - one set's references fail alone: the other sets are still checked
                problems.append(internal_problem(folder / "result.toml", "checking its set_comparisons", exc))
