"""The analysis notebooks' web pages: one page per notebook (notebooks/<name>.html at the site's root), its source as
every result set runs it: the method in prose, the DuckDB SQL, the formulas and the code that builds the tables and
charts. A set publishes its executed copy (results/<slug>/notebooks/<name>.ipynb, with that set's outputs) as a
download, not as a page of its own: the code, four fifths of such a page, is the same for every set (issue 24, bytes
per set).

A page's cells keep the ids the executed copies' cells have (system.reproducible.cell_id of the notebook's name and the
cell's place in the source, papermill's injected parameters not counted): a figure's explanation links the cell that
printed its table (catalog.explain.notebook_cells).

The pages share one stylesheet. nbconvert's lab template writes about 260 KB of CSS into every page (its layout, both
themes, the code highlighting), the same in each: the site keeps one copy, named by its content hash
(notebooks/style-<hash>.css, so a new nbconvert's styles get a new name and no browser keeps the old), and each page
links it.

A page follows the reader's theme as the site's pages do: the stylesheet holds the dark theme too, and a small script
shared the same way (notebooks/theme-<hash>.js, loaded before the stylesheet, so there is no flash) applies a theme the
reader chose on the site; without a choice the OS setting decides. It is a file of the site, not inline: the site's
Content-Security-Policy allows scripts from the site itself.

nbconvert takes about a second to start; a page is rendered again only when its source, nbconvert or this module
changed (kept in <build>/cache/notebook-pages/ under the hash of all three)."""

from __future__ import annotations

import functools
import hashlib
import re
import shutil
from html import escape
from urllib.parse import quote
from pathlib import Path
from typing import Any

from wirespeed.site import moved as moved_page
from wirespeed.system import atomic
from wirespeed.system.reproducible import cell_id

_STYLE = re.compile(r"<style[^>]*>(.*?)</style>\s*", re.S | re.I)
FOLDER = "notebooks"
# The reader's stored choice of theme (assets/js/theme.js keeps it under this key) set on <html> before the first paint.
THEME_JS = ('(function(){try{var t=localStorage.getItem("wirespeed-theme");'
            'if(t==="dark"||t==="light")document.documentElement.setAttribute("data-theme",t)}catch(e){}})();\n')


def _shared(static_root: Path, stem: str, suffix: str, text: str) -> str:
    """The name of a file shared by every notebook page (notebooks/<stem>-<hash><suffix>), written once."""
    name = f"{stem}-{hashlib.sha256(text.encode()).hexdigest()[:16]}{suffix}"
    shared = static_root / FOLDER / name
    if not shared.is_file():
        atomic.write_text(shared, text)
    return name


def share_styles(page: Path, static_root: Path) -> None:
    """Move the <style> blocks of the head of `page` (a file under static_root) into the shared stylesheet and link it."""
    html = page.read_text(encoding="utf-8")
    head_end = html.find("</head>")
    if head_end < 0:
        return
    head, rest = html[:head_end], html[head_end:]
    blocks = _STYLE.findall(head)
    if not blocks:
        return
    css = "\n".join(b.strip() for b in blocks) + "\n"
    up = Path(*[".."] * (len(page.relative_to(static_root).parts) - 1), FOLDER)
    href = (up / _shared(static_root, "style", ".css", css)).as_posix()
    script = (up / _shared(static_root, "theme", ".js", THEME_JS)).as_posix()
    first = _STYLE.search(head)
    head = (head[:first.start()] + f'<script src="{script}"></script>\n<link rel="stylesheet" href="{href}">\n'
            + _STYLE.sub("", head[first.start():]))
    atomic.write_text(page, head + rest)


class NotebookPageError(RuntimeError):
    """nbconvert's template lacks what a page needs."""


_CDN = re.compile(r"<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>|<link[^>]*\bhref=\"https?://[^\"]*\"[^>]*>", re.I)


@functools.cache
def _html_exporter() -> Any:
    """nbconvert's HTML exporter (lab template, no MathJax from a CDN), made once per process."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="lab")
    exporter.mathjax_url = ""
    return exporter


# The dark theme, for a reader whose site theme (or, without a choice of theirs, the OS setting) is dark: JupyterLab
# Dark's variables (the lab template's own theme-dark.css) where the site's dark theme applies (the site's theme
# choice is set on <html> by notebooks/theme-<hash>.js, loaded before the stylesheet), and the browser's own controls
# and scroll bars dark.
_DARK_WHERE = ('@media screen and (prefers-color-scheme: dark) {{ :root:not([data-theme="light"]) {{ {rules} }} }}\n'
               '@media screen {{ :root[data-theme="dark"] {{ {rules} }} }}\n')


@functools.cache
def _dark_theme() -> str:
    """The CSS of the notebook page's dark theme (see _DARK_WHERE)."""
    env = _html_exporter().environment
    css = env.loader.get_source(env, "static/theme-dark.css")[0]
    body = re.search(r":root\s*\{(.*)\}", css, re.S)
    if body is None:
        raise NotebookPageError("nbconvert's lab template has no :root block in static/theme-dark.css")
    return _DARK_WHERE.format(rules=body[1].strip() + "\n  color-scheme: dark;")


_HIGHLIGHTED = re.compile(r'(<div class="highlight[^"]*"><pre>)(.*?)(</pre>)', re.S)
# Pygments' token spans that look as plain code does: names (no rule for .n in the stylesheet), whitespace, empty spans
_PLAIN_TOKEN = re.compile(r'<span class="(?:n|w)">([^<]*)</span>|<span></span>')
_TOKEN = re.compile(r'<span class="([a-z0-9]+)">([^<]*)</span>|([^<]+)')


