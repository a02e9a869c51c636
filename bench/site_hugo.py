"""Hugo over a synthetic archive of N sets (bench/site_archive.py): a full build with cold caches, a
no-op rebuild, and a rebuild after one set's title changed — each into a fresh destination, as
`wirespeed site` builds (it always renders the whole site into a new folder and swaps it in; Hugo has
no incremental build outside `hugo server`). The three runs share the Hugo resource and module caches
of the first, which starts with empty ones."""

from __future__ import annotations

import dataclasses
import gzip
import re
import shutil
import subprocess
import time
from pathlib import Path

import measure
import site_archive

from wirespeed.system import hugo_static, search
from wirespeed.system.hugo import binary, environment

# A row of Hugo's --templateMetrics --templateMetricsHints table: three durations ("34.27  s", "41.40 µs"), four counts, the template.
_D = r"([\d.]+\s*(?:ns|µs|us|ms|s|m|h))"
METRICS_ROW = re.compile(rf"^\s*{_D}\s+{_D}\s+{_D}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s*$", re.M)
HINTED = ("cache_potential_pct", "percent_cached", "cached_count", "total_count")
UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def seconds(duration: str) -> float:
    m = re.fullmatch(r"([\d.]+)\s*(\S+)", duration.strip())
    return round(float(m.group(1)) * UNITS[m.group(2)], 6)


MOUNT_SOURCE = re.compile(r'^(\s*source\s*=\s*)"([^"]+)"', re.M)


def site_folder(root: Path, tmp: Path) -> Path:
    """A Hugo source folder in tmp: config.toml's mounts point at the repository's sources (absolute) and at
    tmp/build/ for the pipeline's outputs; package.json (the about and SQL pages read it) and node_modules beside it."""
    def mount(m: re.Match) -> str:
        source = m.group(2)
        base = tmp if source.startswith("build/") else root
        return f'{m.group(1)}"{base / source}"'

    (tmp / "config.toml").write_text(MOUNT_SOURCE.sub(mount, (root / "config.toml").read_text(encoding="utf-8")), encoding="utf-8")
    shutil.copyfile(root / "package.json", tmp / "package.json")
    (tmp / "node_modules").symlink_to(root / "node_modules")  # js.Build resolves bare imports in the working folder's node_modules
    return tmp


LIMIT_MB = 12_000  # Hugo is killed above this much memory (the machine is shared)


def hugo(site: Path, dest: Path, *extra: str, copy: bool = False) -> measure.Run:
    """One measured Hugo build of `site` into a fresh `dest`, with the flags `wirespeed site` gives it and, as it does,
    the static mounts linked into the site after Hugo's build (wirespeed/system/hugo_static.py), the link step's time
    added; with `copy`, Hugo copies them itself (the previous design)."""
    if dest.exists():
        shutil.rmtree(dest)
    subprocess.run(["sync"], check=False)  # no earlier build's writes still pending on the disk during this one
    args, linked = (list(extra), []) if copy else hugo_static.prepare(site, list(extra), site / f"site{hugo_static.OVERLAY_SUFFIX}")
    run = measure.run([str(binary()), "--source", str(site), "--destination", str(dest), "--cleanDestinationDir",
                       "--cacheDir", str(site / "hugo-cache"), "--logLevel", "warn", "--panicOnWarning", *args], env=environment(), limit_mb=LIMIT_MB)
    if linked and run.returncode == 0:
        wall, cpu = time.perf_counter(), time.process_time()
        hugo_static.link(linked, dest)
        run = dataclasses.replace(run, wall_s=round(run.wall_s + time.perf_counter() - wall, 3), cpu_s=round(run.cpu_s + time.process_time() - cpu, 3))
    return run


def pages(run: measure.Run, dest: Path) -> int:
    """The pages Hugo says it built (its summary table), else the HTML files it wrote."""
    m = re.search(r"^\s*Pages\s*│\s*(\d+)", run.stdout, re.M)
    return int(m.group(1)) if m else sum(1 for _ in dest.rglob("*.html"))


