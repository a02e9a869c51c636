"""Where a chart's PDF is drawn: the previous design drew one for every chart in the analysis step (vl-convert's
svg_to_pdf of the chart's SVG, then reproducible.stable_pdf), the report step now draws those of the charts a report
prints (wirespeed/report/chart_pdf.py), once per distinct drawing. Measured in this process over the built examples:
every chart's SVG under build/site-static/results/*/charts/ and the charts each report printed (its manifest), rounds
alternating, no cache on either side.

`.venv/bin/python bench/chart_pdf.py [--rounds 3]` (after `make`) writes build/bench/chart_pdf.json."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, save  # noqa: E402

os.chdir(ROOT)
from wirespeed.pipeline import paths  # noqa: E402
from wirespeed.report import chart_pdf  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    static = paths.SITE_STATIC / "results"
    every = sorted(static.glob("*/charts/*.svg"))
    printed = []  # the SVG of each chart a report printed
    for manifest in sorted(paths.REPORTS.glob("*.manifest.json")):
        slug = manifest.name.removesuffix(".manifest.json")
        printed += [static / slug / "charts" / f"{cid}.svg" for cid in json.loads(manifest.read_text())["charts"]]
    distinct = {chart_pdf.key(p.read_bytes()): p for p in printed}
    sets = len(list(static.iterdir()))
    r: dict = {"sets": sets, "charts": len(every), "charts_printed": len(printed), "distinct_drawings_printed": len(distinct), "rounds": []}
    for _ in range(args.rounds):
        for side, paths_ in (("every_chart", every), ("printed_distinct", list(distinct.values()))):
            t, cpu = time.perf_counter(), time.process_time()
            for p in paths_:
                chart_pdf.draw(p.read_bytes())
            r["rounds"].append({"side": side, "wall_s": round(time.perf_counter() - t, 3), "cpu_s": round(time.process_time() - cpu, 3)})
    for side in ("every_chart", "printed_distinct"):
        cpus = sorted(x["cpu_s"] for x in r["rounds"] if x["side"] == side)
        r[f"{side}_cpu_s_median"] = cpus[len(cpus) // 2]
        r[f"{side}_cpu_ms_per_set"] = round(1000 * cpus[len(cpus) // 2] / sets, 1)
    r["printed_over_every"] = round(r["printed_distinct_cpu_s_median"] / r["every_chart_cpu_s_median"], 3)
    save("chart_pdf", r)


if __name__ == "__main__":
    main()
