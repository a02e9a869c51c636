"""The headline figures of a set as Pandoc blocks for the PDF report: the same exported cards
(site data .headlines) the web page shows, in a box at the start of the report."""

from __future__ import annotations

from typing import Any

from wirespeed.report import pandoc_ast as A

TITLE = "Headline figures"


def _figures(card: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, f in enumerate(card["figures"]):
        if i:
            out += [{"t": "Space"}, {"t": "Str", "c": "·"}, {"t": "Space"}]
        text = f["text"] + ("\u00a0" + f["unit"] if f["unit"] else "") + ("\u00a0†" if f["derived"] else "")
        if f.get("label") == "caveat":  # words beside a figure (its statistic, a lower bound): they wrap like a sentence
            out += A.inlines(text)
        else:
            out.append({"t": "Str", "c": text})  # one Str: a figure never breaks from its unit
    return out


def headline_blocks(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A box of the set's headline cards (none when it has none), with the ramp limit's definition."""
    cards = data.get("headlines") or []
    if not cards:
        return []
    items, notes = [], []
    for c in cards:
        context = c["context"] + (". The same in: " + "; ".join(c["also"]) if c.get("also") else "")
        items.append([A.strong(c["title"] + ":"), {"t": "Space"}, *_figures(c), {"t": "Space"}, *A.inlines(f"({context}).")])
        if c.get("readings"):
            notes.append(A.para(f"The limit of a ramp is {c['definition']}. The other readings of the same ramp:"))
            notes.append(A.bullet_list([[A.strong(r["label"] + ":"), {"t": "Space"},
                                         {"t": "Str", "c": f"{r['text']}\u00a0{r['unit']}"},
                                         *A.inlines((f" ({r['of_line_rate']})" if r["of_line_rate"] else "") + (f", {r['at']}" if r["at"] else "") + f". {r['explanation']}")]
                                        for r in c["readings"][1:]]))
    legend = A.para("† computed by the wirespeed engine from the published figures; ≈, > and < keep what the source printed.")
    return [{"t": "Div", "c": [["", ["findings"], [["title", TITLE]]], [A.bullet_list(items), *notes, legend]]}]