def article_weight(dest: Path) -> int:
    """The largest review article's HTML plus the site's CSS, gzipped, in bytes (the 100 KB target; bench/page_weight.py
    measures everything the page transfers)."""
    css = sum(len(gzip.compress(p.read_bytes())) for p in (dest / "css").glob("*.css"))
    return max((len(gzip.compress(p.read_bytes())) + css for p in (dest / "reviews").glob("*/index.html")), default=0)


def template_metrics(site: Path, dest: Path, top: int = 10) -> tuple[list[dict], str]:
    """Hugo's --templateMetrics --templateMetricsHints table of a build: (its first `top` rows, the whole text)."""
    run = hugo(site, dest, "--templateMetrics", "--templateMetricsHints")
    rows = [{"template": m.group(8), "cumulative_s": seconds(m.group(1)), "average_s": seconds(m.group(2)), "maximum_s": seconds(m.group(3)),
             **dict(zip(HINTED, map(int, m.group(4, 5, 6, 7))))} for m in METRICS_ROW.finditer(run.stdout)]
    return rows[:top], run.stdout


def bench(root: Path, src: Path, tmp: Path, n: int, seed: int, metrics: bool) -> dict:
    """The figures of Hugo over an archive of n sets made from the build in `src`, worked in tmp."""
    t = time.perf_counter()
    slugs = site_archive.build(src, tmp, n, seed)
    made = round(time.perf_counter() - t, 3)
    site = site_folder(root, tmp)
    dest = tmp / "public"
    full = hugo(site, dest)
    r: dict = {"sets": n, "build_s": full.wall_s, "peak_rss_mb": full.maxrss_mb, "cpu_s": full.cpu_s,
               "cpu_per_set_s": round(full.cpu_s / n, 4)}
    size, files = measure.tree_bytes(dest)
    count = pages(full, dest)
    r.update({"bytes_per_set": round(size / n), "files_per_set": round(files / n, 1), "pages": count, "pages_per_set": round(count / n, 2),
              "published_bytes": size, "published_files": files, "tree_rss_mb": full.tree_rss_mb,
              "own_bytes_per_set": measure.own_bytes(dest, slugs), "article_html_css_gzip_max_bytes": article_weight(dest)})
    copied = hugo(site, dest, copy=True)  # the previous design, on the same archive and caches
    r.update({"copied_build_s": copied.wall_s, "copied_cpu_s": copied.cpu_s, "copied_peak_rss_mb": copied.maxrss_mb,
              "linked_over_copied_wall": round(full.wall_s / copied.wall_s, 3), "linked_over_copied_cpu": round(full.cpu_s / copied.cpu_s, 3)})
    runs = [measure.run(cmd, limit_mb=LIMIT_MB) for cmd in search.commands(dest, root)]  # the search index, as `wirespeed site` builds it
    r.update({"pagefind_s": round(sum(x.wall_s for x in runs), 3), "pagefind_cpu_s": round(sum(x.cpu_s for x in runs), 3),
              "pagefind_runs": len(runs), "pagefind_peak_rss_mb": max(x.tree_rss_mb for x in runs)})
    noop = hugo(site, dest)
    changed = slugs[-1]
    site_archive.retitle(tmp, changed, " (title changed)")
    one = hugo(site, dest)
    r.update({"noop_s": noop.wall_s, "one_set_s": one.wall_s, "noop_cpu_s": noop.cpu_s, "one_set_cpu_s": one.cpu_s,
              "noop_peak_rss_mb": noop.maxrss_mb, "one_set_peak_rss_mb": one.maxrss_mb, "one_set_changed": changed, "archive_s": made})
    if metrics:
        top, text = template_metrics(site, dest)
        r["templates_top10"] = top
        r["_template_metrics_text"] = text
    return r
