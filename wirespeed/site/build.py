"""The site step (`wirespeed site`): export the published result sets, leave out the articles that cite a
set or an item left out, and build the site with Hugo — without letting one result set stop the site.

Hugo builds every set's pages in one run, so a set whose data makes a template fail would stop them
all. When Hugo fails, the sets its error names are left out and the site is built again; when it names
none, the sets are searched by bisection for one the site fails with (each trial is an export and a
Hugo build). A set found so is left out whole — its site step recorded as failed, with Hugo's error in its
log — and the site is published without it. Only when Hugo fails with no result set at all (a template
or an article of the repository is broken) does the step fail: then the site cannot be built.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from wirespeed.catalog import tally
from wirespeed.site import articles, data as sitedata, hugomemo
from wirespeed.pipeline import leftout, paths, status as setstatus
from wirespeed.system import hugo

ROUNDS = 32  # sets left out for failing Hugo, at most, before the step gives up


class SiteFailed(RuntimeError):
    """The site cannot be built at all (Hugo fails with no result set; an article cannot be read)."""


@dataclass
class Outcome:
    slugs: list[str]  # the sets on the site
    refused: list[str] = field(default_factory=list)  # one line per set left out
    items: list[str] = field(default_factory=list)  # one line per article or comparison left out
    pages: int = 0
    reused: bool = False  # the data-only export made before the reports, not exported again (reusable())
    hugo_kept: bool = False  # Hugo's inputs were those of its last build, whose site is still in place: not run (hugomemo.py)


def export(db: Path, data_only: bool, exclude: dict[str, dict[str, str]] | None = None) -> Outcome:
    """The site data of every set that may be published, and what was left out."""
    outcome = Outcome([])
    outcome.slugs = sitedata.export(db, refused=outcome.refused, leave_out=("analyse",) if data_only else ("analyse", "report"),
                                    exclude=exclude, items=outcome.items)
    return outcome


def _hugo(db: Path, outcome: Outcome, destination: Path, base_url: str | None) -> tuple[list[str], hugo.HugoError | None]:
    """Build the site from the exported data without the articles that cite what is not on it; (their lines, Hugo's error or None)."""
    sets_dir = paths.HUGO_DATA / "wirespeed" / "sets"
    unavailable = {s: set(json.loads((sets_dir / f"{s}.json").read_text(encoding="utf-8")).get("unavailable", {})) for s in outcome.slugs}
    try:
        missing = articles.citing(set(tally.published_slugs(db)) - set(outcome.slugs), unavailable=unavailable)
    except articles.ArticleError as exc:
        raise SiteFailed(str(exc)) from None
    lines = [f"{path}: left out of the site: it cites {', '.join(what)}, which {'is' if len(what) == 1 else 'are'} not on the site"
             for path, what in missing.items()]
    extra = []
    if missing:
        conf = hugo.ignore_config([p.relative_to(articles.ARTICLES.parent) for p in missing], paths.HUGO_LEFT_OUT)
        extra = ["--config", f"config.toml,{conf.resolve()}"]
    else:
        paths.HUGO_LEFT_OUT.unlink(missing_ok=True)  # present only while the last build left articles out (wirespeed serve reads it)
    memo, remembered = paths.HUGO_MEMO, None
    try:  # Hugo is asked only when what it reads changed (hugomemo.py)
        configs = [Path("config.toml")] + ([Path(extra[1].split(",", 1)[1])] if extra else [])
        args = [str(destination.resolve()), *extra, *(["--baseURL", base_url] if base_url is not None else [])]
        last = hugomemo.load(memo)
        remembered = hugomemo.key(Path("."), configs, args, hugo.environment(keep_base_url=base_url is None), hugo.binary(), last.get("files", {}))
        if hugomemo.fresh(last, remembered[0], destination):
            outcome.hugo_kept = True
            return lines, None
    except (OSError, ValueError, hugo.HugoError):
        remembered = None  # the key cannot be made: Hugo builds, and nothing is remembered
    try:
        hugo.build(destination=destination, extra=extra, base_url=base_url)
    except hugo.HugoError as exc:
        return lines, exc
    if remembered is not None:
        hugomemo.save(memo, *remembered, destination)
    return lines, None


def _fails(db: Path, exclude: dict[str, dict[str, str]], destination: Path, base_url: str | None) -> bool:
    """A trial: does the site fail to build with these sets left out?"""
    return _hugo(db, export(db, False, exclude), destination, base_url)[1] is not None


def _culprit(db: Path, exclude: dict[str, dict[str, str]], slugs: list[str], destination: Path, base_url: str | None) -> str | None:
    """A set the site fails with: the last of the shortest first part of `slugs` that fails to build (the rest left
    out), found by bisection in about log2(len(slugs)) trials; None when the site fails with none of them."""
    trial = {"what": "a trial build", "cause": "left out while the sets Hugo fails with are searched", "log": ""}

    def fails_with(k: int) -> bool:
        return _fails(db, {**exclude, **{s: trial for s in slugs[k:]}}, destination, base_url)

    if fails_with(0):
        return None
    lo, hi = 0, len(slugs)  # the first lo sets build, the first hi fail
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fails_with(mid):
            hi = mid
        else:
            lo = mid
    return slugs[hi - 1]


def reusable(db: Path, exported: Outcome | None) -> Outcome | None:
    """The data-only export `exported` (made earlier in this process, by `wirespeed build`), when the site's own
    export would write the same: no published set's report step has failed since (the only thing the two exports
    weigh differently). A copy, so that the site step's rounds cannot change the record; else None."""
    if exported is None:
        return None
    status_root = db.parent / "status"
    if any(setstatus.failed_steps(s, ("report",), status_root) for s in tally.published_slugs(db)):
        return None
    return Outcome(list(exported.slugs), list(exported.refused), list(exported.items), reused=True)


def build(db: Path, destination: Path, base_url: str | None = None, exported: Outcome | None = None) -> Outcome:
    """Export and build the site, leaving out the sets Hugo fails with (see the module's docstring). `exported`: the
    data-only export this process made before the reports; used as it is when no report failed since (reusable())."""
    exclude: dict[str, dict[str, str]] = {}
    logs = db.parent / "logs"
    first = reusable(db, exported)
    for _round in range(ROUNDS):
        outcome = first if first is not None and not exclude else export(db, data_only=False, exclude=exclude)
        article_lines, error = _hugo(db, outcome, destination, base_url)
        if error is None:
            outcome.items += article_lines
            leftout.record_items(outcome.items, db.parent / leftout.ITEMS.name)
            outcome.pages = sum(1 for _ in destination.rglob("*.html"))
            return outcome
        text = str(error)
        named = [s for s in outcome.slugs if re.search(rf"(?<![a-z0-9._-]){re.escape(s)}(?![a-z0-9._-])", text)]
        found = named or ([c] if (c := _culprit(db, exclude, list(outcome.slugs), destination, base_url)) else [])
        if not found:
            raise SiteFailed(text)
        cause = next((l.strip() for l in text.splitlines()[1:] if "error" in l.lower()), text.splitlines()[-1])
        for s in found:
            exclude[s] = {"what": "the Hugo build of the site (layouts/, content/)", "cause": f"the site does not build with it: {cause[:300]}",
                          "log": str(setstatus.write_log(s, "site", "hugo", text, logs))}
    raise SiteFailed(f"the site still fails after leaving out {len(exclude)} result sets: {', '.join(exclude)}")
