"""The executed notebooks' web pages share one stylesheet. nbconvert's lab template writes about 260 KB of
CSS into every page (its layout, both themes, the code highlighting), the same in each: the site keeps one
copy, named by its content hash (notebooks/style-<hash>.css, so a new nbconvert's styles get a new name and
no browser keeps the old), and each page links it — 310 KB a page becomes about 50 KB.

A page follows the reader's theme as the site's pages do: the stylesheet holds the dark theme too (analysis.run's
html_export adds it), and a small script shared the same way (notebooks/theme-<hash>.js, loaded before the
stylesheet, so there is no flash) applies a theme the reader chose on the site; without a choice the OS setting decides.
It is a file of the site, not inline: the site's Content-Security-Policy allows scripts from the site itself."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from wirespeed.system import atomic

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
