"""Building Pandoc's JSON AST: data-bearing text goes in as Str nodes, which every Pandoc writer
escapes — so text from a result set can never be read as LaTeX (or Markdown)."""

from __future__ import annotations

import re
from typing import Any

NO_ATTR: list[Any] = ["", [], []]
_WORD = re.compile(r"(\s+)")


def inlines(text: str) -> list[dict[str, Any]]:
    """Plain text as Str/Space inlines (no markup is interpreted)."""
    out: list[dict[str, Any]] = []
    for part in _WORD.split(text):
        if not part:
            continue
        out.append({"t": "Space"} if part.isspace() else {"t": "Str", "c": part})
    return out


def para(text: str | list[dict[str, Any]]) -> dict[str, Any]:
    return {"t": "Para", "c": inlines(text) if isinstance(text, str) else text}


def plain(text: str | list[dict[str, Any]]) -> dict[str, Any]:
    return {"t": "Plain", "c": inlines(text) if isinstance(text, str) else text}


def header(level: int, text: str, ident: str = "", classes: list[str] | None = None) -> dict[str, Any]:
    return {"t": "Header", "c": [level, [ident, classes or [], []], inlines(text)]}


def strong(text: str) -> dict[str, Any]:
    return {"t": "Strong", "c": inlines(text)}


def bullet_list(items: list[list[dict[str, Any]]]) -> dict[str, Any]:
    return {"t": "BulletList", "c": [[plain(i)] for i in items]}


def div(blocks: list[dict[str, Any]], classes: list[str]) -> dict[str, Any]:
    return {"t": "Div", "c": [["", classes, []], blocks]}


def meta_string(text: str) -> dict[str, Any]:
    return {"t": "MetaString", "c": text}


def meta_inlines(text: str) -> dict[str, Any]:
    return {"t": "MetaInlines", "c": inlines(text)}


def meta_list(items: list[str]) -> dict[str, Any]:
    return {"t": "MetaList", "c": [meta_inlines(i) for i in items]}


def meta_bool(value: bool) -> dict[str, Any]:
    return {"t": "MetaBool", "c": value}


CELL_CHARS = 1000  # a table row cannot break across pages: longer cells and captions are shortened (every valid cell is shorter)
CAPTION_CHARS = 1000


def shorten(text: str, most: int) -> str:
    """At most `most` characters: cut at the last space before the limit (or at the limit) and end with an ellipsis."""
    if len(text) <= most:
        return text
    cut = text[: most - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > most // 2 else cut).rstrip() + "…"


def _cell(blocks: list[dict[str, Any]], align: str = "AlignDefault", rowspan: int = 1, colspan: int = 1) -> list[Any]:
    return [NO_ATTR, {"t": align}, rowspan, colspan, blocks]


def table(caption: list[dict[str, Any]], head_rows: list[list[tuple[str, str, int, int]]], body: list[list[tuple[str, str]]],
          aligns: list[str], ident: str = "", short: str | None = None, widths: list[float] | None = None) -> dict[str, Any]:
    """A table: header rows of (text, align, rowspan, colspan) cells, body rows of (text or inlines, align) cells.

    `widths` (fractions of the line width) make the columns wrap instead of running off the page;
    `short` is the caption shown in the list of tables.
    """
    colspecs = [[{"t": a}, {"t": "ColWidth", "c": w} if widths else {"t": "ColWidthDefault"}] for a, w in zip(aligns, widths or [0] * len(aligns))]
    head = [NO_ATTR, [[NO_ATTR, [_cell([plain(shorten(t, CELL_CHARS))], a, rs, cs) for t, a, rs, cs in row]] for row in head_rows]]
    rows = [[NO_ATTR, [_cell([plain(t if isinstance(t, list) else shorten(t, CELL_CHARS))] if t else [], a) for t, a in row]] for row in body]
    if sum(len(i["c"]) for i in caption if i.get("t") == "Str") > CAPTION_CHARS:
        caption = inlines(shorten(_text(caption), CAPTION_CHARS))
    short_caption = inlines(shorten(short, CAPTION_CHARS)) if short else None
    return {"t": "Table", "c": [[ident, [], []], [short_caption, [plain(caption)]], colspecs, head, [[NO_ATTR, 0, [], rows]], [NO_ATTR, []]]}


def _text(inl: list[dict[str, Any]]) -> str:
    return "".join(i["c"] if i["t"] == "Str" else " " if i["t"] == "Space" else _text(i["c"]) if i["t"] in ("Strong", "Emph") else "" for i in inl)


def figure(image_path: str, caption: list[dict[str, Any]], alt: str, ident: str = "", width: str = "100%", short: str | None = None) -> dict[str, Any]:
    image = {"t": "Image", "c": [["", [], [["width", width]]], inlines(alt), [image_path, ""]]}
    return {"t": "Figure", "c": [[ident, [], []], [inlines(short) if short else None, [plain(caption)]], [plain([image])]]}


def document(meta: dict[str, Any], blocks: list[dict[str, Any]], api_version: list[int]) -> dict[str, Any]:
    return {"pandoc-api-version": api_version, "meta": meta, "blocks": blocks}


BREAK_LONGER_THAN = 20  # a Str longer than this (an unbroken run of text) gets break opportunities
BREAK_CHUNK = 10  # … after each / - _ . = and, in a longer run without one, every this many characters
BREAK_AFTER = "/-_.="
_BREAK = {"t": "RawInline", "c": ["latex", "\\allowbreak{}"]}
# a break inside a word, where a run has no punctuation to break after: allowed, but TeX takes one after / - _ . = first
_SPLIT = {"t": "RawInline", "c": ["latex", "\\penalty300{}"]}
_KEEP = {"Image", "Code", "CodeBlock", "RawInline", "RawBlock", "Math"}  # not text LaTeX sets as a paragraph


_TEX = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "&": "\\&", "#": "\\#", "^": "\\^{}", "_": "\\_",
        "%": "\\%", "~": "\\textasciitilde{}", "-": "-{}", "<": "\\textless{}", ">": "\\textgreater{}"}


