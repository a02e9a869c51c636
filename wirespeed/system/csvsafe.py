"""CSV files that a spreadsheet opens as data, never as formulas (OWASP "CSV injection"), whatever
separator it splits them with; and the one strict reading of a CSV file's structure.

A spreadsheet does not always split a `.csv` file at commas: Excel uses the locale's list separator
(a semicolon in much of Europe) or the character of a first line `sep=X`; LibreOffice and Google
Sheets detect commas, semicolons, tabs and pipes. So `label;=WEBSERVICE(…)` is one harmless cell to
a comma reader and a formula to a semicolon reader. The neutraliser therefore works on the text,
for every reading at once:

- a reader starts a cell at the start of a line, after its separator (`,` `;` TAB `|` or the `sep=`
  character), inside a quote that opens a cell there, and after a quoted cell of blanks (`"  "=1+1`:
  a reader appends what follows the closing quote; `""` inside a quoted cell is a quote, not its end, so a
  cell never closed runs on over line breaks and is judged as such);
- where a cell, after the spaces and tabs a reader skips, begins with a formula character (`=`, `+`,
  `-`, `@` or their full-width forms), a `'` is inserted at the cell's start, so Excel, LibreOffice
  and Google Sheets show it as text;
- unless the cell, as every reader that starts a cell there cuts it, is a plain number (`-5`,
  `+3.2e-4`, `-1,5`, `-1.234,5`, `-5%`, or a lone sign) — or, where a reader cuts it longer, across
  another reader's separators (a semicolon reader of the comma line `-5,-4.99,2`), nothing but
  digits, decimal marks, signs, exponents, percent, quotes and separators: arithmetic that
  references and calls nothing. Numbers stay numbers. A cell is judged on its first 256 characters
  (a longer one that begins with a formula character gets its `'`), so the work is linear: a file
  of 16 MiB takes seconds whatever it holds.

Only `'` is inserted (never a separator, quote or line break), so no reading gains or loses a cell,
and a file with no such cell keeps its bytes. The rule over-approximates (a line `-5,x` gets its `'`
for the readers that see the whole line as one cell): a cell may show an extra `'`, a formula never
runs. tests/test_csv_formulas.py checks the promise against Python's csv reader for every separator,
quoted and unquoted, on generated text.

`structure_problem` is the strict reading (RFC 4180 quoting: a quoted cell is closed, and a closing
quote is followed by a separator or a line break) that validation applies to CSV attachments, for
one of the separators above; a `sep=` line naming a quote, a space, a line break or a formula
character is refused, the one input the neutraliser could not handle. Validation and publishing
use these same functions, so a file that validates is always published.
"""

from __future__ import annotations

import re
from functools import lru_cache

SEPARATORS = (",", ";", "\t", "|")
FORMULA = "=+-@＝＋－＠"  # the ASCII formula characters and their full-width forms
_BAD_SEP = set("\"' \r\n") | set(FORMULA)
_SEP_LINE = re.compile(r"\A\ufeff?sep=(.)(?:\r\n|\n|\r|\Z)")
# a plain number (or a lone sign, "no value"), as any locale writes it: no function, no reference, nothing to run
_NUMBER = re.compile(r"(?:[+\-＋－]?(?:[0-9][0-9.,]*|[.,][0-9][0-9.,]*)(?:[eE][+-]?[0-9]+)?%?|[+\-＋－]) *\Z")
# digits, decimal marks, signs, exponents, percent, quotes (a `'` this module inserted, too) and separators: arithmetic
# that references and calls nothing (no letter but e, no parenthesis, no `!`).
# A reader that cuts a cell longer than another (a semicolon reader across a comma file's "-5,-4.99,2") must see this.
_INERT_CHARS = "0123456789.,;|\t +-＋－eE%\"'"
_CELL_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")


class CsvRefused(ValueError):
    """A CSV file the neutraliser cannot make safe (a `sep=` line naming a quote, space, line break or formula character)."""


def sep_char(text: str) -> str | None:
    """The separator a first line `sep=X` names (Excel's convention), or None."""
    m = _SEP_LINE.match(text)
    return m.group(1) if m else None


