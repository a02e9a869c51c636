"""Build checks of the Hugo site against the fixture (run from the repo root).

    python3 tests/site_fixture/check_site.py [path/to/hugo]

1. The fixture site builds without errors or warnings.
2. Every broken shortcode use (unknown set, table, chart, figure; missing
   parameter) FAILS the build, and the error names the page, the shortcode and
   the missing id.
3. The site builds with no exported data at all (empty hugo.Data).
4. The raw archives in data/ never reach Hugo (hugo config mounts).
5. Result pages stay under 100 KB of gzipped HTML + CSS (charts scripts excluded).
Prints 'N passed, N failed'.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "site_fixture"
HUGO = sys.argv[1] if len(sys.argv) > 1 else (shutil.which("hugo") or "/tmp/probe-venv/lib/python3.11/site-packages/hugo/binaries/hugo")

results: list[tuple[str, bool, str]] = []


def check(name: str, ok: bool, detail: str = "") -> None:
    results.append((name, ok, detail))
    print(("ok   " if ok else "FAIL ") + name + (f" — {detail}" if detail and not ok else ""))


def overlay(tmp: Path, extra_content: Path | None = None, data: str | None = None) -> Path:
    """A config overlay: the fixture's mounts, optionally another content dir / data dir."""
    text = (FIXTURE / "config.toml").read_text(encoding="utf-8")
    if data is not None:
        text = text.replace('source = "tests/site_fixture/hugo-data"', f'source = "{data}"')
    if extra_content is not None:
        text = text.replace(
            '  [[module.mounts]]\n    source = "layouts"',
            f'  [[module.mounts]]\n    source = "{extra_content}"\n    target = "content"\n'
            '  [[module.mounts]]\n    source = "layouts"', 1)
    path = tmp / "overlay.toml"
    path.write_text(text, encoding="utf-8")
    return path


def hugo(tmp: Path, cfg: Path, dest: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HUGO, "--config", f"config.toml,{cfg}", "--destination", str(dest), "--cleanDestinationDir",
         "--cacheDir", str(tmp / "cache"), "--logLevel", "warn"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)


BROKEN = {
    "unknown-set": ('{{< result-table set="no-such-set" table="l2-unicast-throughput" >}}', "no-such-set"),
    "unknown-table": ('{{< result-table set="cisco-nexus-9516-100g" table="no-such-table" >}}', "no-such-table"),
    "unknown-chart": ('{{< result-chart set="cisco-nexus-9516-100g" chart="no-such-chart" >}}', "no-such-chart"),
    "unknown-figure": ('{{< result-figure set="cisco-nexus-9516-100g" figure="l2-unicast/nope/64" >}}', "l2-unicast/nope/64"),
    "missing-param": ('{{< result-chart set="cisco-nexus-9516-100g" >}}', "chart="),
}


