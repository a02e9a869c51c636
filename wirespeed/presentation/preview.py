"""The link-preview image of a set (OpenGraph/Twitter card): 1200 × 630 PNG of its title, device and
headline figures, drawn by vl-convert from a Vega-Lite spec of text marks. Deterministic for the same
spec and vl-convert version, and cached on that content hash (build/previews/<hash>.png)."""

from __future__ import annotations

import hashlib
import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

from wirespeed.system import atomic

WIDTH, HEIGHT = 1200, 630
CACHE = Path("build/previews")


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def spec(data: dict[str, Any]) -> dict[str, Any]:
    """The Vega-Lite spec of the preview: text marks at fixed positions, no data from outside."""
    lines: list[dict[str, Any]] = [{"x": 60, "y": 70, "text": "wirespeed · network device benchmarks", "size": 26, "weight": "normal", "color": "#59606a"}]
    y = 135
    for part in textwrap.wrap(data["title"], 44)[:3]:
        lines.append({"x": 60, "y": y, "text": part, "size": 40, "weight": "bold", "color": "#1b1d1f"})
        y += 52
    y += 10
    lines.append({"x": 60, "y": y, "text": f"{data['dut']['vendor']} {data['dut']['model']}"[:80], "size": 26, "weight": "normal", "color": "#59606a"})
    y += 60
    for card in (data.get("headlines") or [])[:3]:
        if y > HEIGHT - 60:
            break
        figs = " · ".join(f["text"] + (f" {f['unit']}" if f["unit"] else "") for f in card["figures"][:3])
        lines.append({"x": 60, "y": y, "text": _cut(f"{card['title']}: {figs}", 64), "size": 28, "weight": "bold", "color": "#0a58ca"})
        lines.append({"x": 60, "y": y + 32, "text": _cut(card["context"], 95), "size": 20, "weight": "normal", "color": "#59606a"})
        y += 82
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json", "width": WIDTH, "height": HEIGHT, "padding": 0, "autosize": "none",
        "background": "#ffffff", "config": {"view": {"stroke": None}, "font": "DejaVu Sans"},
        "data": {"values": lines},
        "encoding": {"x": {"field": "x", "type": "quantitative", "scale": {"domain": [0, WIDTH], "range": [0, WIDTH]}, "axis": None},
                     "y": {"field": "y", "type": "quantitative", "scale": {"domain": [0, HEIGHT], "range": [0, HEIGHT]}, "axis": None},
                     "text": {"field": "text"}, "size": {"field": "size", "type": "quantitative", "scale": None},
                     "color": {"field": "color", "type": "nominal", "scale": None}},
        "layer": [{"transform": [{"filter": {"field": "weight", "equal": w}}],
                   "mark": {"type": "text", "align": "left", "baseline": "alphabetic", "fontWeight": w}} for w in ("normal", "bold")],
    }


PNG = "palette-1"
"""How the rendered PNG is stored (part of the cache key): losslessly as a palette PNG when it has at most 256
colours (a preview is text on a plain ground: under 100 colours, about 33 KB instead of 230 KB)."""


def smaller(png: bytes) -> bytes:
    """The same picture, pixel for pixel, in the fewest bytes: an opaque image of at most 256 colours as a
    palette PNG of exactly its colours, else as an optimised RGB(A) PNG; the original when neither is smaller."""
    import io

    from PIL import Image

    im = Image.open(io.BytesIO(png))
    im.load()
    rgba = im.convert("RGBA")
    opaque = rgba.getextrema()[3][0] == 255
    full = rgba.convert("RGB") if opaque else rgba
    out = full
    if opaque and full.getcolors(256) is not None:
        # each pixel becomes the index of its own colour (Pillow's quantize maps to a near colour, not always its own)
        import numpy as np

        pixels = np.frombuffer(full.tobytes(), dtype=np.uint8).reshape(-1, 3)
        packed = (pixels[:, 0].astype(np.uint32) << 16) | (pixels[:, 1].astype(np.uint32) << 8) | pixels[:, 2]
        colours, index = np.unique(packed, return_inverse=True)
        mapped = Image.frombytes("P", full.size, index.astype(np.uint8).tobytes())
        mapped.putpalette([int(v) for c in colours for v in ((c >> 16) & 255, (c >> 8) & 255, c & 255)])
        if mapped.convert("RGB").tobytes() == full.tobytes():  # exactly its colours: lossless
            out = mapped
    buf = io.BytesIO()
    out.save(buf, "PNG", optimize=True)
    return min(buf.getvalue(), png, key=len)


def render(data: dict[str, Any], dest: Path, cache: Path = CACHE) -> Path:
    """Write the preview PNG of a set to dest, from the cache when the same spec was drawn before."""
    import vl_convert as vlc

    s = spec(data)
    key = hashlib.sha256(json.dumps({"spec": s, "vl-convert": vlc.__version__, "png": PNG}, sort_keys=True).encode()).hexdigest()
    cached = cache / f"{key}.png"
    if not cached.is_file():
        atomic.write_bytes(cached, smaller(vlc.vegalite_to_png(s, scale=1)))
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cached, dest)
    return dest