def separators(text: str) -> tuple[str, ...]:
    """Every separator a spreadsheet may split this file with; CsvRefused for a `sep=` it cannot be neutralised for."""
    sep = sep_char(text)
    if sep is None or sep in SEPARATORS:
        return SEPARATORS
    if sep in _BAD_SEP or not sep.isprintable() and sep != "\t":
        raise CsvRefused(f"its first line sep={sep!r} names a separator that cannot be used safely "
                         "(a quote, a space, a line break or a formula character)")
    return (*SEPARATORS, sep)


SCAN = 256  # characters a cell's harmlessness is judged on: a longer cell that begins with a formula character gets its `'`


def _class(chars: str) -> str:
    return "".join(re.escape(c) for c in sorted(set(chars)))


@lru_cache(maxsize=8)
def _patterns(seps: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """(every position where a `'` goes; a quoted cell of blanks at a cell start followed by a formula
    character; the test that what follows it runs for some reader).

    A position gets a `'` when a reader starts a cell there (after its separator, at a line start, after
    the quote that opens a quoted cell) and the cell, after the blanks the reader skips, begins with a
    formula character and is not harmless. Regular expressions, so a file of 16 MiB is neutralised at
    the regex engine's speed; every cell is judged on its first SCAN characters, so the work stays
    linear whatever the file holds."""
    f = f"[{_class(FORMULA)}]"

    def number(d: str = "") -> str:  # a plain number, as the reader splitting at d cuts it (a comma reader ends it at a comma)
        mark = _class(".,".replace(d, "") if d else ".,")
        return rf"(?:[+\-＋－]?(?:[0-9][0-9{mark}]{{0,{SCAN}}}+|[{mark}][0-9][0-9{mark}]{{0,{SCAN}}}+)(?:[eE][+-]?[0-9]+)?%?|[+\-＋－]) *+"
    inert = _INERT_CHARS + "".join(seps)
    every_sep = _class("".join(seps))

    def danger(d: str) -> str:  # the reader splitting at d starts an unquoted cell here, and it runs
        stop = rf"(?=[{_class(d)}\r\n]|\Z)"
        body = _class(inert.replace(d, ""))
        other = _class("".join(seps).replace(d, ""))
        harmless = rf"(?:{number(d)}{stop}|(?=[{body}]{{0,{SCAN}}}?[{other}])[{body}]{{0,{SCAN}}}+{stop})"
        blanks = " *+" if d == "\t" else "[ \t]*+"
        return rf"(?={blanks}(?={f})(?!{harmless}))"

    def quoted_danger(d: str) -> str:  # the reader splitting at d opens a quoted cell with the quote just before
        stop = rf"(?=[{_class(d)}\r\n]|\Z)"
        content = _class(inert.replace('"', ""))
        after = _class(inert.replace(d, ""))
        other = _class("".join(seps).replace(d, ""))
        harmless = (rf'(?:{number()}"{stop}|(?=[{content}]{{0,{SCAN}}}?[{every_sep}]|[{content}]{{0,{SCAN}}}+"(?!")[{after}]{{0,{SCAN}}}?[{other}])'
                    rf'[{content}]{{0,{SCAN}}}+"(?!")[{after}]{{0,{SCAN}}}+{stop})')
        return rf"(?=[ \t]*+(?={f})(?!{harmless}))"

    any_reader = "(?:" + "|".join(danger(d) for d in seps) + ")"
    line = r"(?:\A|(?<=[\r\n\ufeff]))"
    alternatives = [rf"(?<={re.escape(d)}){danger(d)}" for d in seps]  # after a separator: the reader that splits there
    alternatives.append(line + any_reader)  # at a line start: every reader
    alternatives += [rf'(?<={re.escape(d)}"){quoted_danger(d)}' for d in seps]  # after a quote that opens a cell
    alternatives.append(rf'(?:(?<=\A")|(?<=[\r\n\ufeff]"))(?:' + "|".join(quoted_danger(d) for d in seps) + ")")
    starts = _class("".join(seps) + '\r\n\ufeff"')
    positions = re.compile(rf"(?:(?<=[{starts}])|\A)(?:" + "|".join(alternatives) + ")")
    blank_cell = re.compile(rf'(?:(?<=[{every_sep}\r\n\ufeff])|\A)"[ \t]*+"(?=[ \t]*+{f})')
    return positions, blank_cell, re.compile(any_reader)


def _harmless(extent: str, seps: tuple[str, ...]) -> bool:
    """A plain number; or, cut across other readers' separators, inert arithmetic."""
    return bool(_NUMBER.match(extent)) or (any(d in extent for d in seps) and all(c in _INERT_CHARS or c in seps for c in extent))


def neutralise_csv_text(text: str) -> str:
    """The text with a `'` at the start of every cell that any spreadsheet reading would run as a formula."""
    if not any(c in text for c in FORMULA):
        return text
    positions, blank_cell, runs = _patterns(separators(text))
    after_blank = [m.end() for m in blank_cell.finditer(text) if runs.match(text, m.end())]  # `"  "'=1+1`
    if after_blank:
        text = "'".join(text[a:b] for a, b in zip([0, *after_blank], [*after_blank, len(text)]))
    out = positions.sub("'", text)
    return text if out == text else out


def neutralise_csv_bytes(data: bytes) -> bytes:
    """A UTF-8 CSV file neutralised for every separator; the very same bytes when no cell needs it.
    Raises UnicodeDecodeError (not UTF-8) or CsvRefused (a `sep=` line it cannot handle)."""
    text = data.decode("utf-8")
    out = neutralise_csv_text(text)
    return data if out is text else out.encode("utf-8")


def is_formula(cell: str, separators: tuple[str, ...] = ()) -> bool:
    """Whether a spreadsheet would run this cell (as one reader cut it) as a formula: after any spaces or
    tabs it begins with a formula character, and it is not a plain number — nor, when it holds one of
    `separators` (a reader cut it longer than another would), inert arithmetic."""
    rest = cell.lstrip(" \t")
    return bool(rest) and rest[0] in FORMULA and not (_NUMBER.match(rest) or (separators and _harmless(rest, separators)))


def neutralise(cell: str) -> str:
    """One cell of a table wirespeed writes, with a leading `'` when it is a formula (is_formula) or begins
    with TAB or CR (OWASP). The file is then neutralised as text (neutralise_csv_text) for the other separators."""
    if is_formula(cell) or (cell.startswith(("\t", "\r")) and not _CELL_NUMBER.match(cell)):
        return "'" + cell
    return cell


needs_neutralising = is_formula


def neutralise_row(row: list[str]) -> list[str]:
    return [neutralise(c) for c in row]


def _lines_before(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + text.count("\r", 0, pos) - text.count("\r\n", 0, pos)


def _reader(sep: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(records, last record) of the strict reading with this separator: a cell is quoted (closed, `""` inside)
    or unquoted (no separator or line break; a quote only after its first character)."""
    d = re.escape(sep)
    field = rf'(?:"(?:[^"]++|"")*+"|[^{d}"\r\n][^{d}\r\n]*+)?+'
    return re.compile(rf"(?:{field}(?:{d}|\r\n|\n|\r))*+"), re.compile(rf"(?:{field}{d})*+{field}\Z")


_READERS = {d: _reader(d) for d in SEPARATORS}
_QUOTED = re.compile(r'"(?:[^"]++|"")*+"')


def structure_problem(text: str) -> tuple[int, str] | None:
    """(line, message) when the text is not CSV with strict quoting for any separator a spreadsheet
    uses (comma, `;`, TAB, `|` and the `sep=` character); None when one reading holds. The message
    is the comma reading's (or the `sep=` line's)."""
    try:
        seps = separators(text)
    except CsvRefused as exc:
        return 1, str(exc)
    first: tuple[int, str] | None = None
    for d in seps:
        records, last = _READERS.get(d) or _reader(d)
        pos = records.match(text).end()
        if last.match(text, pos):
            return None
        if first is None:
            closed = _QUOTED.match(text, pos)
            if closed is None:
                first = (_lines_before(text, pos) + 1, "a quoted cell is not closed: it runs to the end of the file")
            else:
                after = text[closed.end()]
                first = (_lines_before(text, closed.end()) + 1,
                         f"{after!r} after a closing quote: a quoted cell must be followed by a separator or a line break")
    return first
