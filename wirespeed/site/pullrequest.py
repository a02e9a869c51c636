"""The Markdown summary of a pull request's result sets (`wirespeed summary --markdown SLUG…`):
per set, its headline figures (the ones the site's cards show) and every problem — validation
findings, ingest rejects and failed build steps — so a reviewer sees both without opening a log."""

from __future__ import annotations

from pathlib import Path

from wirespeed.pipeline import status as setstatus
def _cell(text: object) -> str:
    """Text safe in a Markdown table cell: one line, pipes and markup escaped."""
    s = " ".join(str(text).split())
    for ch in "\\|`*_[]<>#":
        s = s.replace(ch, "\\" + ch)
    return s


def _headlines(con, slug: str, most: int = 6) -> list[tuple[str, str]]:
    """(label, value) of a set's headline figures; its first published figures when it has none."""
    from wirespeed.site.data import figures, mark_headlines
    from wirespeed.catalog.view import set_summary

    summary = set_summary(con, slug)
    figs = figures(summary)
    mark_headlines(figs, summary)
    chosen = [f for f in figs.values() if f.get("headline")]
    if not chosen:  # no throughput to headline (a ramp, latency, CPU): each test's largest published value of each metric
        best: dict[tuple[str, str], dict] = {}
        for fid, f in figs.items():
            test, metric = fid.split("/")[:2]
            if not f["derived"] and isinstance(f["value"], (int, float)) and (f["value"] > best.get((test, metric), {"value": float("-inf")})["value"]):
                best[(test, metric)] = f
        chosen = list(best.values())
    return [(f["label"], f"{f['text']} {f['unit']}".strip()) for f in chosen[:most]]


def markdown(slugs: list[str], archive: Path, db: Path, status_root: Path = setstatus.STATUS_ROOT) -> tuple[str, int]:
    """The summary of these sets and the number of sets with an error (invalid, rejected or failed)."""
    from wirespeed.catalog.store import connect
    from wirespeed.checks import run_checks
    from wirespeed.catalog.load import load_many

    lines = ["# Result sets in this pull request", ""]
    bad = 0
    con = connect(db) if db.is_file() else None
    try:
        known = {s for (s,) in con.execute("SELECT slug FROM result_sets").fetchall()} if con else set()
        for slug in slugs:
            problems = []
            folder = archive / slug
            title = slug
            if (folder / "result.toml").is_file():
                for _f, rs, found in load_many([folder]):
                    problems += found + (run_checks(rs) if rs is not None else [])
                    if rs is not None:
                        title = rs.meta.get("title", slug)
            else:
                problems = None
            failed = {step: setstatus.read(slug, status_root)[step] for step in setstatus.failed_steps(slug, root=status_root)}
            errors = [p for p in problems or [] if p.severity == "error"]
            state = ("removed" if problems is None else "invalid" if errors else "failed: " + ", ".join(failed) if failed
                     else "builds" if slug in known else "valid, not built (no catalog entry: run make)")
            bad += state.startswith(("invalid", "failed"))
            lines += [f"## {_cell(slug)} — {state}", "", _cell(title), ""]
            if slug in known and not errors:
                heads = _headlines(con, slug)
                if heads:
                    lines += ["| Headline figure | Value |", "|---|---|", *(f"| {_cell(label)} | {_cell(value)} |" for label, value in heads), ""]
            shown = [p for p in problems or [] if p.severity in ("error", "warning")]
            if shown or failed:
                lines += ["Problems:", ""]
                lines += [f"- `{str(p).replace('`', chr(39))}`" for p in shown]
                lines += [f"- {_cell(setstatus.line(slug, step, f))}" for step, f in failed.items()]
                lines.append("")
            elif problems is not None:
                lines += ["No problems.", ""]
            if problems is None:
                lines += ["The pull request removes this set.", ""]
    finally:
        if con is not None:
            con.close()
    return "\n".join(lines).rstrip() + "\n", bad