def _lean_code(code: str) -> str:
    """Pygments' spans of one code block, with a run of tokens of one class (a string over several lines, with
    only white space between) in one span."""
    out: list[list[str | None]] = []  # [class or None, text]
    for m in _TOKEN.finditer(_PLAIN_TOKEN.sub(r"\1", code)):
        cls, text = (m[1], m[2]) if m[1] else (None, m[3])
        if out and out[-1][0] == cls:
            out[-1][1] += text
        elif out and cls and len(out) > 1 and out[-1][0] is None and out[-1][1].isspace() and out[-2][0] == cls:
            ws = out.pop()[1]
            out[-1][1] += ws + text
        else:
            out.append([cls, text])
    return "".join(f'<span class="{c}">{t}</span>' if c else t for c, t in out)


def _plain_tokens(html: str) -> str:
    """The highlighted code without the spans that change nothing on screen (a third of a page's markup)."""
    return _HIGHLIGHTED.sub(lambda m: m[1] + _lean_code(m[2]) + m[3], html)




def _banner(name: str) -> str:
    """What the page is, above its first cell: the source every set runs, and where a set's executed copy is."""
    return ('<div class="jp-Cell jp-MarkdownCell jp-Notebook-cell"><div class="jp-Cell-inputWrapper">'
            '<div class="jp-Collapser jp-InputCollapser jp-Cell-inputCollapser"></div><div class="jp-InputArea jp-Cell-inputArea">'
            '<div class="jp-InputPrompt jp-InputArea-prompt"></div><div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput">'
            f'<p><a href="../">wirespeed</a> · analysis notebook <code>{escape(name)}</code>. This is its source, as every result set '
            'runs it over the catalog. Each set that uses it offers its executed copy, with that set\'s tables and charts, '
            f'as a download on the set\'s page (<code>{escape(name)}.ipynb</code>, to open in JupyterLab, VS Code or on GitHub).</p>'
            '</div></div></div></div>\n')


def source_page(notebook: Path) -> str:
    """Standalone HTML of a notebook's source (a jupytext .py file) that loads nothing from the internet."""
    import jupytext

    name = notebook.stem
    nb = jupytext.read(notebook)
    nb.metadata["title"] = f"{name}: wirespeed analysis notebook"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}
    for i, cell in enumerate(nb.cells):
        cell["id"] = cell_id(name, i)
    body, _ = _html_exporter().from_notebook_node(nb)
    body = body.replace("</head>", f'<style type="text/css">\n{_dark_theme()}</style>\n</head>', 1)
    body = _plain_tokens(_CDN.sub("", body))
    body = re.sub(r"<script[^>]*\bsrc=\"\"[^>]*>\s*</script>", "", body)
    body = re.sub(r"<link[^>]*\bhref=\"custom\.css\"[^>]*>", "", body)  # the template's optional user stylesheet
    # inline scripts that would fetch from a CDN (MathJax configuration, the mermaid loader)
    body = re.sub(r"<script[^>]*>(?:(?!</script>).)*?(?:https?://cdn|MathJax)(?:(?!</script>).)*</script>", "", body, flags=re.S)
    body = body.replace("<main>", "<main>\n" + _banner(name), 1)
    # no icon of its own: browsers would fetch /favicon.ico from the server root, outside a site under a path
    return body.replace("</head>", '<link rel="icon" href="data:,">\n</head>', 1)


def moved(name: str) -> str:
    """The page left at a set's old address of its notebook's page (results/<slug>/notebooks/<name>.html, before the
    notebooks had one page each): it sends the reader on to the notebook's page (site/moved.py)."""
    to = f"../../../{FOLDER}/{quote(name)}.html"
    return moved_page.page(to, f"{name}: wirespeed analysis notebook",
                           f'The page of the analysis notebook <a href="{escape(to)}">{escape(name)}</a> is now one for every set; '
                           f'this set\'s executed copy is <a href="{escape(quote(name))}.ipynb">{escape(name)}.ipynb</a>.')


def _key(notebook: Path) -> str:
    """What a rendered page depends on: the notebook's source, nbconvert's and jupytext's versions, this module."""
    from wirespeed.system.codehash import package_versions

    h = hashlib.sha256(notebook.read_bytes())
    h.update(repr(sorted(package_versions("nbconvert", "jupytext", "pygments").items())).encode())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()[:24]


def write_pages(notebooks: list[Path], static_root: Path, cache: Path) -> list[str]:
    """Each notebook's page as static_root/notebooks/<name>.html, its styles shared (share_styles); a page whose key is
    in `cache` is copied from it, else rendered and kept there. Entries no page used are removed. The names written."""
    names, kept = [], set()
    for nb in sorted(notebooks):
        key = f"{nb.stem}-{_key(nb)}.html"
        kept.add(key)
        cached = cache / key
        if not cached.is_file() or cached.is_symlink():
            atomic.write_text(cached, source_page(nb))
        page = static_root / FOLDER / f"{nb.stem}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cached, page)
        share_styles(page, static_root)
        names.append(nb.stem)
    if cache.is_dir():
        for old in cache.iterdir():
            if old.name not in kept:
                old.unlink() if not old.is_dir() or old.is_symlink() else shutil.rmtree(old, ignore_errors=True)
    return names
