"""The whole wirespeed pipeline over the example archive copied to N sets, in a scratch working folder
made as tests/workdir.py makes one: a full build from an empty build/, a no-op rebuild, and a rebuild
after one set's title changed in its result.toml — each as `make` runs it (`wirespeed build`: every step
in one process), and, in a second folder made the same way, as the chain of one command per step that
`make`'s step targets run (the alternative: each step pays its own start and imports).

The PDF's share of the one-process build's CPU is the report step's CPU in the chain (xelatex and its
driver) less that step's CPU in the chain's no-op (the command's own start and checks): typesetting the
same reports costs the same in either way of running the steps.

A copy is an example set's folder under a new name, with the same slug in its result.toml and
" (copy K)" after its title: the same real measurements, never altered (the copies are benchmark input,
never published)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import measure

# What the CLI reads relative to its working folder besides data/results and build/ (tests/workdir.py's
# SITE_SOURCES and tests/pipeline.py's EXTRA_SOURCES), and the files the Makefile depends on.
SOURCES = ["config.toml", "layouts", "content", "static", "assets", "notebooks", "reports", "Makefile", "CONTRIBUTING.md", "docs"]
KEPT = ["pyproject.toml", "package.json", "package-lock.json"]
# The Makefile's build target: `validate site summary`, where site needs reports, site-data, analyse and ingest.
STEPS = [("validate",), ("ingest",), ("analyse",), ("site", "--data-only"), ("report",), ("site",), ("summary",)]
STEP_LINE = re.compile(r"^\[wirespeed ([a-z -]+): ([0-9.]+) s\]$", re.M)  # `wirespeed build`'s line after each step
TOP_LINE = re.compile(r'^(slug|title) = "(.*)"$', re.M)


def _top_level(text: str, key: str) -> re.Match:
    """The `key = "…"` line of result.toml's top table (before its first [header])."""
    head = text.split("\n[", 1)[0]
    for m in TOP_LINE.finditer(head):
        if m.group(1) == key:
            return m
    raise ValueError(f"result.toml has no top-level {key}")


def rewrite(text: str, slug: str | None = None, title_suffix: str = "") -> str:
    """result.toml with a new slug and/or text after its title; nothing else changes."""
    for key, value in (("title", None), ("slug", slug)):
        m = _top_level(text, key)
        new = value if key == "slug" else m.group(2) + title_suffix
        if new is not None:
            text = text[: m.start(2)] + new + text[m.end(2):]
    return text


def workdir(root: Path, w: Path, n: int) -> list[str]:
    """Fill w with the site's sources and the example archive copied to n sets; returns their slugs."""
    for name in SOURCES:
        src = root / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, w / name)
    (w / "node_modules").symlink_to(root / "node_modules")
    for name in KEPT:
        shutil.copy2(root / name, w / name)
    archive = w / "data" / "results"
    shutil.copytree(root / "data" / "results", archive, symlinks=True)
    real = sorted(p.name for p in archive.iterdir() if (p / "result.toml").is_file())
    if n < len(real):
        raise SystemExit(f"--sets {n}: the archive keeps the {len(real)} example sets (the articles cite them); ask for {len(real)} or more")
    slugs = list(real)
    for i in range(len(real), n):
        slug = real[i % len(real)]
        new = f"{slug}-copy-{i:03d}"
        shutil.copytree(archive / slug, archive / new, symlinks=True)
        toml = archive / new / "result.toml"
        toml.write_text(rewrite(toml.read_text(encoding="utf-8"), slug=new, title_suffix=f" (copy {i})"), encoding="utf-8")
        slugs.append(new)
    return slugs


def build(wirespeed: Path, w: Path) -> dict:
    """Every step of `make`'s build in w, measured; the totals and each step's figures."""
    steps = {}
    for step in STEPS:
        run = measure.run([str(wirespeed), *step], cwd=w, ok=(0, 1))  # 1: some sets left out, each named (recorded as "exit")
        steps[" ".join(step)] = run.figures()
        if run.returncode:  # what the step left out, in its own one-line messages
            steps[" ".join(step)]["left_out"] = [l for l in (run.stderr + run.stdout).splitlines() if l.strip()][-10:]
    return {"wall_s": round(sum(s["wall_s"] for s in steps.values()), 3), "cpu_s": round(sum(s["cpu_s"] for s in steps.values()), 3),
            "maxrss_mb": max(s["maxrss_mb"] for s in steps.values()), "tree_rss_mb": max(s["tree_rss_mb"] for s in steps.values()), "steps": steps}


