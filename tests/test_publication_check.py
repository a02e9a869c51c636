"""The publication check (`wirespeed check-site`) over real builds: the examples (the session's one pipeline build,
tests/pipeline.py) and sets imported from every real tool output in tests/real/ that imports today (built once
per session, tests/realbuild.py). Hypothesis-drawn and odd-shaped sets are checked on their own build in tests/test_valid_sets_build.py.

The measured example sets still publish figures that the `figures` work of issue 22 corrects (items 2-4): those
failures are listed below exactly, by set and rule, so that a new failure fails the test and a corrected one
says to take it off the list."""

from __future__ import annotations

import re

import pytest

import pipeline
import realbuild
import realsets
from wirespeed.problems import Problem
from wirespeed.sitecheck.run import check_site

pytestmark = pytest.mark.slow

def set_of(p: Problem) -> str:
    """The result set a failure is about: from its page, or the entry its element names (feed, compare data)."""
    m = re.match(r"^(?:results|reviews)/([^/]+)/|^reports/([^/]+)\.pdf$|^build/hugo-data/wirespeed/sets/([^/]+)\.json$", p.file)
    if m:
        return next(g for g in m.groups() if g)
    m = re.search(r"(?:entry|sets)\[([^\]]+)\]", p.field)
    return m.group(1) if m else "(site)"


def by_set_and_rule(problems: list[Problem]) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for p in problems:
        out.setdefault((set_of(p), p.rule), []).append(str(p))
    return out


def test_the_examples_publish_nothing_the_check_refuses():
    """The measured sets' figures (capture rates, negative loss, percentiles above the maximum, the double NDR,
    blank rows) were corrected by issue 22: every example set now passes every rule."""
    pipeline.build("site")
    found = by_set_and_rule(check_site(pipeline.PUBLIC, pipeline.BUILD))
    assert not found, "publication failures:\n" + "\n".join(line for lines in found.values() for line in lines[:5])


@pytest.fixture(scope="module")
def real_build():
    """Every real tool output that imports, one set each, and the sets of several files (tests/multifile.py), built into a
    site and PDFs once per session (tests/realbuild.py)."""
    w, slugs, refused, _chosen = realbuild.build()
    return w, slugs + realbuild.groups(), refused


def test_every_real_file_that_imports_today_still_imports(real_build):
    _, slugs, refused = real_build
    still = {rel for rel in realsets.IMPORT_TODAY if realsets.slug_of(realsets.REAL / rel) in slugs}
    assert still == realsets.IMPORT_TODAY, {rel: refused.get(rel) for rel in realsets.IMPORT_TODAY - still}
    assert len(slugs) >= len(realsets.IMPORT_TODAY)  # files an importer merged later accepts join by themselves


def test_sets_imported_from_real_tool_outputs_publish_nothing_the_check_refuses(real_build):
    w, slugs, _ = real_build
    problems = check_site(w / "public", w / "build")
    assert {set_of(p) for p in problems} <= set(slugs) | {"(site)"}
    assert not problems, f"{len(problems)} publication failures, e.g.:\n" + "\n".join(str(p) for p in problems[:15])


def test_sets_imported_from_real_tool_outputs_recompute_from_their_explanations(real_build):
    """Issue 26: every figure of every imported set recomputes from its explanation record (tests/explained.py)."""
    import explained

    w, slugs, _ = real_build
    recs = explained.records(w / "public")
    assert set(recs) == set(slugs)
    count, bad = explained.problems(w / "public", w)
    assert count > 0 and not bad, f"{len(bad)} of {count} figures do not recompute:\n" + "\n".join(bad[:20])
