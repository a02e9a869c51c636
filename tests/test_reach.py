"""Reach: the Atom feed of result sets, link previews (OpenGraph/Twitter) with a generated image per set,
and the Pagefind site search, built by `wirespeed site` and driven in Chromium."""

from __future__ import annotations

import re
import struct
import threading
import xml.etree.ElementTree as ET
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT, example_folders

from pipeline import BUILD, PUBLIC, WORK, build
from test_base_url import pipeline_lock
from test_site import Watched, browser, wait_for  # noqa: F401  (the suite's one Chromium fixture)
from wirespeed.system import rangeserver

ATOM = "{http://www.w3.org/2005/Atom}"
BASE = "https://bench.example.org/wirespeed/"


@pytest.fixture(scope="module")
def hosted(tmp_path_factory):
    """The site built for an absolute base URL, as publish.yml builds it for GitHub Pages."""
    from wirespeed.system import hugo

    build("reports")
    out = tmp_path_factory.mktemp("hosted") / "public"
    with pipeline_lock():
        hugo.build(root=WORK, destination=out, base_url=BASE)
    return out


def sets() -> list[str]:
    import json

    return json.loads((BUILD / "hugo-data" / "wirespeed" / "build.json").read_text())["sets"]


def test_atom_feed_is_valid_with_one_entry_per_set_and_absolute_links(hosted):
    root = ET.parse(hosted / "feed.xml").getroot()
    assert root.tag == f"{ATOM}feed"
    for child in ("title", "id", "updated", "author"):
        assert root.find(f"{ATOM}{child}") is not None, child
    assert root.find(f"{ATOM}link[@rel='self']").get("href") == BASE + "feed.xml"
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == len(sets()) == len(example_folders(None))
    ids = set()
    for e in entries:
        ids.add(e.findtext(f"{ATOM}id"))
        assert e.findtext(f"{ATOM}title")
        datetime.fromisoformat(e.findtext(f"{ATOM}updated").replace("Z", "+00:00"))  # RFC 3339
        href = e.find(f"{ATOM}link[@rel='alternate']").get("href")
        assert href.startswith(BASE + "results/") and urlparse(href).scheme == "https"
        assert (hosted / urlparse(href).path.removeprefix("/wirespeed/") / "index.html").is_file()
    assert len(ids) == len(example_folders(None)) and all(i.startswith("tag:wirespeed,") for i in ids)
    dates = [e.findtext(f"{ATOM}updated") for e in entries]
    assert dates == sorted(dates, reverse=True) and root.findtext(f"{ATOM}updated") == dates[0]  # newest first


class _Meta(HTMLParser):
    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and (a.get("property") or a.get("name")):
            self.meta[a.get("property") or a.get("name")] = a.get("content", "")
        if tag == "link":
            self.links.append(a)


def _png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_set_pages_have_link_previews_with_absolute_image_urls(hosted):
    for slug in sets():
        p = _Meta()
        p.feed((hosted / "results" / slug / "index.html").read_text())
        m = p.meta
        assert m["og:type"] == "article" and m["twitter:card"] == "summary_large_image"
        assert m["og:url"] == f"{BASE}results/{slug}/"
        assert m["og:image"] == f"{BASE}results/{slug}/preview.png"
        assert not any(k.startswith("twitter:") and k != "twitter:card" for k in m)  # X reads the OpenGraph tags
        assert m["og:title"] and m["og:description"] and m["og:image:alt"].startswith(m["og:title"].split(":")[0][:20])
        assert _png_size(hosted / "results" / slug / "preview.png") == (1200, 630)
        assert any(l.get("type") == "application/atom+xml" and l.get("href") == "/wirespeed/feed.xml" for l in p.links)


@pytest.mark.slow
def test_preview_image_is_deterministic_and_cached(tmp_path):
    import io
    import json

    from PIL import Image

    from wirespeed.presentation import preview

    build("site-data")

    data = json.loads((BUILD / "hugo-data" / "wirespeed" / "sets" / "cisco-nexus-9516-128x100g-2015.json").read_text())
    a = preview.render(data, tmp_path / "a.png", tmp_path / "cache1")
    b = preview.render(data, tmp_path / "b.png", tmp_path / "cache2")
    assert a.read_bytes() == b.read_bytes()
    assert len(list((tmp_path / "cache1").glob("*.png"))) == 1
    assert a.read_bytes() == (BUILD / "site-static" / "results" / "cisco-nexus-9516-128x100g-2015" / "preview.png").read_bytes()
    im = Image.open(io.BytesIO(a.read_bytes()))
    assert im.mode == "P" and im.size == (1200, 630) and len(a.read_bytes()) < 60_000
    _check_card(preview, data)