def build_one_process(wirespeed: Path, w: Path) -> dict:
    """`wirespeed build` in w, measured (what `make` runs), with the steps' wall times it prints."""
    run = measure.run([str(wirespeed), "build"], cwd=w, ok=(0, 1))
    steps = {m[1]: float(m[2]) for m in STEP_LINE.finditer(run.stderr + run.stdout)}
    out = {**run.figures(), "steps_wall_s": steps}
    if run.returncode:
        out["left_out"] = [l for l in (run.stderr + run.stdout).splitlines() if l.strip()][-10:]
    return out


def _change_title(w: Path, slug: str) -> None:
    toml = w / "data" / "results" / slug / "result.toml"
    toml.write_text(rewrite(toml.read_text(encoding="utf-8"), title_suffix=" (title changed)"), encoding="utf-8")


def bench(root: Path, wirespeed: Path, w: Path, n: int, chain_dir: Path) -> dict:
    """Full build, no-op and one-set rebuilds of the examples copied to n sets: `wirespeed build` worked in w, and
    the chain of one command a step in chain_dir (a new folder), made the same way."""
    slugs = workdir(root, w, n)
    changed = slugs[-1]
    full = build_one_process(wirespeed, w)
    size, files = measure.tree_bytes(w / "public")
    noop = build_one_process(wirespeed, w)
    _change_title(w, changed)
    one = build_one_process(wirespeed, w)

    chain_dir.mkdir()
    workdir(root, chain_dir, n)
    chain = build(wirespeed, chain_dir)
    chain_noop = build(wirespeed, chain_dir)
    _change_title(chain_dir, changed)
    chain_one = build(wirespeed, chain_dir)
    # typesetting: the report step's CPU less what the same command costs when it has nothing to typeset
    pdf = max(0.0, chain["steps"]["report"]["cpu_s"] - chain_noop["steps"]["report"]["cpu_s"])
    r: dict = {"sets": n, "build_s": full["wall_s"], "peak_rss_mb": full["tree_rss_mb"], "cpu_s": full["cpu_s"],
               "cpu_per_set_s": round(full["cpu_s"] / n, 3), "cpu_per_set_without_pdf_s": round((full["cpu_s"] - pdf) / n, 3),
               "pdf_cpu_s": round(pdf, 3), "bytes_per_set": round(size / n), "files_per_set": round(files / n, 1), "published_bytes": size,
               "published_files": files, "own_bytes_per_set": measure.own_bytes(w / "public", slugs), "largest_process_rss_mb": full["maxrss_mb"],
               "noop_s": noop["wall_s"], "one_set_s": one["wall_s"], "noop_cpu_s": noop["cpu_s"], "one_set_cpu_s": one["cpu_s"],
               "one_set_changed": changed,
               "one_command_a_step": {"build_s": chain["wall_s"], "cpu_s": chain["cpu_s"], "cpu_per_set_s": round(chain["cpu_s"] / n, 3),
                                      "cpu_per_set_without_pdf_s": round((chain["cpu_s"] - pdf) / n, 3), "noop_s": chain_noop["wall_s"],
                                      "one_set_s": chain_one["wall_s"], "one_set_cpu_s": chain_one["cpu_s"]},
               "steps": {"full": full, "noop": noop, "one_set": one,
                         "one_command_a_step": {"full": chain["steps"], "noop": chain_noop["steps"], "one_set": chain_one["steps"]}}}
    r["one_process_over_one_command_a_step"] = {k: round(r[k] / r["one_command_a_step"][k], 3)
                                                for k in ("build_s", "cpu_per_set_without_pdf_s", "noop_s", "one_set_s")
                                                if r["one_command_a_step"][k]}
    return r
