"""A chart's drawings, drawn by vl-convert from its Vega-Lite spec, and kept by that spec's hash.

Two drawings per chart: the static SVG (shown by the notebook, by the page until Vega has drawn, and the source of the
PDF the report draws for itself: report/chart_pdf.py) and the Vega spec the page renders (web.py: compiled for the
container's width). Drawing them is most of a notebook run's time (vl-convert: about 0.07 s a chart), and a notebook runs again
whenever its source or the code it imports changes, while most of its charts stay the same spec. So the drawings are
kept in a cache folder (build/cache/charts/, named to the notebook's kernel by WIRESPEED_CHART_CACHE) under the hash of
what decides their bytes: the spec, vl-convert's version and the source of the code that draws (this module, web.py
and presentation/svgtree.py). A chart whose key is there is not drawn again; without the variable nothing is kept.

The cache never decides an output: an entry is used only when every file is a regular file of bounded size whose
SHA-256 is the one written beside it (sums.json), and anything else (missing, altered, a link, unreadable) is drawn
afresh and written over. An entry appears whole (written in a temporary folder, then renamed), and one that cannot be
written changes nothing but the next run's time. `prune` keeps the entries the analysis outputs name (outputs.json,
"drawings") and removes the others.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wirespeed.presentation import svgtree
from wirespeed.presentation.charts import web
from wirespeed.system import atomic, codehash, shardcache

CACHE_ENV = "WIRESPEED_CHART_CACHE"
FORMAT = 2  # the layout of an entry: raise it when the files or their meaning change (2: no PDF, the report draws it)
MAX_BYTES = 32 * 1024 * 1024  # a file larger than this is not read (a chart's drawings are tens of kilobytes)
SVG, WEB, SUMS = "chart.svg", "web.vg.json", "sums.json"
_KEY = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Drawing:
    """The drawings of one chart and the key they are kept under."""

    key: str
    svg: str
    web: str  # the page's Vega spec as written: compact JSON and a newline


# What a static drawing carries that draws nothing: Vega's marks for its live view (classes, ARIA roles, pointer
# events; the page describes the chart by its alt text), empty background and foreground paths, and coordinates to a
# millionth of a pixel. A third of the bytes of an SVG (which the page, the notebook and the PDF all carry).
_NOT_DRAWN = re.compile(r' (?:class|role|aria-[a-z]+|pointer-events)="[^"]*"')
_EMPTY = re.compile(r'<path d="M0,0h0v0h0Z"/>|<path d="" display="none"/>')
_ATTRIBUTE = re.compile(r'="([^"]*)"')
_FINE = re.compile(r"-?\d+\.\d{3,}")
# A tag: every rewrite below edits tags only, never a text's words, which may hold anything a set's title or labels
# hold (`opacity="1"`, `v="1.23456"`): vl-convert escapes "<" in text, and quotes only inside attribute values.
_TAG = re.compile(r'<[^<>"]*(?:"[^"]*"[^<>"]*)*>')


def _in_tags(svg: str, edit) -> str:
    """`svg` with `edit(tag)` in place of each tag; the text between tags as it was."""
    return _TAG.sub(lambda t: edit(t[0]), svg)


# What restates SVG's initial values: an opacity of 1 and a translation by nothing (neither is inherited, so dropping
# them changes nothing), and a stroke width of 1 while no group sets a width its marks would inherit instead.
_INITIAL = re.compile(r' (?:opacity="1"|transform="translate\(0,0\)")(?=[ />])')
_UNIT_STROKE = re.compile(r' stroke-width="1"(?=[ />])')
_GROUP_STROKE = re.compile(r'<(?:svg|g)\b[^>]* stroke-width="')  # matched against one tag
# Every text mark names its font family (about a tenth of a drawing's bytes): said once on the root instead, which
# the text inherits, when every text names one and no group names another.
_TEXT = re.compile(r"<text\b[^>]*>")
_FAMILY = re.compile(r' font-family="([^"]*)"')
_GROUP_FAMILY = re.compile(r'<(?:svg|g)\b[^>]* font-family="')  # matched against one tag


def _family_once(svg: str) -> str:
    tags = _TAG.findall(svg)
    texts = [t for t in tags if _TEXT.fullmatch(t)]
    families = [m[1] for t in texts if (m := _FAMILY.search(t))]
    if not texts or len(families) != len(texts) or any(_GROUP_FAMILY.match(t) for t in tags) or not svg.startswith("<svg "):
        return svg
    common = max(sorted(set(families)), key=families.count)
    attr = f' font-family="{common}"'
    return "<svg" + attr + _in_tags(svg[4:], lambda t: t.replace(attr, "", 1) if _TEXT.fullmatch(t) else t)


def lean_svg(svg: str) -> str:
    """A chart's SVG as vl-convert draws it, without what draws nothing (_NOT_DRAWN, _EMPTY) or restates an initial
    value (_INITIAL, _UNIT_STROKE), with its text's font family said once, and with its coordinates rounded to a
    hundredth of a pixel; then, over its tree, in fewer groups, shapes and attributes (svgtree.py); its text (titles,
    labels, tick values) as it was. Only the rounding moves a pixel: the rest draws what it drew
    (tests/test_chart_drawings.py)."""
    def drawn(tag: str) -> str:
        tag = _NOT_DRAWN.sub("", tag)
        return "" if _EMPTY.fullmatch(tag) else _INITIAL.sub("", tag)

    svg = _in_tags(svg, drawn)
    if not any(_GROUP_STROKE.match(t) for t in _TAG.findall(svg)):
        svg = _in_tags(svg, lambda t: _UNIT_STROKE.sub("", t))
    return svgtree.lean_tree(rounded(_family_once(svg)))


def rounded(svg: str) -> str:
    """An SVG with its coordinates rounded to a hundredth of a pixel (the one step of lean_svg that moves a pixel); its
    text as it was."""
    return _in_tags(svg, lambda t: _ATTRIBUTE.sub(lambda a: '="' + _FINE.sub(lambda n: svgtree.hundredths(float(n[0])), a[1]) + '"', t))


@functools.lru_cache(maxsize=1)
def _drawing_code() -> str:
    """The hash of what draws: vl-convert's version and the source of this module, web.py and svgtree.py."""
    import vl_convert as vlc

    return codehash.source_key(f"{FORMAT}\0{vlc.__version__}\0", __file__, web.__file__, svgtree.__file__)


