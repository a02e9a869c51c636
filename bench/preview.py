"""The link-preview cards of the example sets, drawn the way the site draws them (Pillow, presentation/preview.py)
beside the way it drew them before (a Vega-Lite spec of text marks drawn by vl-convert, then stored as a palette
PNG of exactly its colours): time a card and bytes a card, best of --rounds, no cache either way.

    .venv/bin/python bench/preview.py [--rounds 3]

Reads the sets' site data from build/hugo-data (run `make` first)."""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, save  # noqa: E402


def vega_lite_card(lines) -> dict:
    """The previous design's spec: the same lines as Vega-Lite text marks at fixed positions."""
    from wirespeed.presentation import preview

    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json", "width": preview.WIDTH, "height": preview.HEIGHT, "padding": 0,
        "autosize": "none", "background": "#ffffff", "config": {"view": {"stroke": None}, "font": "DejaVu Sans"},
        "data": {"values": [{"x": l.x, "y": l.y, "text": l.text, "size": l.size, "weight": l.weight, "color": l.color} for l in lines]},
        "encoding": {"x": {"field": "x", "type": "quantitative", "scale": {"domain": [0, preview.WIDTH], "range": [0, preview.WIDTH]}, "axis": None},
                     "y": {"field": "y", "type": "quantitative", "scale": {"domain": [0, preview.HEIGHT], "range": [0, preview.HEIGHT]}, "axis": None},
                     "text": {"field": "text"}, "size": {"field": "size", "type": "quantitative", "scale": None},
                     "color": {"field": "color", "type": "nominal", "scale": None}},
        "layer": [{"transform": [{"filter": {"field": "weight", "equal": w}}],
                   "mark": {"type": "text", "align": "left", "baseline": "alphabetic", "fontWeight": w}} for w in ("normal", "bold")],
    }


def vl_convert_png(lines) -> bytes:
    """The previous design's picture: vl-convert's PNG, stored as a palette PNG of exactly its colours (optimised)."""
    import numpy as np
    import vl_convert as vlc
    from PIL import Image

    im = Image.open(io.BytesIO(vlc.vegalite_to_png(vega_lite_card(lines), scale=1))).convert("RGB")
    pixels = np.asarray(im).reshape(-1, 3)
    packed = (pixels[:, 0].astype(np.uint32) << 16) | (pixels[:, 1].astype(np.uint32) << 8) | pixels[:, 2]
    colours, index = np.unique(packed, return_inverse=True)
    if len(colours) <= 256:
        im = Image.frombytes("P", im.size, index.astype(np.uint8).tobytes())
        im.putpalette([int(v) for c in colours for v in ((c >> 16) & 255, (c >> 8) & 255, c & 255)])
    buf = io.BytesIO()
    im.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from wirespeed.presentation import preview

    cards = [preview.lines(json.loads(f.read_text())) for f in sorted((ROOT / "build" / "hugo-data" / "wirespeed" / "sets").glob("*.json"))]
    if not cards:
        sys.exit("no site data in build/hugo-data: run make first")
    preview.png(cards[0]), vl_convert_png(cards[0])  # fonts and libraries loaded outside the timing
    best: dict[str, float] = {}
    size: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, draw in (("vl-convert (before)", vl_convert_png), ("Pillow (now)", preview.png)):
            t = time.perf_counter()
            size[name] = sum(len(draw(card)) for card in cards)
            best[name] = min(best.get(name, float("inf")), time.perf_counter() - t)
    before, now = best["vl-convert (before)"], best["Pillow (now)"]
    save("preview", {
        "cards": len(cards),
        "s a card: vl-convert (before)": f"{before / len(cards):.4f}",
        "s a card: Pillow (now)": f"{now / len(cards):.4f}",
        "ratio now / before": f"{now / before:.3f}",
        "KB a card: vl-convert (before)": f"{size['vl-convert (before)'] / len(cards) / 1000:.1f}",
        "KB a card: Pillow (now)": f"{size['Pillow (now)'] / len(cards) / 1000:.1f}",
    })


if __name__ == "__main__":
    main()
