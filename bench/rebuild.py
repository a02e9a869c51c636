"""What a rebuild costs in a built tree: `wirespeed build --force` (every step asked, nothing to rebuild: a commit
that changes no set) and one result set's title changed, then changed back (two rebuilds of that set, its report,
its series' trend charts and the trend report), in alternating rounds beside another checkout's code
(`--against DIR`: a git worktree of the earlier commit, built once with `make` or `wirespeed build`). Wall and CPU
time of each build and the steps' own times; the medians side by side, as ratios, in build/bench/rebuild.json.

    .venv/bin/python bench/rebuild.py --against /work/wtb --rounds 2
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, save  # noqa: E402

STEP = re.compile(r"^\[wirespeed ([a-z -]+): ([0-9.]+) s\]$", re.M)
TITLE = re.compile(r'^title = "(.*)"$', re.M)


def _python(tree: Path) -> str:
    """The tree's own virtualenv's Python (its `make` made it, with the packages that tree pins), else this one."""
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.is_file() else sys.executable


def _build(tree: Path, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([_python(tree), "-m", "wirespeed", "build", *args], cwd=tree, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: wirespeed build {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "steps": {m[1]: float(m[2]) for m in STEP.finditer(proc.stdout + proc.stderr)}}


def _one_set_changed(tree: Path, slug: str) -> list[dict]:
    """The set's title changed, built; restored, built."""
    toml = tree / "data" / "results" / slug / "result.toml"
    original = toml.read_bytes()
    text = original.decode("utf-8")
    if not TITLE.search(text):
        raise SystemExit(f"{toml}: no title line to change")
    try:
        toml.write_text(TITLE.sub(lambda m: f'title = "{m[1]} (bench)"', text, count=1), encoding="utf-8")
        changed = _build(tree)
    finally:
        toml.write_bytes(original)
    return [changed, _build(tree)]


def _median(runs: list[dict], key: str) -> float:
    return round(statistics.median(r[key] for r in runs), 2)


def _step_medians(runs: list[dict]) -> dict[str, float]:
    names = sorted({n for r in runs for n in r["steps"]})
    return {n: round(statistics.median(r["steps"].get(n, 0.0) for r in runs), 2) for n in names}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", type=Path, help="another built checkout (its code and its build/): the 'before' side")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--set", dest="slug", help="the set whose title changes (default: the last by name)")
    a = ap.parse_args()
    trees = {"after": ROOT, **({"before": a.against.resolve()} if a.against else {})}
    slug = a.slug or sorted(p.name for p in (ROOT / "data" / "results").iterdir() if p.is_dir())[-1]
    for tree in trees.values():
        _build(tree)  # whatever is out of date, so that the rounds measure only what they change
    runs: dict[str, dict[str, list[dict]]] = {side: {"force": [], "one_set": []} for side in trees}
    for _ in range(a.rounds):
        for side, tree in trees.items():
            runs[side]["force"] += [_build(tree, "--force"), _build(tree, "--force")]
            runs[side]["one_set"] += _one_set_changed(tree, slug)
    result: dict = {"set": slug, "rounds": a.rounds, "load_average": os.getloadavg()[0], "runs": runs}
    for side in trees:
        for kind in ("force", "one_set"):
            result[f"{side}_{kind}"] = {"wall_s": _median(runs[side][kind], "wall_s"), "cpu_s": _median(runs[side][kind], "cpu_s"),
                                        "steps": _step_medians(runs[side][kind])}
    if "before" in trees:
        result["ratios"] = {f"{kind}_{what}": round(result[f"after_{kind}"][what] / result[f"before_{kind}"][what], 3)
                            for kind in ("force", "one_set") for what in ("wall_s", "cpu_s")}
    for kind in ("force", "one_set"):
        line = "  ".join(f"{side}: {result[f'{side}_{kind}']['wall_s']} s wall, {result[f'{side}_{kind}']['cpu_s']} s CPU" for side in trees)
        print(f"{kind}: {line}")
    if "ratios" in result:
        print("ratios (after / before):", result["ratios"])
    save("rebuild", result)


if __name__ == "__main__":
    main()
