"""Where the Chromium that drives the browser tests is: one lookup for every test and script.

Debian ships Chromium as a package (`/usr/bin/chromium`); Ubuntu only as a snap, whose
`chromium-browser` wrapper cannot run on CI runners or in containers, so there the lookup falls
back to Google Chrome (GitHub's ubuntu-24.04 runners ship `/usr/bin/google-chrome`) or to the
Chromium Playwright downloads (`python -m playwright install --with-deps chromium`).

    python -m wirespeed.system.browser     # prints the executable, or one line saying why there is none
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ENV = "WIRESPEED_CHROMIUM"
FIXED = ("/usr/bin/chromium", "/usr/bin/google-chrome")
ON_PATH = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class BrowserNotFound(RuntimeError):
    """No usable Chromium: the message lists what was looked at and how to get one."""


def _runnable(path: str | Path) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _is_snap(path: str | Path) -> bool:
    """Ubuntu's `chromium-browser` (and a `chromium` symlink into /snap) only start the snap."""
    real = os.path.realpath(path)
    if real.startswith("/snap/") or os.path.basename(real) == "snap":
        return True
    try:
        with open(real, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith(b"#!") and b"/snap/" in head


def _playwright_chromium() -> str | None:
    """The Chromium `playwright install chromium` put in its cache, if any."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as p:
        path = p.chromium.executable_path
    return path if path and _runnable(path) else None


def chromium_executable() -> str:
    """The browser executable: $WIRESPEED_CHROMIUM, then /usr/bin/chromium, /usr/bin/google-chrome,
    chromium, chromium-browser or google-chrome on PATH (not a snap wrapper), then Playwright's own."""
    chosen = os.environ.get(ENV)
    if chosen:
        if not _runnable(chosen):
            raise BrowserNotFound(f"{ENV}={chosen}: not an executable file")
        return chosen
    candidates = [*FIXED, *(shutil.which(name) for name in ON_PATH)]
    for path in candidates:
        if path and _runnable(path) and not _is_snap(path):
            return path
    bundled = _playwright_chromium()
    if bundled:
        return bundled
    raise BrowserNotFound(
        f"no Chromium found (looked at ${ENV}, {', '.join(FIXED)}, {', '.join(ON_PATH)} on PATH except snap "
        "wrappers, and Playwright's browsers): `make test` installs one (Debian: apt chromium; Ubuntu: "
        "`python -m playwright install --with-deps chromium` when Google Chrome is absent), or set "
        f"{ENV} to a Chromium or Chrome executable")


def main() -> int:
    try:
        print(chromium_executable())
    except BrowserNotFound as e:
        print(f"wirespeed: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
