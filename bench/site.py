"""The site at scale (issue 24): Hugo over a synthetic archive of N result sets, or the whole pipeline
over the examples copied to N sets — full build, no-op and one-set rebuilds, time, CPU, peak memory and
published bytes per set — side by side with the previous design's figures and the issue's goals.

    .venv/bin/python bench/site.py --sets 1000                 # Hugo (make first: it copies build/)
    .venv/bin/python bench/site.py --sets 40 --mode pipeline   # `wirespeed build` and the chain of steps, from an empty build/

Writes build/bench/site.json (or --out): this run's figures at the top, and every run kept in the file
before under "runs" ("hugo-1000", "pipeline-40", …)."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import OUT, ROOT, save  # noqa: E402

# The previous design's figures (Hugo over the examples' exported data repeated under new slugs; the
# pipeline over the 8 examples, and over them copied to 40 sets), measured before issue 24's rework.
# 150 and 300: Hugo reading every set's full site data as hugo.Data (before the set index, 2026-11-26, load 5-7).
PREVIOUS = {
    "hugo": {150: {"build_s": 9.28, "peak_rss_mb": 613.8, "cpu_s": 8.19}, 300: {"build_s": 20.73, "peak_rss_mb": 988.6, "cpu_s": 19.37},
             1000: {"build_s": 22.0}, 10000: {"build_s": 402.9, "peak_rss_mb": 15_300}, "any": {"bytes_per_set": 2_900_000, "files_per_set": 85}},
    "pipeline": {8: {"build_s": 57.0, "noop_s": 9.0, "one_set_s": 14.0},
                 40: {"build_s": 419.0, "noop_s": 48.8}, "any": {"cpu_per_set_s": 10.5, "bytes_per_set": 3_300_000}},
}
# The goals (done-when), and the earlier target of 100 KB for an article's HTML and CSS gzipped.
GOALS = {
    "hugo": {10000: {"build_s": 60.0, "peak_rss_mb": 4_000}, "any": {"bytes_per_set": 500_000, "article_html_css_gzip_max_bytes": 100_000}},
    "pipeline": {8: {"build_s": 20.0, "noop_s": 1.0, "one_set_s": 3.0}, "any": {"cpu_per_set_s": 4.0, "cpu_per_set_without_pdf_s": 1.0, "bytes_per_set": 500_000}},
}


def beside(table: dict, mode: str, n: int, r: dict) -> dict:
    """The figures of `table` that apply to this run, each with this run's figure and their ratio (this / that)."""
    out = {}
    for key, value in {**table[mode].get("any", {}), **table[mode].get(n, {})}.items():
        if key in r:
            out[key] = {"then": value, "now": r[key], "ratio": round(r[key] / value, 3)}
    return out


def machine() -> dict:
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "cores": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench/site.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", type=int, default=1000, help="result sets in the archive (default 1000)")
    p.add_argument("--mode", choices=("hugo", "pipeline"), default="hugo",
                   help="hugo: Hugo over a synthetic archive made from --source's build/ (default); pipeline: every step of `make`")
    p.add_argument("--source", type=Path, default=ROOT, help="the built working folder whose build/ the hugo mode copies (default: the repository)")
    p.add_argument("--out", type=Path, default=OUT / "site.json", help="the JSON written (default build/bench/site.json)")
    p.add_argument("--seed", type=int, default=0, help="seed of the copies' changed numbers (hugo mode)")
    p.add_argument("--template-metrics", action="store_true", help="hugo mode: one more build with --templateMetrics --templateMetricsHints; "
                   "its top 10 in the JSON, the whole table beside it (site-templates-N.txt)")
    p.add_argument("--workdir", type=Path, default=None, help="pipeline mode: build in this new folder and keep it (a --source for the hugo mode)")
    p.add_argument("--tmp", type=Path, default=None, help="where the scratch folder goes (default: the system's; the same file system as "
                   "--source lets the archive hard-link the files Hugo only copies)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    start = machine()
    with tempfile.TemporaryDirectory(prefix="wirespeed-site-bench-", dir=args.tmp) as t:
        if args.mode == "hugo":
            import site_hugo

            r = site_hugo.bench(ROOT, args.source.resolve(), Path(t), args.sets, args.seed, args.template_metrics)
        else:
            import site_pipeline

            w = Path(t) / "one-process"
            if args.workdir:
                w = args.workdir  # a new folder: never one that holds anything
            w.mkdir(parents=True)
            r = site_pipeline.bench(ROOT, ROOT / ".venv" / "bin" / "wirespeed", w, args.sets, Path(t) / "one-command-a-step")
    text = r.pop("_template_metrics_text", None)
    r = {"sets": r.pop("sets"), "mode": args.mode, **r}
    r["previous"] = beside(PREVIOUS, args.mode, args.sets, r)
    r["goals"] = beside(GOALS, args.mode, args.sets, r)
    r["machine"] = {**start, "load_average_end": machine()["load_average"]}
    runs = {}
    if args.out.exists():
        before = json.loads(args.out.read_text())
        runs = before.get("runs", {})
    runs[f"{args.mode}-{args.sets}"] = {k: v for k, v in r.items() if k != "steps"}
    save("site", {**r, "runs": runs}, path=args.out)
    if text:
        (args.out.parent / f"site-templates-{args.sets}.txt").write_text(text)


if __name__ == "__main__":
    main()
