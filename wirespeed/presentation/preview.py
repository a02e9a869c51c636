"""The link-preview image of a set (OpenGraph/Twitter card): a 1200 × 630 PNG of its title, device and headline
figures, drawn by Pillow (FreeType) in DejaVu Sans. Every line is measured and fitted to the width: a title is
wrapped at words on at most three lines, and a line that would run past the margin is cut with "…", so no text
leaves the card or runs over another line.

The picture is stored as a palette PNG of exactly its colours: white, and each text colour over white at
`LEVELS` steps of glyph coverage (FreeType's anti-aliasing, 256 steps, rounded to 16, which the eye cannot tell
from 64 or 256 at the card's type sizes), about 22 KB a card (29 KB at 64 steps). Drawing and storing it takes about 0.03 s; the Vega-Lite text marks that vl-convert drew before
took 0.45 s a set, a third of a clean build's site-data step (bench/preview.py).

Deterministic for the same lines, fonts, Pillow and FreeType (the basic layout engine, which every Pillow has),
and cached on that content hash (build/previews/<hash>.png)."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from wirespeed.system import atomic

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
TEXT_WIDTH = WIDTH - 2 * MARGIN
WHITE = (255, 255, 255)
LEVELS = 16  # steps of glyph coverage a text colour is stored at (white is step 0)
FORMAT = "pillow-palette-1"  # how a card is drawn and stored (part of the cache key)
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),)
FONT_FILES = {"normal": ("DejaVuSans.ttf", "DejaVu Sans:weight=regular"), "bold": ("DejaVuSans-Bold.ttf", "DejaVu Sans:weight=bold")}
CACHE = Path("build/previews")


class PreviewError(RuntimeError):
    """The card cannot be drawn (its fonts are missing): one line naming the cause and the remedy."""


@dataclass(frozen=True)
class Line:
    """One line of text on the card: its left end and baseline in pixels, its size in pixels, weight and colour."""

    x: int
    y: int
    text: str
    size: int
    weight: str
    color: str


def font_file(weight: str) -> Path:
    """The DejaVu Sans file of this weight: Debian's fonts-dejavu-core, else what fontconfig names."""
    name, pattern = FONT_FILES[weight]
    for folder in FONT_DIRS:
        if (folder / name).is_file():
            return folder / name
    try:
        found = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        found = ""
    if found.endswith(name) and Path(found).is_file():
        return Path(found)
    raise PreviewError(f"the link-preview image needs the font {name} (Debian/Ubuntu package fonts-dejavu-core; `make` installs it)")