def _check_card(preview, data):
    """What a card shows: every line inside the margins, no two lines' ink boxes meeting, ink only where a line is
    and in every line, and its colours exact where a glyph covers a pixel fully (the title's dark grey, the
    figures' blue, when there are figures) and white elsewhere."""
    import numpy as np

    card = preview.lines(data)
    boxes = [preview.box(line) for line in card]
    for line, (left, top, right, bottom) in zip(card, boxes):
        assert left >= preview.MARGIN - 5 and right <= preview.WIDTH - preview.MARGIN and top >= 0 and bottom <= preview.HEIGHT, (line, left, right)
    for i, (_, t1, _, b1) in enumerate(boxes):
        for _, t2, _, b2 in boxes[i + 1:]:
            assert b1 <= t2 or b2 <= t1, (card[i], t1, b1, t2, b2)
    im = preview.draw(card)
    rgb = np.asarray(im.convert("RGB"))
    ink = (rgb != 255).any(axis=2)
    inside = np.zeros_like(ink)
    for left, top, right, bottom in boxes:
        inside[top:bottom, left:right] = True
        assert ink[top:bottom, left:right].any()
    assert not (ink & ~inside).any(), "ink outside every line"
    packed = np.unique((rgb[..., 0].astype(np.uint32) << 16) | (rgb[..., 1].astype(np.uint32) << 8) | rgb[..., 2])
    colours = {int(c) for c in packed}
    assert 0xFFFFFF in colours and 0x1B1D1F in colours
    assert (0x0A58CA in colours) == bool(data.get("headlines"))
    assert len(colours) <= 256


@pytest.mark.parametrize("case", ["long words", "long title", "many cards", "no headlines"])
def test_a_card_keeps_any_text_inside_its_margins(case):
    """A title of one endless word, a title too long for three lines, long device names and contexts, more headline
    cards than fit, and none: each line is cut to the width (with "…" when cut), the title has at most three lines."""
    from wirespeed.presentation import preview

    card = {"title": "Cisco Nexus 9516 with 128 ports of 100GbE, RFC 2544 throughput, latency and frame loss",
            "dut": {"vendor": "Cisco", "model": "Nexus 9516"},
            "headlines": [{"title": "Throughput", "context": "IPv4 unicast, 64-byte frames, full mesh",
                           "figures": [{"text": "1,024", "unit": "Mframes/s"}, {"text": "100.0", "unit": "% of line rate"}]}]}
    if case == "long words":
        card |= {"title": "W" * 300, "dut": {"vendor": "M" * 200, "model": "x"}}
        card["headlines"][0]["context"] = "W" * 300
    elif case == "long title":
        card["title"] = " ".join(["Forwarding"] * 60)
    elif case == "many cards":
        card["headlines"] = card["headlines"] * 6
    else:
        card["headlines"] = []
    lines = preview.lines(card)
    title = [line for line in lines if line.size == 40]
    assert 1 <= len(title) <= 3
    if case in ("long words", "long title"):
        assert title[-1].text.endswith("…")
    _check_card(preview, card)
    for line in lines:
        assert preview.box(line)[2] <= preview.WIDTH - preview.MARGIN, line


@pytest.fixture(scope="module")
def served():
    build("site")

    httpd = rangeserver.server(str(PUBLIC), port=0, quiet=True)  # the server `wirespeed serve` runs
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _fragments(folder: Path) -> list[dict]:
    """The records of a Pagefind index in `folder`, one a page it indexed (its fragments: gzip, a 12-byte mark, then
    JSON with the page's url and the text Pagefind keeps)."""
    import gzip
    import json

    out = []
    for f in (folder / "fragment").glob("*.pf_fragment"):
        raw = gzip.decompress(f.read_bytes())
        assert raw[:12] == b"pagefind_dcd", f
        out.append(json.loads(raw[12:]))
    return out


def _indexed_pages() -> dict[str, str]:
    """The text Pagefind keeps for each page of the session's site."""
    return {r["url"]: r["content"] for r in _fragments(PUBLIC / "pagefind")}


