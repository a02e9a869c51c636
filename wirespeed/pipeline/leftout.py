"""What a build left out of the site, in one line each: the result sets refused whole by validation
(ingest's rejects), the sets a step failed for (build/status), and the articles and comparisons left
out because they cite or compare a set that is not on the site (recorded by `wirespeed site`).

`make` prints this report at the end of a build that left something out, and exits 0: the rest of the
site is built and the publish workflow deploys it. The report goes to the GitHub job summary
($GITHUB_STEP_SUMMARY) and, on GitHub Actions, as warning annotations, so a left-out set is loud
without stopping the site. Drafts and embargoed sets are not left out: they are not due.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from wirespeed.catalog import tally
from wirespeed.pipeline import paths, status as setstatus
from wirespeed.system import atomic

ITEMS = paths.BUILD / "left-out-items.json"  # articles and comparisons left out, written by `wirespeed site`
REPORT = paths.BUILD / "left-out.txt"  # the last report, one line per thing left out (the pull-request preview reads it)


def record_items(lines: list[str], path: Path = ITEMS) -> None:
    """Keep the one-line reasons of the articles and comparisons the site left out (an empty list when none)."""
    atomic.write_text(path, json.dumps(lines, ensure_ascii=False, indent=1) + "\n")


def lines(archive: Path, db: Path, status_root: Path = paths.STATUS, items: Path = ITEMS) -> list[str]:
    """Everything the last build left out, one line each, sets in name order then articles."""
    import duckdb

    folders = sorted(p.name for p in archive.iterdir() if p.is_dir() or p.is_symlink()) if archive.is_dir() else []
    known: set[str] = set()
    rejected: dict[str, str] = {}
    published: list[str] = []
    if db.is_file():
        con = duckdb.connect(str(db), read_only=True)
        try:
            known = {s for (s,) in con.execute("SELECT slug FROM result_sets").fetchall()}
            published = tally.published(con)
            for slug, file, line, reason, rule in con.execute("SELECT slug, file, line, reason, rule FROM rejects ORDER BY slug, file, line").fetchall():
                if slug not in known and slug not in rejected:
                    rejected[slug] = f"{file}{f':{line}' if line else ''}: {reason} [{rule}]"
        finally:
            con.close()
    out = []
    for slug in folders:
        if slug in rejected:
            out.append(f"{slug}: left out of the site: refused by validation: {rejected[slug]} (wirespeed validate data/results/{slug} lists every problem)")
        elif slug not in known:
            out.append(f"{slug}: left out of the site: not in the catalog (wirespeed validate data/results/{slug} says why)")
    for slug in published:
        record = setstatus.read(slug, status_root)
        out += [setstatus.line(slug, step, record[step]) for step in setstatus.failed_steps(slug, root=status_root)]
    if items.is_file():
        try:
            out += [str(x) for x in json.loads(items.read_text(encoding="utf-8"))]
        except ValueError:
            pass
    return out


def markdown(found: list[str]) -> str:
    """The job summary's section: what was left out, or that nothing was."""
    if not found:
        return "## Site published whole\n\nEvery result set and article is on the site.\n"
    rows = "\n".join(f"- `{line.replace('`', chr(39))}`" for line in found)
    return (f"## Published without {len(found)} item{'s' if len(found) != 1 else ''}\n\n"
            "The site was built and published without these; everything else is on it.\n\n" + rows + "\n")


def announce(found: list[str], report: Path = REPORT) -> None:
    """Write the report file, the job summary and (on GitHub Actions) one warning annotation per line."""
    atomic.write_text(report, "".join(line + "\n" for line in found))
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as f:
            f.write(markdown(found))
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for line in found:
            text = line.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            print(f"::warning title=Left out of the site::{text}", flush=True)