def main() -> int:
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        # 1. the fixture builds cleanly
        out = tmp / "public"
        r = hugo(tmp, overlay(tmp), out)
        noise = [ln for ln in (r.stdout + r.stderr).splitlines() if re.match(r"^(WARN|ERROR)", ln)]
        check("fixture site builds", r.returncode == 0, r.stderr[-2000:])
        check("no warnings or errors", not noise, "\n".join(noise[:5]))
        for page in ("index.html", "results/index.html", "compare/index.html", "compare/index.json", "about/index.html",
                     "results/cisco-nexus-9516-100g/index.html", "results/cisco-nexus-9516-100g/l2-unicast/index.html",
                     "results/cisco-nexus-9516-100g/comparisons/acl-impact/index.html",
                     "results/mikrotik-ccr2004-trex-ramp/index.html", "reviews/nexus-9516-fabric/index.html"):
            check(f"page {page}", (out / page).is_file())
        html = (out / "results/cisco-nexus-9516-100g/index.html").read_text(encoding="utf-8") if r.returncode == 0 else ""
        page = BeautifulSoup(html, "lxml")  # parsed: the minifier drops the quotes and end tags HTML lets it
        urls = [el[a] for el in page.find_all(True) for a in ("src", "href") if el.get(a)]
        check("no off-host URL in result page", not [u for u in urls if re.match(r"(https?:)?//(?!vega\.github\.io)", u)])
        check("tables have captions and scoped headers",
              bool(page.select("table > caption") and page.select("th[scope=colgroup]") and page.select("th[scope=row]")))
        check("flagged cell carries an accessible note", any(n.get_text().startswith("(note 1:") for n in page.select(".vh")))
        check("chart falls back to an <img> with alt text",
              any(i.get("src", "").endswith(".svg") and len(i.get("alt", "")) >= 20 for i in page.select("img.chart-static")))
        charts = page.find_all("script", src=re.compile(r"charts\.min\.[0-9a-f]+\.js$"))
        check("chart scripts with SRI on chart pages (the embed script, naming the Vega runtime it loads on scroll)",
              len(charts) == 1 and charts[0].get("integrity", "").startswith("sha256-") and charts[0].has_attr("defer")
              and re.search(r"/vega-runtime\.[0-9a-f]+\.js$", charts[0].get("data-vega", "")) is not None
              and charts[0].get("data-vega-integrity", "").startswith("sha256-"))
        idx = (out / "results/index.html").read_text(encoding="utf-8") if r.returncode == 0 else ""
        check("no chart scripts on pages without charts", "vega" not in idx)

        # 5. page weight of the result pages
        css = next(iter((out / "css").glob("main.min.*.css")), None) if r.returncode == 0 else None
        css_gz = len(gzip.compress(css.read_bytes(), 9)) if css else 0
        for page in ("results/cisco-nexus-9516-100g/index.html", "results/cisco-nexus-9516-100g/l2-unicast/index.html"):
            if not (out / page).is_file():
                continue
            total = len(gzip.compress((out / page).read_bytes(), 9)) + css_gz
            print(f"     weight {page}: {total} bytes gzipped (HTML + CSS {css_gz})")
            check(f"{page} under 100 KB gzipped", total < 100_000, str(total))

        # 2. broken shortcodes fail the build, naming page, shortcode and id
        for case, (body, needle) in BROKEN.items():
            cdir = tmp / f"content-{case}"
            (cdir / "broken").mkdir(parents=True)
            (cdir / "broken" / f"{case}.md").write_text(f"---\ntitle: Broken {case}\n---\n\nText.\n\n{body}\n", encoding="utf-8")
            r = hugo(tmp, overlay(tmp, extra_content=cdir), tmp / f"public-{case}")
            err = r.stdout + r.stderr
            sc = re.search(r"result-(table|chart|figure)", body).group(0)
            ok = r.returncode != 0 and f"/broken/{case}" in err and f'"{sc}"' in err and needle in err
            check(f"broken shortcode fails the build: {case}", ok, err[-600:])

        # 3. no exported data at all
        empty = tmp / "empty-data"
        empty.mkdir()
        r = hugo(tmp, overlay(tmp, data=str(empty)), tmp / "public-empty")
        # the sample review cites the fixture, so an empty catalog must fail the review, not the theme:
        check("empty catalog fails a review that cites it", r.returncode != 0 and "not found" in (r.stdout + r.stderr))
        text = (FIXTURE / "config.toml").read_text(encoding="utf-8")
        text = text.replace('source = "tests/site_fixture/hugo-data"', f'source = "{empty}"')
        text = re.sub(r'  \[\[module.mounts\]\]\n    source = "tests/site_fixture/content"\n    target = "content"\n', "", text)
        (tmp / "empty.toml").write_text(text, encoding="utf-8")
        r = hugo(tmp, tmp / "empty.toml", tmp / "public-empty")
        check("site builds with an empty catalog", r.returncode == 0, r.stderr[-1000:])
        if r.returncode == 0:
            check("empty results page says so", "No result set has been published yet" in
                  (tmp / "public-empty/results/index.html").read_text(encoding="utf-8"))

        # 4. data/ is never Hugo's data dir
        r = subprocess.run([HUGO, "config", "--format", "json"], cwd=ROOT, capture_output=True, text=True)
        mounts = json.loads(r.stdout)["module"]["mounts"] if r.returncode == 0 else []
        data_mounts = [m for m in mounts if m["target"] == "data"]
        data_ok = {"source": "data", "target": "data", "files": ["! **"]} in data_mounts and \
            all(m["source"] != "data" or m.get("files") == ["! **"] for m in data_mounts) and \
            any(m["source"] == "build/hugo-data" for m in data_mounts)
        check("data/ mounted with every file excluded; build/hugo-data is the data", data_ok, json.dumps(data_mounts))
    passed = sum(ok for _, ok, _ in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