@pytest.mark.slow
def test_the_search_index_holds_a_pages_words_not_its_tables_or_charts():
    """Pagefind's memory grows with what it indexes (bench/README.md): the tables' cells and the charts' alt text and
    data are left out, the words that find a page (title, device, setup, prose) stay."""
    build("site")
    pages = _indexed_pages()
    nexus = pages["/results/cisco-nexus-9516-128x100g-2015/"]
    assert "Cisco Nexus 9516" in nexus and "Device under test" in nexus
    page = (PUBLIC / "results" / "cisco-nexus-9516-128x100g-2015" / "index.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(page, "lxml")  # parsed: the minifier leaves out optional end tags (</td>)
    figures = {c.get_text() for c in soup.find_all("td") if len(re.sub(r"\D", "", c.get_text())) >= 5}
    alts = [img["alt"] for img in soup.select("img.chart-static[alt]") if len(img["alt"]) >= 40]
    assert len(figures) > 100 and alts
    assert not any(a[:60] in nexus for a in alts)
    # every one of the 169 was in the index before; the prose quotes a few (3 today)
    assert sum(f in nexus for f in figures) < len(figures) / 10, sorted(f for f in figures if f in nexus)


@pytest.mark.browser
def test_pagefind_search_finds_a_device_under_the_csp(served, browser):  # noqa: F811
    assert (PUBLIC / "pagefind" / "pagefind.js").is_file()
    assert list((PUBLIC / "pagefind").glob("index/*.pf_index"))
    w = Watched(browser, served, viewport=(390, 844))
    page = w.goto("/search/?q=Nexus%209516")
    page.wait_for_selector("#search-results li a", timeout=30000)
    hrefs = page.eval_on_selector_all("#search-results li a", "els => els.map(e => e.getAttribute('href'))")
    assert any("/results/cisco-nexus-9516-128x100g-2015/" in h for h in hrefs), hrefs
    assert "found for" in page.inner_text("#search-status")
    page.fill("#search-q", "Catalyst")
    page.click("button[type=submit]")
    wait_for(page, "[...document.querySelectorAll('#search-results li a')].some(a => a.getAttribute('href').includes('catalyst-6500'))", 30)
    assert "q=Catalyst" in page.url
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    w.close()
    assert not w.problems, "\n".join(w.problems)  # a CSP violation is a console error


@pytest.mark.browser
def test_a_search_index_in_slices_answers_as_one(served, browser, tmp_path):  # noqa: F811
    """A large archive's sets are indexed in slices (wirespeed/system/search.py); forced here at 10 sets a slice over a
    copy of the built site: the slices and the main index hold every page once, as the single index does, and the
    search page finds sets of the first and the last slice, with no failed request or console error."""
    import json
    import shutil

    from wirespeed.system import rangeserver as rs, search

    site = tmp_path / "public"
    shutil.copytree(PUBLIC, site)
    shutil.rmtree(site / "pagefind")
    search.index(site, ROOT, slice_sets=10)
    folders = json.loads((site / "pagefind" / "slices.json").read_text(encoding="utf-8"))
    assert folders == ["slice-1/", "slice-2/", "slice-3/"]  # the 28 examples, 10 a slice

    def urls(folder):
        return [r["url"] for r in _fragments(folder)]

    parts = [urls(site / "pagefind")] + [urls(site / "pagefind" / f) for f in folders]
    merged = [u for part in parts for u in part]
    assert sorted(merged) == sorted(urls(PUBLIC / "pagefind")) and len(set(merged)) == len(merged)
    assert not any(u.startswith("/results/") and u.count("/") > 2 for u in parts[0])  # the sets' pages are in the slices
    assert json.loads((PUBLIC / "pagefind" / "slices.json").read_text(encoding="utf-8")) == []  # 28 sets: one index

    httpd = rs.server(str(site), port=0, quiet=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        w = Watched(browser, f"http://127.0.0.1:{httpd.server_address[1]}", viewport=(1366, 844))
        for q, slug in (("Catalyst", "cisco-catalyst-6500-vss-2008"), ("capture", "linux-netns-udp-capture-2026-11")):
            page = w.goto(f"/search/?q={q}")
            wait_for(page, f"[...document.querySelectorAll('#search-results li a')].some(a => a.getAttribute('href').includes('{slug}'))", 30)
        w.close()
    finally:
        httpd.shutdown()
    assert not w.problems, "\n".join(w.problems)


@pytest.mark.browser
def test_a_link_to_a_collapsed_scenario_opens_it(served, browser):  # noqa: F811
    w = Watched(browser, served)
    page = w.goto("/results/cisco-nexus-9516-128x100g-2015/")
    assert page.locator("details.scenario").count() == 7
    assert page.evaluate("document.documentElement.scrollHeight") < 8000  # collapsed: not 26,000 px
    assert not page.evaluate("document.getElementById('ipv6-unicast').open")
    link = page.locator(".scenario-overview a[href='#ipv6-unicast']")
    assert link.count() == 1 and link.is_visible()
    # the link followed as a reader's click follows it (a DOM click: the same navigation to the fragment, without
    # Playwright's pointer aim, which a sticky header or a late layout shift can send elsewhere on a busy machine)
    page.evaluate("document.querySelector(\".scenario-overview a[href='#ipv6-unicast']\").click()")
    wait_for(page, "location.hash === '#ipv6-unicast' && document.getElementById('ipv6-unicast').open", 30)
    w.close()
    assert not w.problems, "\n".join(w.problems)


