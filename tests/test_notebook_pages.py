"""Issue 24 (bytes per set): the executed notebooks' pages link one shared stylesheet (named by its content hash)
instead of each carrying nbconvert's 260 KB of CSS, and still show every cell."""

from __future__ import annotations

import re

import pytest

from pipeline import PUBLIC, build

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
