"""The pages of sets imported from real tool outputs (the session's real-files build, tests/realbuild.py) on a phone:
the examples' page walk (tests/test_page_walk_browser.py) never sees what a real tool names its files, and a set page
listing "native/sonicpins_ixnetwork_rest_traffic_item_stats_view9_data.json" among its downloads was 600 px wide at
390, and every one of them printed an empty "Notes" section. One set of each importer: its set page and its
explanation page, every section open, at 390 px: nothing wider than the screen, no unit broken, no empty section."""

from __future__ import annotations

import threading

import pytest

import realbuild
from test_page_walk_browser import BROKEN_UNITS, EMPTY_SECTIONS, WIDER
from test_site import chromium

pytestmark = pytest.mark.browser

WIDTH = 390
OPEN = "document.querySelectorAll('details').forEach(d => { d.open = true; })"


def one_set_per_importer(slugs: list[str], chosen: dict[str, str]) -> list[str]:
    """The first set (by slug) of each importer `import auto` chose for the real files."""
    import realsets

    by_importer: dict[str, str] = {}
    for rel, importer in sorted(chosen.items()):
        slug = realsets.slug_of(realsets.REAL / rel)
        if slug in slugs:
            by_importer[importer] = min(slug, by_importer.get(importer, slug))
    return sorted(by_importer.values())


def test_real_sets_pages_fit_a_phone_screen():
    from wirespeed.system.rangeserver import server as range_server

    w, slugs, _refused, chosen = realbuild.build()
    picked = one_set_per_importer(slugs, chosen)
    assert len(picked) >= 8, picked  # NFVbench, CSIT, Spirent, IxNetwork, iperf3, T-Rex, pcaps, ...
    httpd = range_server(str(w / "public"), port=0, quiet=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    faults = []
    try:
        with chromium() as browser:
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            for slug in picked:
                for path in (f"/results/{slug}/", f"/results/{slug}/explain/"):
                    response = page.goto(base + path)
                    assert response is not None and response.ok, path
                    page.evaluate(OPEN)
                    if (wider := page.evaluate(WIDER)) > 1:
                        faults.append(f"{path}: {wider} px wider than the screen")
                    faults += [f"{path}: unit {u!r} broken across lines" for u in page.evaluate(BROKEN_UNITS)]
                    faults += [f"{path}: section {e!r} holds only its heading" for e in page.evaluate(EMPTY_SECTIONS)]
    finally:
        httpd.shutdown()
    assert not faults, "\n".join(faults)
