"""Issue 24 (bytes per set): the executed notebooks' pages link one shared stylesheet (named by its content hash)
instead of each carrying nbconvert's 260 KB of CSS, and still show every cell; and they follow the reader's theme,
light or dark, as the site's pages do."""

from __future__ import annotations

import re

import pytest

from pipeline import PUBLIC, build
from test_site import Watched, browser, server, site  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.slow


def test_notebook_pages_share_one_stylesheet():
    build("site")
    pages = sorted(PUBLIC.glob("results/*/notebooks/*.html"))
    assert len(pages) >= 28
    sheets = set()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        head = html[:html.index("</head>")]
        assert "<style" not in head, page
        (href,) = re.findall(r'<link rel="stylesheet" href="([^"]+)">', head)
        assert href.startswith("../../../notebooks/style-") and href.endswith(".css"), href
        assert (page.parent / href).resolve().is_file(), href
        sheets.add(href)
        assert 'class="jp-Cell' in html, page
    assert len(sheets) == 1  # one stylesheet for every notebook page
    css = (pages[0].parent / sheets.pop()).resolve().read_text(encoding="utf-8")
    assert ".jp-Cell" in css and "--jp-" in css and ".highlight" in css  # the lab layout, its theme variables and the code colours


def test_notebook_pages_carry_the_dark_theme_and_the_readers_choice():
    """The shared stylesheet holds JupyterLab Dark's variables where the site's dark theme applies (the OS setting
    without a choice, or the reader's choice on the site), and every page loads the shared theme script before it."""
    build("site")
    pages = sorted(PUBLIC.glob("results/*/notebooks/*.html"))
    scripts, sheets = set(), set()
    for page in pages:
        head = page.read_text(encoding="utf-8").split("</head>")[0]
        sheets |= {(page.parent / h).resolve() for h in re.findall(r'<link rel="stylesheet" href="([^"]+)">', head)}
        (src,) = re.findall(r'<script src="([^"]+)"></script>', head)
        assert src.startswith("../../../notebooks/theme-") and src.endswith(".js"), src
        assert head.index(src) < head.index('rel="stylesheet"'), page  # the choice applies before the first paint
        scripts.add((page.parent / src).resolve())
    (script,) = scripts
    assert 'localStorage.getItem("wirespeed-theme")' in script.read_text(encoding="utf-8")
    (sheet,) = sheets
    css = sheet.read_text(encoding="utf-8")
    for where in ('@media screen and (prefers-color-scheme: dark) { :root:not([data-theme="light"]) {', ':root[data-theme="dark"] {'):
        block = css[css.index(where):]
        block = block[:block.index("}")]
        assert "--jp-layout-color0:" in block and "color-scheme: dark" in block, where
    assert 'img[src^="../charts/"] { filter: invert(1) hue-rotate(180deg); }' in css


@pytest.mark.browser
@pytest.mark.parametrize("scheme, stored, dark", [("dark", None, True), ("light", None, False), ("light", "dark", True), ("dark", "light", False)])
def test_a_notebook_page_follows_the_readers_theme(site, server, browser, scheme, stored, dark):  # noqa: F811
    """Opened in Chromium, a notebook page is dark under the dark OS setting or a stored dark choice, light otherwise."""
    w = Watched(browser, server, (1000, 900), scheme)
    path = "/" + sorted(PUBLIC.glob("results/*/notebooks/throughput.html"))[0].relative_to(PUBLIC).as_posix()
    page = w.goto(path)
    if stored:
        page.evaluate(f"localStorage.setItem('wirespeed-theme', '{stored}')")
        page = w.goto(path)
    rgb = [int(v) for v in re.findall(r"\d+", page.evaluate("getComputedStyle(document.body).backgroundColor"))[:3]]
    text = [int(v) for v in re.findall(r"\d+", page.evaluate("getComputedStyle(document.querySelector('.jp-RenderedMarkdown') || document.body).color"))[:3]]
    w.close()
    assert (sum(rgb) < 150) == dark and (sum(text) > 450) == dark, (rgb, text)
    assert not w.problems, w.problems
