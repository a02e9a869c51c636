"""Compiling a chart with and without Altair's schema check, side by side, over the Vega-Lite specs the examples'
analysis wrote (build/analysis/*/*/charts/*.vl.json; run `make` first). A spec is turned back into an Altair chart
unchecked, then compiled with `to_dict(validate=True)` (what compile_chart did) and `to_dict(validate=False)` (what it
does now: the tests check every published spec against the schema instead). Best of `--repeat` alternating rounds.

`.venv/bin/python bench/chart_compile.py [--repeat 3]` writes build/bench/chart_compile.json."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, save  # noqa: E402


def _charts() -> list:
    import altair as alt

    out = []
    for path in sorted((ROOT / "build" / "analysis").glob("*/*/charts/*.vl.json")):
        spec = json.loads(path.read_text())
        kind = alt.LayerChart if "layer" in spec else alt.VConcatChart if "vconcat" in spec else alt.HConcatChart if "hconcat" in spec \
            else alt.FacetChart if "facet" in spec else alt.Chart
        out.append(kind.from_dict(spec, validate=False))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    charts = _charts()
    if not charts:
        sys.exit("no chart specs under build/analysis: run `make` first")
    best = {True: float("inf"), False: float("inf")}
    for _ in range(args.repeat):
        for validate in (True, False):
            t = time.perf_counter()
            for c in charts:
                c.to_dict(validate=validate)
            best[validate] = min(best[validate], time.perf_counter() - t)
    save("chart_compile", {"charts": len(charts), "checked_s": round(best[True], 3), "unchecked_s": round(best[False], 3),
                           "checked_per_chart_ms": round(1000 * best[True] / len(charts), 1),
                           "unchecked_per_chart_ms": round(1000 * best[False] / len(charts), 1),
                           "ratio_unchecked_to_checked": round(best[False] / best[True], 3)})


if __name__ == "__main__":
    main()