def pieces(text: str) -> list[tuple[str, dict[str, Any] | None]]:
    """A long run of text in pieces, each with the break that may follow it: `_BREAK` after / - _ . = (a file name breaks
    between its words), `_SPLIT` inside a run of BREAK_CHUNK characters without one, None after the last piece."""
    out: list[tuple[str, dict[str, Any] | None]] = []
    start = run = 0
    for i, ch in enumerate(text):
        run = 0 if ch.isspace() else run + 1
        if ch in BREAK_AFTER or run >= BREAK_CHUNK:
            out.append((text[start:i + 1], _BREAK if ch in BREAK_AFTER else _SPLIT))
            start, run = i + 1, 0
    if start < len(text):
        out.append((text[start:], None))
    elif out:
        out[-1] = (out[-1][0], None)
    return out


def _breakable_code(node: dict[str, Any]) -> dict[str, Any]:
    """Inline code with a long run (a path, a command's long argument) as \\texttt that may break (`pieces`); short code
    stays Pandoc's own."""
    text = node["c"][1]
    if all(len(w) <= BREAK_LONGER_THAN for w in text.split()):
        return node
    tex = "".join("".join(_TEX.get(ch, ch) for ch in piece) + (brk["c"][1] if brk else "") for piece, brk in pieces(text))
    return {"t": "RawInline", "c": ["latex", "\\texttt{" + tex + "}"]}


def breakable(node: Any) -> Any:
    """A copy of an AST fragment (blocks, inlines or metadata) where every long Str can break across lines.

    XeLaTeX cannot break a string without spaces: a long one runs off the page, or, in a table or on
    the title page, overflows TeX's dimensions ("Dimension too large") or crashes it. The pieces are
    joined by `\\allowbreak{}`, which prints nothing; text extracted from the PDF stays the same.
    """
    if isinstance(node, list):
        out: list[Any] = []
        for item in node:
            if isinstance(item, dict) and item.get("t") == "Str" and len(item["c"]) > BREAK_LONGER_THAN:
                for piece, brk in pieces(item["c"]):
                    out.append({"t": "Str", "c": piece})
                    if brk:
                        out.append(dict(brk))
            else:
                out.append(breakable(item))
        return out
    if isinstance(node, dict):
        if node.get("t") == "Code":
            return _breakable_code(node)
        if node.get("t") in _KEEP:
            return node
        return {k: breakable(v) for k, v in node.items()}
    return node