@functools.cache
def _font(weight: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(str(font_file(weight)), size, layout_engine=ImageFont.Layout.BASIC)


def _width(text: str, weight: str, size: int) -> float:
    return _font(weight, size).getlength(text)


def fit(text: str, weight: str, size: int, width: float = TEXT_WIDTH) -> str:
    """The text, or its longest beginning that fits the width with "…" after it."""
    if _width(text, weight, size) <= width:
        return text
    lo, hi = 0, len(text)  # the longest cut that fits lies in [lo, hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _width(text[:mid].rstrip() + "…", weight, size) <= width:
            lo = mid
        else:
            hi = mid
    return text[:lo].rstrip() + "…"


def wrap(text: str, weight: str, size: int, most: int, width: float = TEXT_WIDTH) -> list[str]:
    """The text broken at spaces into lines that fit the width, at most `most` of them (the last cut with "…" when
    more is left; a word wider than a line is cut too)."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < most:
        line = words.pop(0)
        while words and _width(f"{line} {words[0]}", weight, size) <= width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words:  # more than fits: the last line runs on into them and is cut, so its "…" says so
        lines[-1] = fit(f"{lines[-1]} {' '.join(words)}", weight, size, width)
    return [fit(line, weight, size, width) for line in lines]


def lines(data: dict[str, Any]) -> list[Line]:
    """The card's lines: the site's name, the title (up to three lines), the device, and up to three headline
    cards (figures, then what they measured), as many as fit above the bottom margin."""
    out = [Line(MARGIN, 70, "wirespeed · network device benchmarks", 26, "normal", "#59606a")]
    y = 135
    for part in wrap(data["title"], "bold", 40, 3):
        out.append(Line(MARGIN, y, part, 40, "bold", "#1b1d1f"))
        y += 52
    y += 10
    out.append(Line(MARGIN, y, fit(f"{data['dut']['vendor']} {data['dut']['model']}", "normal", 26), 26, "normal", "#59606a"))
    y += 60
    for card in (data.get("headlines") or [])[:3]:
        if y > HEIGHT - MARGIN:
            break
        figs = " · ".join(f["text"] + (f" {f['unit']}" if f["unit"] else "") for f in card["figures"][:3])
        out.append(Line(MARGIN, y, fit(f"{card['title']}: {figs}", "bold", 28), 28, "bold", "#0a58ca"))
        out.append(Line(MARGIN, y + 32, fit(card["context"], "normal", 20), 20, "normal", "#59606a"))
        y += 82
    return out


def box(line: Line) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the pixels a line may ink."""
    from PIL import ImageDraw

    return ImageDraw.Draw(_blank()).textbbox((line.x, line.y), line.text, font=_font(line.weight, line.size), anchor="ls")


@functools.cache
def _blank():
    from PIL import Image

    return Image.new("L", (1, 1))


def _rgb(colour: str) -> tuple[int, int, int]:
    from PIL import ImageColor

    return ImageColor.getrgb(colour)[:3]


def palette(colours: list[str]) -> list[tuple[int, int, int]]:
    """White, then each colour over white at coverage 1/(LEVELS-1) … 1, in that order."""
    out = [WHITE]
    for c in colours:
        rgb = _rgb(c)
        out += [tuple(round(w + (v - w) * k / (LEVELS - 1)) for v, w in zip(rgb, WHITE)) for k in range(1, LEVELS)]
    return out


def draw(card: list[Line]):
    """The card as a palette image: each pixel white or one text colour at its glyph coverage (LEVELS steps)."""
    import numpy as np
    from PIL import Image, ImageDraw

    colours = sorted({line.color for line in card})
    if 1 + len(colours) * (LEVELS - 1) > 256:
        raise ValueError(f"a card of {len(colours)} text colours does not fit a palette of 256")
    index = np.zeros((HEIGHT, WIDTH), dtype=np.uint8)
    for i, colour in enumerate(colours):
        mask = Image.new("L", (WIDTH, HEIGHT), 0)
        pen = ImageDraw.Draw(mask)
        for line in card:
            if line.color == colour:
                pen.text((line.x, line.y), line.text, font=_font(line.weight, line.size), fill=255, anchor="ls")
        step = (np.asarray(mask, dtype=np.uint16) * (LEVELS - 1) + 127) // 255
        inked = step > 0
        index[inked] = (i * (LEVELS - 1) + step[inked]).astype(np.uint8)
    im = Image.frombytes("P", (WIDTH, HEIGHT), index.tobytes())
    im.putpalette([v for rgb in palette(colours) for v in rgb])
    return im


def png(card: list[Line]) -> bytes:
    buf = io.BytesIO()
    draw(card).save(buf, "PNG", compress_level=6)  # zlib's default: 5 % more bytes than level 9 or `optimize`, in an eighth of the time
    return buf.getvalue()


@functools.cache
def _tools() -> dict[str, str]:
    """What else the picture depends on: Pillow, FreeType and the font files' contents."""
    import PIL
    from PIL import features

    fonts = {w: hashlib.sha256(font_file(w).read_bytes()).hexdigest() for w in FONT_FILES}
    return {"pillow": PIL.__version__, "freetype": str(features.version("freetype2")), **fonts}


def render(data: dict[str, Any], dest: Path, cache: Path = CACHE) -> Path:
    """Write the preview PNG of a set to dest, from the cache when the same card was drawn before."""
    card = lines(data)
    key = hashlib.sha256(json.dumps({"lines": [asdict(line) for line in card], "tools": _tools(), "format": FORMAT, "levels": LEVELS},
                                    sort_keys=True).encode()).hexdigest()
    cached = cache / f"{key}.png"
    if not cached.is_file():
        atomic.write_bytes(cached, png(card))
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cached, dest)
    return dest
