"""Rule negative-loss: no negative frame loss (more frames received than sent) printed without a stated reason.

A reason is stated when the cell's flag, the table's caption or notes, or the sentence itself says why
loss is negative (it names it: "negative")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wirespeed.problems import Problem
from wirespeed.sitecheck.numbers import cell_number, parse, snippet
from wirespeed.sitecheck.site import Column, Site

RULE = "negative-loss"
LOSS_METRICS = ("lost", "loss")
LOSS_WORDS = re.compile(r"\b(loss|lost)\b", re.I)
REASON = re.compile(r"\bnegative\b", re.I)


def check_negative_loss(site: Site) -> Iterator[Problem]:
    """No negative loss in a table (loss or frames-lost column) or a sentence about loss, unless the reason is stated beside it."""
    for t in site.json_tables + site.html_tables + site.csv_tables:
        stated = bool(REASON.search(t.notes))
        for c, col in enumerate(t.columns):
            if not is_loss(col):
                continue
            for r, row in enumerate(t.rows):
                p = cell_number(row[c]) if c < len(row) else None
                flag = (t.flags[r][c] if t.flags and r < len(t.flags) and c < len(t.flags[r]) else None) or ""
                if p is not None and p.value < 0 and not stated and not REASON.search(flag):
                    yield Problem(t.page, None, t.cell_where(r, c), f"negative loss {row[c]} without a stated reason", RULE)
    for t in site.texts():
        if t.origin in ("json", "csv") or not LOSS_WORDS.search(t.text) or REASON.search(t.text):
            continue
        for p in parse(t.text):
            if p.value < 0 and p.dimension in ("count", "percent") and LOSS_WORDS.search(t.text[max(0, p.start - 60):p.end + 40]):
                yield Problem(t.page, None, t.where, f"negative loss {p.text.strip()} without a stated reason in “{snippet(t.text, p.start, p.end)}”", RULE)


def is_loss(col: Column) -> bool:
    if col.key:
        return col.metric in LOSS_METRICS
    return bool(LOSS_WORDS.search(col.label))
