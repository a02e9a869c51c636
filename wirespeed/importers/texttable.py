"""Text tables as instruments print them: a header underlined with dashes, or words separated by spaces.

Two layouts, both real (Spirent TestCenter's result views and result-object dumps):

- **underlined**: a header line, a line of dashes under it, then one line per row. The dashes are
  either one run per column (their extents give the columns) or, as Spirent writes them, one
  unbroken run under the whole header; then the columns are the header's names, separated by two
  or more spaces (a name may hold single spaces: `Tx Count (Frames)`), and a row's cells are read in
  order when there are as many as names, else each under the name it starts below (an empty cell
  leaves a gap). A row whose cells fit neither way is refused, never guessed.
- **spaced**: a header of single words (`StreamBlock.Name StreamBlock.Agg.TxFrameCount …`) and rows of
  words, a cell with spaces quoted in braces as Tcl prints it (`{OSPF R01 to R02}`).

Lines above the header (a view's title, an export preamble) are returned as the title.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from wirespeed.importers import tabular

_CELL = re.compile(r"\S+(?: \S+)*")  # words separated by single spaces
_RULE = re.compile(r"\s*-{3,}(?:\s+-{3,})*\s*")
_WORD = re.compile(r"\{([^{}]*)\}|(\S+)")


@dataclass
class TextTable:
    """A table read from text: its header, its rows (line, cells) and the rows it could not cut."""

    title: list[str]
    line: int  # the header's line number
    header: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    uncut: list[tuple[int, str]] = field(default_factory=list)  # (line, why)
    extra: dict[int, list[str]] = field(default_factory=dict)  # line -> cells beyond the header (spaced layout)


def _cells(line: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in _CELL.finditer(line)]


def underlined(text: str) -> TextTable | None:
    """The table whose header is underlined with dashes, or None when there is no such line."""
    lines = tabular.lines(text).split("\n")
    at = next((i for i, ln in enumerate(lines) if i and _RULE.fullmatch(ln) and lines[i - 1].strip()), None)
    if at is None:
        return None
    runs = [(m.start(), m.end()) for m in re.finditer(r"-+", lines[at])]
    title = [ln.strip() for ln in lines[: at - 1] if ln.strip()]
    if len(runs) > 1:  # one run per column: the runs are the columns
        def cut(s: str) -> list[str]:
            return [s[a: runs[n + 1][0] if n + 1 < len(runs) else len(s)].strip() for n, (a, _b) in enumerate(runs)]

        table = TextTable(title, at, cut(lines[at - 1]))
        for j in range(at + 1, len(lines)):
            if lines[j].strip() and not re.fullmatch(r"[\s=-]*", lines[j]):
                table.rows.append((j + 1, cut(lines[j])))
        return table
    names = _cells(lines[at - 1])
    table = TextTable(title, at, [n for _s, n in names])
    starts = [s for s, _n in names]
    for j in range(at + 1, len(lines)):
        if not lines[j].strip() or re.fullmatch(r"[\s=-]*", lines[j]):
            continue
        got = _cells(lines[j])
        if len(got) == len(names):
            table.rows.append((j + 1, [c for _s, c in got]))
            continue
        placed: dict[int, str] = {}
        for start, cell in got:
            col = bisect.bisect_right(starts, start) - 1  # the last column starting at or before the cell
            if col < 0 or col in placed:
                placed = {}
                break
            placed[col] = cell
        if len(got) > len(names) or not placed:
            table.uncut.append((j + 1, f"{len(got)} cells that do not line up under the {len(names)} columns of the header"))
            continue
        table.rows.append((j + 1, [placed.get(k, "") for k in range(len(names))]))
    return table


def spaced(text: str, looks_like) -> TextTable | None:
    """The table whose first non-blank line is a header of single words that `looks_like` accepts."""
    lines = tabular.lines(text).split("\n")
    at = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if at is None:
        return None
    header = lines[at].split()
    if not looks_like(header):
        return None
    table = TextTable([], at + 1, header)
    for j in range(at + 1, len(lines)):
        if not lines[j].strip():
            continue
        words = [m.group(1) if m.group(1) is not None else m.group(2) for m in _WORD.finditer(lines[j])]
        if len(words) < len(header):
            table.uncut.append((j + 1, f"{len(words)} cells: the header has {len(header)} columns (a truncated row)"))
            continue
        table.rows.append((j + 1, words[: len(header)]))
        if len(words) > len(header):
            table.extra[j + 1] = words[len(header):]
    return table
