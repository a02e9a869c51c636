"""The test-bed diagrams of the example sets drawn the way the site-data step draws them (one `dot` writing the SVG
and the PDF: site/diagrams.py) beside the way it drew them before (two pipes through the graphviz package, each
laying the graph out in a process of its own): wall and CPU (the `dot` processes included) a set, best of --rounds.
Only the side of now also strips the PDF's creation date (pikepdf), so the ratio leans towards before.

    .venv/bin/python bench/testbed_diagram.py [--rounds 3]

Reads the sets' site data from build/hugo-data (run `make` first)."""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, save  # noqa: E402


def two_pipes(bed: dict, dest: Path) -> None:
    """The previous design: the DOT source piped through `dot` once for the SVG and once for the PDF."""
    import graphviz

    from wirespeed.presentation.testbed_diagram import dot

    source = graphviz.Source(dot(bed))
    (dest / "testbed.svg").write_bytes(source.pipe(format="svg"))
    (dest / "testbed.pdf").write_bytes(source.pipe(format="pdf"))


def one_dot(bed: dict, dest: Path) -> None:
    from wirespeed.site import diagrams

    diagrams.render(bed, dest)


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    beds = []
    for f in sorted((ROOT / "build" / "hugo-data" / "wirespeed" / "sets").glob("*.json")):
        d = json.loads(f.read_text())
        beds.append({k: d[k] for k in ("slug", "dut", "instrument", "tests")})
    if not beds:
        sys.exit("no site data in build/hugo-data: run make first")
    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for name, draw in (("two pipes (before)", two_pipes), ("one dot (now)", one_dot)):
                c, t = _cpu(), time.perf_counter()
                for bed in beds:
                    draw(bed, Path(tmp))
                wall[name] = min(wall.get(name, float("inf")), time.perf_counter() - t)
                cpu[name] = min(cpu.get(name, float("inf")), _cpu() - c)
    n = len(beds)
    before, now = "two pipes (before)", "one dot (now)"
    save("testbed_diagram", {
        "sets": n,
        f"s a set, wall: {before}": f"{wall[before] / n:.4f}",
        f"s a set, wall: {now}": f"{wall[now] / n:.4f}",
        f"s a set, CPU: {before}": f"{cpu[before] / n:.4f}",
        f"s a set, CPU: {now}": f"{cpu[now] / n:.4f}",
        "ratio now / before (CPU)": f"{cpu[now] / cpu[before]:.3f}",
    })


if __name__ == "__main__":
    main()
