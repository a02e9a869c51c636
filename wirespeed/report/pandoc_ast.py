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
BREAK_CHUNK = 10  # … every this many characters
_BREAK = {"t": "RawInline", "c": ["latex", "\\allowbreak{}"]}
_KEEP = {"Image", "Code", "CodeBlock", "RawInline", "RawBlock", "Math"}  # not text LaTeX sets as a paragraph


_TEX = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "&": "\\&", "#": "\\#", "^": "\\^{}", "_": "\\_",
        "%": "\\%", "~": "\\textasciitilde{}", "-": "-{}", "<": "\\textless{}", ">": "\\textgreater{}"}


def _breakable_code(node: dict[str, Any]) -> dict[str, Any]:
    """Inline code with a long run (a path, a command's long argument) as \\texttt that may break after / - _ . =
    and every BREAK_CHUNK characters of a run; short code stays Pandoc's own."""
    text = node["c"][1]
    if all(len(w) <= BREAK_LONGER_THAN for w in text.split()):
        return node
    out, run = [], 0
    for ch in text:
        out.append(_TEX.get(ch, ch))
        run = 0 if ch.isspace() else run + 1
        if ch in "/-_.=" or run >= BREAK_CHUNK:
            out.append("\\allowbreak{}")
            run = 0
    return {"t": "RawInline", "c": ["latex", "\\texttt{" + "".join(out) + "}"]}


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
                text = item["c"]
                for i in range(0, len(text), BREAK_CHUNK):
                    if i:
                        out.append(dict(_BREAK))
                    out.append({"t": "Str", "c": text[i:i + BREAK_CHUNK]})
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
