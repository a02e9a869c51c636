"""Issue 24: existing addresses keep working when what they point at moves. Captures are published
gzip-compressed (<name>.pcap.gz) since the bytes-per-set work: a link to the uncompressed capture, the address
the file had before, opens the site's 404 page, which sends the reader on to the compressed file (assets/js/moved.js)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error

from test_site import Watched, browser, server, site  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.browser


def test_an_old_capture_address_leads_to_the_compressed_capture(site, server, browser):  # noqa: F811
    moved = sorted(p.relative_to(site).as_posix() for p in site.glob("results/*/data/**/*.pcap.gz"))
    assert moved, "no published capture in the examples"
    for new in moved[:2]:
        old = new.removesuffix(".gz")
        assert not (site / old).exists(), old
        w = Watched(browser, server)
        with w.page.expect_download(timeout=30_000) as download:
            try:  # the 404 page's script moves on before the page has loaded: wait for the answer only, then the download
                w.page.goto(f"{server}/{old}", wait_until="commit")
            except Error:  # the navigation ends in a download, not a page
                pass
        assert download.value.url == f"{server}/{new}", download.value.url
        w.close()
        # only the old address's 404, in the server's answer and in the console's words for it
        assert [p for p in w.problems if not p.endswith(f"/{old}") and "status of 404" not in p] == [], w.problems


def test_the_404_page_sends_nothing_else_on(site, server, browser):  # noqa: F811
    """A missing page, or a missing file of another kind, stays on the 404 page."""
    w = Watched(browser, server)
    for path in ("results/no-such-set/", "results/no-such-set/data/result.toml", "results/x/data/trace.pcap.gz"):
        page = w.goto(f"/{path}")
        assert page.url == f"{server}/{path}" and "Page not found" in page.inner_text("h1"), (path, page.url)
    w.close()
