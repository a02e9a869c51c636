"""Look at the built site: screenshots + console errors + off-host requests.

    python3 -m http.server --bind 127.0.0.1 8431 -d public &
    .venv/bin/python tests/site_fixture/screenshots.py http://127.0.0.1:8431 /tmp/shots [names,…] [pages.txt]

Takes full-page screenshots of the main page types at 375x812 and 1280x900 in
light and dark mode, prints every console error/warning, page error, failed or
off-host request, and exits non-zero if there was any.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

from wirespeed.system.browser import chromium_executable

PAGES = {
    "home": "/",
    "results-filtered": "/results/?vendor=Cisco&rfc=2544",
    "result-set": "/results/cisco-nexus-9516-100g/",
    "test": "/results/cisco-nexus-9516-100g/l2-unicast/",
    "comparison": "/results/cisco-nexus-9516-100g/comparisons/acl-impact/",
    "ramp-set": "/results/mikrotik-ccr2004-trex-ramp/",
    "compare": "/compare/?sets=cisco-nexus-9516-100g,mikrotik-ccr2004-trex-ramp",
    "review": "/reviews/nexus-9516-fabric/",
    "about": "/about/",
}
SIZES = {"phone": (375, 812), "desktop": (1280, 900)}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main() -> int:
    global PAGES
    base = sys.argv[1].rstrip("/")
    if len(sys.argv) > 4:  # a file of "name path" lines instead of the fixture's pages
        PAGES = dict(line.split(None, 1) for line in Path(sys.argv[4]).read_text().split("\n") if line.strip())
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/shots")
    only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 and sys.argv[3] != "all" else None
    out.mkdir(parents=True, exist_ok=True)
    host = urlparse(base).hostname
    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=ARGS)
        for scheme in ("light", "dark"):
            for size, (w, h) in SIZES.items():
                ctx = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
                for name, path in PAGES.items():
                    if only and name not in only:
                        continue
                    page = ctx.new_page()
                    tag = f"{name}-{size}-{scheme}"

                    def on_console(msg, tag=tag):
                        if msg.type in ("error", "warning"):
                            problems.append(f"{tag}: console {msg.type}: {msg.text}")

                    def on_request(req, tag=tag):
                        u = urlparse(req.url)
                        if u.scheme in ("http", "https", "ws", "wss") and u.hostname != host:
                            problems.append(f"{tag}: off-host request {req.url}")

                    page.on("console", on_console)
                    page.on("pageerror", lambda e, tag=tag: problems.append(f"{tag}: page error {e}"))
                    page.on("request", on_request)
                    page.on("requestfailed", lambda r, tag=tag: problems.append(f"{tag}: failed {r.url} {r.failure}"))
                    page.on("response", lambda r, tag=tag: r.status >= 400 and problems.append(f"{tag}: HTTP {r.status} {r.url}"))
                    page.goto(base + path, wait_until="networkidle")
                    page.wait_for_timeout(600)
                    page.screenshot(path=str(out / f"{tag}.png"), full_page=True)
                    page.close()
                ctx.close()
        browser.close()
    for line in problems:
        print(line)
    print(f"{len(problems)} problems; screenshots in {out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
