"""A chart's PDF drawing, which only a PDF report prints: made by the report step from the chart's static SVG (the
drawing the page and the notebook show, analysis/drawings.py), for the charts a report prints and no other.

vl-convert's svg_to_pdf gives the bytes of its vega_to_pdf at a third of its time; reproducible.stable_pdf sorts the
dictionary keys vl-convert orders differently in every process. A drawing is kept in <build>/cache/chart-pdf/ under
the hash of the SVG and of what draws (vl-convert's version, this module, reproducible.py), so a report typeset again
(another base URL, a new build date) draws nothing again. The cache never decides an output: an entry is used only
when it is a regular file of bounded size, written whole (atomically, under the key of what it was drawn from), that
begins and ends as a PDF does; anything else is drawn afresh and written over.

Making these drawings here, not in the analysis step, keeps them out of the cost of the site: a set's notebooks and
pages no longer pay for a drawing only its PDF prints (issue 24: CPU a set, the PDF apart), and a chart of the page
alone (the set page's small multiples) is never drawn as PDF at all."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from wirespeed.pipeline import paths
from wirespeed.system import atomic, codehash, reproducible, shardcache

FORMAT = 1  # how a drawing is made and kept: raise it when either changes
MAX_BYTES = 32 * 1024 * 1024  # a chart's SVG or PDF is tens of kilobytes


class ChartPdfError(RuntimeError):
    """A chart's SVG cannot be read or drawn: one line naming the file."""


@functools.lru_cache(maxsize=1)
def code_key() -> str:
    """The hash of what draws: vl-convert's version and the source of this module and reproducible.py."""
    import vl_convert as vlc

    return codehash.source_key(f"{FORMAT}\0{vlc.__version__}\0", __file__, reproducible.__file__)


def key(svg: bytes) -> str:
    """The key a chart's PDF is kept under: its SVG's bytes and the drawing code's hash."""
    return hashlib.sha256(code_key().encode() + b"\0" + svg).hexdigest()


def draw(svg: bytes) -> bytes:
    """The PDF of a chart's SVG."""
    import vl_convert as vlc

    return reproducible.stable_pdf(vlc.svg_to_pdf(svg.decode("utf-8")))


def cache_of(out: Path) -> Path:
    """The drawing cache of the build folder a report written at `out` is in (<build>/reports/<slug>.pdf or
    <build>/trends/trends.pdf → <build>/cache/chart-pdf)."""
    return out.parent.parent / paths.CHART_PDF_CACHE.relative_to(paths.BUILD)


def pdf(svg_path: Path, cache: Path | None) -> bytes:
    """The PDF drawing of the chart whose SVG is at `svg_path`: from the cache when it holds it, else drawn (and kept)."""
    svg = shardcache.read(svg_path, MAX_BYTES)
    if svg is None:
        raise ChartPdfError(f"{svg_path}: the chart's drawing cannot be read (missing, a link or over {MAX_BYTES // 2**20} MB)")
    k = key(svg)
    entry = cache / k[:2] / f"{k}.pdf" if cache is not None else None
    if entry is not None and not cache.is_symlink() and not entry.parent.is_symlink():
        kept = shardcache.read(entry, MAX_BYTES)
        if kept is not None and kept.startswith(b"%PDF-") and b"%%EOF" in kept[-64:]:
            return kept
    try:
        data = draw(svg)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ChartPdfError(f"{svg_path}: the chart's drawing cannot be made into a PDF ({type(exc).__name__}: {exc})") from None
    if entry is not None:
        try:
            if not cache.is_symlink() and not entry.parent.is_symlink():
                atomic.write_bytes(entry, data)
        except OSError:
            pass  # a cache that cannot be written changes nothing but the next report's time
    return data


def write(svgs: dict[str, Path], dest: Path, cache: Path | None) -> None:
    """Write each chart's PDF as dest/<name>.pdf (`svgs`: name → its SVG)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name, svg_path in svgs.items():
        (dest / f"{name}.pdf").write_bytes(pdf(svg_path, cache))


def prune(static_root: Path, cache: Path) -> int:
    """Remove from `cache` every drawing that is not of a chart under static_root (a set's charts, results/*/charts/,
    or a trend series', trends/**/); returns how many were removed. Links are removed, never followed."""
    keep = set()
    for svg in [*static_root.glob("results/*/charts/*.svg"), *static_root.glob("trends/**/*.svg")]:
        data = shardcache.read(svg, MAX_BYTES)
        if data is not None:
            keep.add(f"{key(data)}.pdf")
    return shardcache.prune(cache, lambda entry: entry.is_file() and entry.name in keep)