def key(spec: dict[str, Any]) -> str:
    """The key a chart's drawings are kept under: its spec (keys sorted) and the drawing code's hash."""
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{_drawing_code()}\0{text}".encode()).hexdigest()


def cache_from_env() -> Path | None:
    """The cache folder WIRESPEED_CHART_CACHE names (an absolute path), or None: nothing is kept."""
    value = os.environ.get(CACHE_ENV, "")
    return Path(value) if value and os.path.isabs(value) else None


def draw(spec: dict[str, Any], cache: Path | None = None) -> Drawing:
    """The drawings of a chart: from the cache when it holds them whole, else drawn (and kept, when there is a cache)."""
    k = key(spec)
    if cache is not None:
        kept = _read(cache, k)
        if kept is not None:
            return kept
    drawing = _draw(spec, k)
    if cache is not None:
        _write(cache, drawing)
    return drawing


def _draw(spec: dict[str, Any], k: str) -> Drawing:
    import vl_convert as vlc

    svg = lean_svg(vlc.vega_to_svg(vlc.vegalite_to_vega(spec)))
    page = json.dumps(web.web_vega(spec), separators=(",", ":"), ensure_ascii=False) + "\n"
    return Drawing(k, svg, page)


def _entry(cache: Path, k: str) -> Path:
    return cache / k[:2] / k


def _read(cache: Path, k: str) -> Drawing | None:
    folder = _entry(cache, k)
    if cache.is_symlink() or folder.parent.is_symlink() or folder.is_symlink() or not folder.is_dir():
        return None
    raw = shardcache.read(folder / SUMS, MAX_BYTES)
    try:
        sums = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    if not isinstance(sums, dict) or sums.get("key") != k:
        return None
    files = {}
    for name in (SVG, WEB):
        data = shardcache.read(folder / name, MAX_BYTES)
        if data is None or hashlib.sha256(data).hexdigest() != sums.get(name):
            return None
        files[name] = data
    try:
        return Drawing(k, files[SVG].decode("utf-8"), files[WEB].decode("utf-8"))
    except UnicodeDecodeError:
        return None


def _write(cache: Path, drawing: Drawing) -> None:
    """Keep a chart's drawings (whole or not at all); a cache that cannot be written is left as it is."""
    folder = _entry(cache, drawing.key)
    files = {SVG: drawing.svg.encode("utf-8"), WEB: drawing.web.encode("utf-8")}
    tmp = None
    try:
        if cache.is_symlink() or folder.parent.is_symlink():
            return
        tmp = atomic.temp_dir_beside(folder)
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        sums = {"key": drawing.key, **{name: hashlib.sha256(data).hexdigest() for name, data in files.items()}}
        (tmp / SUMS).write_text(json.dumps(sums, sort_keys=True) + "\n", encoding="utf-8")
        os.chmod(tmp, 0o755)
        atomic.swap_dir(tmp, folder)
    except OSError:
        pass
    finally:
        if tmp is not None and tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def prune(cache: Path, keep: set[str]) -> int:
    """Remove the entries (and anything else) under `cache` that are not the drawings of a key in `keep`; returns how
    many entries were removed. Links are removed, never followed."""
    return shardcache.prune(cache, lambda entry: entry.is_dir() and bool(_KEY.fullmatch(entry.name)) and entry.name in keep)
