"""The executed notebooks' web pages share one stylesheet. nbconvert's lab template writes about 260 KB of
CSS into every page (its layout, both themes, the code highlighting), the same in each: the site keeps one
copy, named by its content hash (notebooks/style-<hash>.css, so a new nbconvert's styles get a new name and
no browser keeps the old), and each page links it — 310 KB a page becomes about 50 KB."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from wirespeed.system import atomic

_STYLE = re.compile(r"<style[^>]*>(.*?)</style>\s*", re.S | re.I)
FOLDER = "notebooks"


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
    name = f"style-{hashlib.sha256(css.encode()).hexdigest()[:16]}.css"
    shared = static_root / FOLDER / name
    if not shared.is_file():
        atomic.write_text(shared, css)
    href = Path(*[".."] * (len(page.relative_to(static_root).parts) - 1), FOLDER, name).as_posix()
    first = _STYLE.search(head)
    head = head[:first.start()] + f'<link rel="stylesheet" href="{href}">\n' + _STYLE.sub("", head[first.start():])
    atomic.write_text(page, head + rest)
