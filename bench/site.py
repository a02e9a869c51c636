"""Hugo: build time and page weight of the example site, and build time of a synthetic archive of
1,000 result sets (the examples' exported data repeated under new slugs), against the targets of
30 s for 1,000 sets and 100 KB compressed HTML + CSS per article."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import ROOT, save  # noqa: E402

os.chdir(ROOT)
from wirespeed.system.hugo import binary  # noqa: E402

N = 1000


def hugo(config: Path, dest: Path) -> float:
    t = time.perf_counter()
    proc = subprocess.run([str(binary()), "--source", str(ROOT), "--config", str(config), "--destination", str(dest), "--cleanDestinationDir", "--quiet"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-3000:])
    return round(time.perf_counter() - t, 3)


def overlay(tmp: Path, data: Path, static: Path, reports: Path) -> Path:
    text = (ROOT / "config.toml").read_text()
    text = text.replace('source = "build/hugo-data"', f'source = "{data}"').replace('source = "build/site-static"', f'source = "{static}"')
    text = text.replace('source = "build/reports"', f'source = "{reports}"').replace('resourceDir = "build/hugo-resources"', f'resourceDir = "{tmp / "res"}"')
    path = tmp / "config.toml"
    path.write_text(text)
    return path


def main() -> None:
    r: dict = {}
    sets_dir = ROOT / "build" / "hugo-data" / "wirespeed" / "sets"
    if not sets_dir.is_dir():
        raise SystemExit("run make first: build/hugo-data is missing")
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        dest = tmp / "public"
        r["examples_build_s"] = hugo(overlay(tmp, ROOT / "build" / "hugo-data", ROOT / "build" / "site-static", ROOT / "build" / "reports"), dest)
        r["examples_pages"] = sum(1 for _ in dest.rglob("*.html"))
        css = sum(len(gzip.compress(p.read_bytes())) for p in (dest / "css").glob("*.css"))
        weights = {p.parent.name: len(gzip.compress(p.read_bytes())) + css for p in (dest / "reviews").glob("*/index.html")}
        r["article_html_css_gzip_max_bytes"] = max(weights.values())
        set_pages = [len(gzip.compress((dest / "results" / s / "index.html").read_bytes())) + css for s in (p.stem for p in sets_dir.glob("*.json"))]
        r["result_page_html_css_gzip_max_bytes"] = max(set_pages)
        big = tmp / "data1000" / "wirespeed" / "sets"
        big.mkdir(parents=True)
        originals = [json.loads(p.read_text()) for p in sorted(sets_dir.glob("*.json"))]
        for o in originals:  # the real ones stay, for the review articles' shortcodes
            (big / f"{o['slug']}.json").write_text(json.dumps(o))
        for i in range(N - len(originals)):
            d = dict(originals[i % len(originals)])
            d["slug"] = f"{d['slug']}-synthetic-{i:04d}"
            d["title"] = f"{d['title']} (synthetic copy {i})"
            (big / f"{d['slug']}.json").write_text(json.dumps(d))
        (tmp / "data1000" / "wirespeed" / "build.json").write_text(json.dumps({"sets": [p.stem for p in big.glob("*.json")]}))
        dest2 = tmp / "public1000"
        r["sets_1000_build_s"] = hugo(overlay(tmp, tmp / "data1000", ROOT / "build" / "site-static", ROOT / "build" / "reports"), dest2)
        r["sets_1000_pages"] = sum(1 for _ in dest2.rglob("*.html"))
    r["sets_1000_vs_30s_target"] = round(r["sets_1000_build_s"] / 30, 3)
    r["article_vs_100kb_target"] = round(r["article_html_css_gzip_max_bytes"] / 100_000, 3)
    r["sets_1000_vs_examples_time"] = round(r["sets_1000_build_s"] / r["examples_build_s"], 1)
    save("site", r)


if __name__ == "__main__":
    main()
