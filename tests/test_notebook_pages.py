"""Issue 24 (bytes per set): each analysis notebook has one web page, of its source (notebooks/<name>.html at the site's
root); a set publishes its executed copy as a download (results/<slug>/notebooks/<name>.ipynb), not as a page of its
own. The pages link one shared stylesheet (named by its content hash) instead of each carrying nbconvert's 260 KB of
CSS, follow the reader's theme as the site's pages do, and keep the cell ids a figure's explanation links."""

from __future__ import annotations

import html as htmllib
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from pipeline import BUILD, PUBLIC, ROOT, build
from test_site import Watched, browser, server, site  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.slow  # nbconvert starts pandoc
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))


def test_one_page_per_notebook_sharing_one_stylesheet():
    build("site")
    pages = sorted((PUBLIC / "notebooks").glob("*.html"))
    assert [p.stem for p in pages] == [n.stem for n in NOTEBOOKS]
    for old in PUBLIC.glob("results/*/notebooks/*.html"):  # no set has a page of its own: its old address sends the reader on
        assert f'<meta http-equiv="refresh" content="0; url=../../../notebooks/{old.stem}.html">' in old.read_text(encoding="utf-8"), old
        assert old.stat().st_size < 1000 and (PUBLIC / "notebooks" / old.name).is_file() and old.with_suffix(".ipynb").is_file(), old
    assert len(list(PUBLIC.glob("results/*/notebooks/*.ipynb"))) >= 28
    sheets = set()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        head = html[:html.index("</head>")]
        assert "<style" not in head, page
        (href,) = re.findall(r'<link rel="stylesheet" href="([^"]+)">', head)
        assert href.startswith("../notebooks/style-") and href.endswith(".css"), href
        assert (page.parent / href).resolve().is_file(), href
        sheets.add(href)
        assert not re.search(r'(?:src|href)="https?://', html), page  # loads nothing from the internet
        assert 'class="jp-Cell' in html and 'class="highlight' in html, page
        assert f"<code>{page.stem}.ipynb</code>" in html, page  # says where a set's executed copy is
        assert 'class="jp-OutputArea' not in html, page  # the source: no set's outputs
    assert len(sheets) == 1  # one stylesheet for every notebook page
    css = (pages[0].parent / sheets.pop()).resolve().read_text(encoding="utf-8")
    assert ".jp-Cell" in css and "--jp-" in css and ".highlight" in css  # the lab layout, its theme variables and the code colours


