"""Page weight of the review and trend pages: everything a reader's browser transfers for each page (HTML, CSS,
scripts, chart specs, images), gzipped, measured in Chromium while scrolling the whole page so that
every lazy chart and image loads. Prints the heaviest review or trend page of the site built from git main
(today's figure) beside this tree's, against the 200 KB target (issue 14).

    .venv/bin/python bench/page_weight.py [--site public] [--before DIR] [--ref main]

--before: an already built site to compare with; without it, the templates and assets of --ref are
built by Hugo into build/bench/site-<ref> over this tree's content and exported data (build/), so
only the front end differs.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import subprocess
import sys
import tarfile
import io
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, save  # noqa: E402

TARGET = 200_000
FRONT_END = ["layouts", "assets", "static", "config.toml"]  # from --ref; the content and data are this tree's


def build_ref(ref: str) -> Path:
    """Hugo-build the front end of git `ref` over this tree's build/ data into build/bench/site-<ref>."""
    from wirespeed.system.hugo import binary

    src = OUT / f"src-{ref}"
    dest = OUT / f"site-{ref}"
    if src.exists():
        subprocess.run(["rm", "-rf", str(src)], check=True)
    src.mkdir(parents=True)
    tar = subprocess.run(["git", "archive", ref, *FRONT_END], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(src, filter="data")
    (src / "data").mkdir(exist_ok=True)
    shutil.copytree(ROOT / "content", src / "content")
    (src / "docs").mkdir(exist_ok=True)
    for f in ("CONTRIBUTING.md", "docs/columns.md"):
        shutil.copy(ROOT / f, src / f)
    for link in ("node_modules", "build"):
        (src / link).symlink_to(ROOT / link)
    subprocess.run([str(binary()), "--source", str(src), "--destination", str(dest.resolve()), "--cleanDestinationDir", "--logLevel", "error"],
                   check=True, capture_output=True)
    return dest


def serve(site: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def transfer(browser, base: str, path: str, width: int = 1366) -> tuple[int, dict[str, int]]:
    """Gzipped bytes of every response the page loads while scrolled from top to bottom."""
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    sizes: dict[str, int] = {}

    def got(resp):
        try:
            body = resp.body()
        except Exception:  # redirects and aborted requests have no body
            return
        sizes[resp.url] = len(gzip.compress(body, 6))

    page.on("response", got)
    page.goto(base + path, wait_until="networkidle")
    height = page.evaluate("document.documentElement.scrollHeight")
    y = 0
    while y < height:
        y += 600
        page.evaluate(f"window.scrollTo(0, {y})")
        page.wait_for_timeout(120)
        height = page.evaluate("document.documentElement.scrollHeight")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    ctx.close()
    return sum(sizes.values()), sizes


def heaviest(browser, site: Path) -> tuple[str, int, dict[str, int]]:
    httpd, base = serve(site)
    try:
        best = ("", -1, {})
        pages = sorted((site / "reviews").glob("*/index.html")) + sorted((site / "trends").glob("**/index.html"))  # and every trend page
        for review in pages:
            path = "/" + review.parent.relative_to(site).as_posix() + "/"
            total, sizes = transfer(browser, base, path)
            if total > best[1]:
                best = (path, total, sizes)
        return best
    finally:
        httpd.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default=str(ROOT / "public"))
    ap.add_argument("--before")
    ap.add_argument("--ref", default="main")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from wirespeed.system.browser import chromium_executable

    before_site = Path(args.before) if args.before else build_ref(args.ref)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_executable(), args=["--headless", "--no-sandbox", "--disable-gpu"])
        old = heaviest(b, before_site)
        new = heaviest(b, Path(args.site))
        b.close()

    def top(sizes: dict[str, int]) -> str:
        return ", ".join(f"{urlparse(u).path.rsplit('/', 1)[-1][:40]} {s / 1000:.1f}" for u, s in sorted(sizes.items(), key=lambda kv: -kv[1])[:4])

    results = {
        f"before ({args.ref}) heaviest review": old[0], f"before ({args.ref}) gzipped KB": round(old[1] / 1000, 1), "before largest (KB)": top(old[2]),
        "now heaviest review": new[0], "now gzipped KB": round(new[1] / 1000, 1), "now largest (KB)": top(new[2]),
        "target KB": TARGET / 1000, "ratio now/target": round(new[1] / TARGET, 3), "ratio now/before": round(new[1] / max(old[1], 1), 3),
    }
    save("page_weight", results)
    if new[1] > TARGET:
        sys.exit(f"page weight: {new[0]} transfers {new[1] / 1000:.1f} KB gzipped, over the {TARGET / 1000:.0f} KB target")


if __name__ == "__main__":
    main()