def test_every_link_to_a_notebook_lands_on_its_page_and_cell():
    """The tables' "computed in" links and the explanation pages' notebook cells name a page that exists, and a cell of
    it whose code prints that table; the executed copy each table names is the set's download."""
    build("site")
    cells = links = 0
    for page in sorted(PUBLIC.glob("results/*/**/index.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "lxml")  # parsed: the minifier leaves a plain URL unquoted
        hrefs = [a["href"] for a in soup.find_all("a", href=True)]
        for href in [h for h in hrefs if re.search(r"/notebooks/[^#]+\.(?:html|ipynb)(?:#|$)", h)]:
            path, _, fragment = href.partition("#")
            target = (page.parent / path).resolve() if not path.startswith("/") else PUBLIC / path.lstrip("/")
            assert target.is_file(), (page, href)
            links += 1
            if fragment:
                assert fragment.startswith("cell-id="), href
                nb = target.read_text(encoding="utf-8")
                cell = nb[nb.index(f'id="{fragment}"'):]
                cell = cell[:cell.index('<div class="jp-Cell ', 10)] if '<div class="jp-Cell ' in cell[10:] else cell
                assert 'class="highlight' in cell, (page, href)  # a code cell
                cells += 1
    assert links > 100 and cells > 50, (links, cells)


def test_explained_cells_are_the_cells_that_print_the_tables():
    """A figure's notebook cell (explain.json) is, in the set's executed copy with papermill's parameters left out, the
    code cell of that number whose output names the figure's table."""
    build("site")
    checked = 0
    for explain in sorted((BUILD / "site-static" / "results").glob("*/explain.json")):
        records = json.loads(explain.read_text(encoding="utf-8"))
        slug = explain.parent.name
        for table, nb in records["notebooks"].items():
            ipynb = json.loads((PUBLIC / "results" / slug / "notebooks" / f"{nb['name']}.ipynb").read_text(encoding="utf-8"))
            code = [c for c in ipynb["cells"] if c["cell_type"] == "code" and "injected-parameters" not in c["metadata"].get("tags", [])]
            printed = "".join("".join(o.get("data", {}).get("text/plain", "")) for o in code[nb["cell"] - 1].get("outputs", []))
            assert f"<wirespeed table {table}>" in printed, (slug, table, nb)
            assert nb["url"] == f"notebooks/{nb['name']}.html#cell-id={nb['id']}", nb
            checked += 1
    assert checked > 20, checked


def test_notebook_pages_carry_the_dark_theme_and_the_readers_choice():
    """The shared stylesheet holds JupyterLab Dark's variables where the site's dark theme applies (the OS setting
    without a choice, or the reader's choice on the site), and every page loads the shared theme script before it."""
    build("site")
    pages = sorted((PUBLIC / "notebooks").glob("*.html"))
    scripts, sheets = set(), set()
    for page in pages:
        head = page.read_text(encoding="utf-8").split("</head>")[0]
        sheets |= {(page.parent / h).resolve() for h in re.findall(r'<link rel="stylesheet" href="([^"]+)">', head)}
        (src,) = re.findall(r'<script src="([^"]+)"></script>', head)
        assert src.startswith("../notebooks/theme-") and src.endswith(".js"), src
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


@pytest.mark.browser
@pytest.mark.parametrize("scheme, stored, dark", [("dark", None, True), ("light", None, False), ("light", "dark", True), ("dark", "light", False)])
def test_a_notebook_page_follows_the_readers_theme(site, server, browser, scheme, stored, dark):  # noqa: F811
    """Opened in Chromium, a notebook page is dark under the dark OS setting or a stored dark choice, light otherwise."""
    w = Watched(browser, server, (1000, 900), scheme)
    path = "/notebooks/throughput.html"
    page = w.goto(path)
    if stored:
        page.evaluate(f"localStorage.setItem('wirespeed-theme', '{stored}')")
        page = w.goto(path)
    rgb = [int(v) for v in re.findall(r"\d+", page.evaluate("getComputedStyle(document.body).backgroundColor"))[:3]]
    text = [int(v) for v in re.findall(r"\d+", page.evaluate("getComputedStyle(document.querySelector('.jp-RenderedMarkdown') || document.body).color"))[:3]]
    w.close()
    assert (sum(rgb) < 150) == dark and (sum(text) > 450) == dark, (rgb, text)
    assert not w.problems, w.problems


@pytest.mark.browser
def test_a_sets_old_notebook_address_leads_to_the_notebooks_page(site, server, browser):  # noqa: F811
    """Issue 24: existing URLs keep working when pages move. A set's old notebook page address opens the notebook's page."""
    w = Watched(browser, server, (1000, 900), "light")
    old = sorted(PUBLIC.glob("results/*/notebooks/throughput.html"))[0]
    page = w.page
    page.goto(w.base + "/" + old.relative_to(PUBLIC).as_posix(), wait_until="commit")
    page.wait_for_url(lambda u: "/results/" not in u, timeout=10_000)  # the refresh has taken the reader on
    page.wait_for_load_state("load")
    assert page.url.endswith("/notebooks/throughput.html") and "/results/" not in page.url, page.url
    assert page.locator(".jp-Cell").count() > 5
    w.close()
    assert not w.problems, w.problems


def test_page_code_keeps_its_text_and_colours(tmp_path: Path):
    """The spans left out of highlighted code are those nbconvert's stylesheet gives no look of their own (names, white
    space); a run of one token class is one span; the code reads exactly as written."""
    from wirespeed.site.notebook_pages import source_page

    code = 'rows = con.execute("""\nSELECT a, b\nFROM t\n""").fetchall()  # the rows\nprint(len(rows), rows[0].a)'
    source = tmp_path / "x.py"
    source.write_text("# %% [markdown]\n# # A title\n\n# %%\n" + code + "\n", encoding="utf-8")
    page = source_page(source)
    (block,) = re.findall(r'<div class="highlight[^"]*"><pre>(.*?)</pre>', page, re.S)
    assert htmllib.unescape(re.sub(r"<[^>]+>", "", block)).rstrip("\n") == code
    assert '<span class="n">' not in block and '<span class="w">' not in block and "<span></span>" not in block
    assert '<span class="s2">"""\nSELECT a, b\nFROM t\n"""</span>' in block  # one span for the string over its lines
    assert '<span class="c1"># the rows</span>' in block and '<span class="nb">print</span>' in block
    css = "".join(re.findall(r"<style[^>]*>(.*?)</style>", page, re.S))
    assert ".highlight .s2 {" in css and not re.search(r"\.highlight \.n\s*\{", css)  # names look as plain code does
    assert re.search(r"\.highlight \.w \{ color: [^;}]*\}", css)  # white space: a colour only


def test_pages_are_rendered_again_only_when_their_source_changes(tmp_path: Path, monkeypatch):
    """write_pages keeps each rendered page under the hash of its source (and nbconvert's version and its own code): an
    unchanged source is copied from the cache, a changed one rendered again, and an entry no page uses is removed."""
    from wirespeed.site import notebook_pages

    nbs = tmp_path / "notebooks"
    nbs.mkdir()
    (nbs / "a.py").write_text("# %%\nx = 1\n", encoding="utf-8")
    (nbs / "b.py").write_text("# %%\ny = 2\n", encoding="utf-8")
    rendered: list[str] = []
    real = notebook_pages.source_page
    monkeypatch.setattr(notebook_pages, "source_page", lambda p: (rendered.append(p.stem), real(p))[1])
    cache, static = tmp_path / "cache", tmp_path / "static"
    assert notebook_pages.write_pages(sorted(nbs.glob("*.py")), static, cache) == ["a", "b"]
    assert rendered == ["a", "b"]
    first = (static / "notebooks" / "a.html").read_text(encoding="utf-8")
    assert "x</span> <span class=\"o\">=</span>" in first or "x <span" in first
    static2 = tmp_path / "static2"
    assert notebook_pages.write_pages(sorted(nbs.glob("*.py")), static2, cache) == ["a", "b"]
    assert rendered == ["a", "b"]  # both from the cache
    assert (static2 / "notebooks" / "a.html").read_text(encoding="utf-8") == first
    assert len(list((static2 / "notebooks").glob("style-*.css"))) == 1
    (nbs / "a.py").write_text("# %%\nx = 3\n", encoding="utf-8")
    notebook_pages.write_pages(sorted(nbs.glob("*.py")), tmp_path / "static3", cache)
    assert rendered == ["a", "b", "a"]
    assert len(list(cache.glob("a-*.html"))) == 1  # the old rendering of a is gone
