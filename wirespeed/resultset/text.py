"""Inert text: no bidi controls, invisible characters, control characters or mixed-script names.

Every string of result.toml and every CSV cell is shown to readers (site, PDF, downloads). A bidi
override can reverse what a reader sees, a zero-width character can make one vendor look like two
different ones (or two like one), and a Cyrillic "о" inside "Cisco" is a look-alike of another name.
Such text is refused with one line naming the field (result.toml) or the line and column (CSV) and
the code point, e.g. `U+202E RIGHT-TO-LEFT OVERRIDE`. Strings an importer takes from a native file
pass the same rules (wirespeed.importers.gate).

Names are compared by their `skeleton` (Unicode TR #39: NFKC, then every character replaced by the
prototype of its confusable class): `Сіѕсо` (Cyrillic) and `Ｃｉｓｃｏ` (fullwidth) have the skeleton
of `Cisco` (wirespeed.resultset.lookalikes refuses such an imitation; the results filter groups by it).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

from confusable_homoglyphs import categories

from wirespeed.problems import Problem

# Bidirectional formatting characters (Unicode UAX #9): embeddings, overrides, isolates, marks.
BIDI = {*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C}
# Characters that render as nothing but are not of category Cf (format): fillers, grapheme joiner.
INVISIBLE_LETTERS = {0x115F, 0x1160, 0x3164, 0xFFA0, 0x034F}
ALLOWED_CONTROLS = {"\t", "\n"}
# Scripts whose letters look like Latin ones (the confusable alphabets): a word mixing two of them is a look-alike.
LOOKALIKE_SCRIPTS = {"LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE", "COPTIC"}
# result.toml keys whose values are names or identifiers (checked for mixed scripts as well).
NAME_KEYS = {"slug", "id", "title", "tags", "vendor", "model", "product", "name", "chassis", "publisher", "commissioned_by",
             "lab", "labels", "test", "check", "importer", "variant", "authors", "engineers", "document", "document_id", "version"}
MAX_PER_FILE = 20  # lines reported per file; the rest are counted in one more line
_WORD = re.compile(r"\w+")
_INVISIBLE_LETTERS = re.compile("[" + "".join(map(chr, sorted(INVISIBLE_LETTERS))) + "]")


def describe(ch: str) -> str:
    """'U+202E RIGHT-TO-LEFT OVERRIDE' (or the category when the code point has no name)."""
    name = unicodedata.name(ch, "")
    if not name:
        cat = unicodedata.category(ch)
        name = {"Cc": "<control>", "Co": "<private use>", "Cn": "<unassigned>", "Cs": "<surrogate>"}.get(cat, f"<{cat}>")
    return f"U+{ord(ch):04X} {name}"


def classify(ch: str) -> tuple[str, str] | None:
    """(rule, what) for a refused character, None for an allowed one."""
    cp = ord(ch)
    if ch in ALLOWED_CONTROLS:
        return None
    cat = unicodedata.category(ch)
    if cp in BIDI:
        return "text.invisible", "a bidirectional control character (it can reorder what readers see)"
    if cat == "Cc" or cat in ("Zl", "Zp"):
        return "text.control", "a control character (only tab and newline are allowed)"
    if cat == "Cf" or cp in INVISIBLE_LETTERS:
        return "text.invisible", "an invisible character (it can make one name look like another)"
    if cat in ("Co", "Cn", "Cs"):
        return "text.invisible", "a code point with no visible glyph (private use or unassigned)"
    return None


def _refused(s: str) -> Iterator[tuple[int, str, str, str]]:
    """(index, char, rule, what) for every refused character of a string; CR is allowed before LF."""
    if s.isprintable() and not _INVISIBLE_LETTERS.search(s):
        return  # fast path: no control, format, separator, private-use or unassigned character
    for i, ch in enumerate(s):
        if ch == "\r" and s[i + 1 : i + 2] == "\n":
            continue
        if (c := classify(ch)) is not None:
            yield i, ch, c[0], c[1]


def mixed_script(s: str) -> tuple[str, str, str] | None:
    """(word, scripts, first foreign character) for the first word that mixes look-alike scripts."""
    if s.isascii():
        return None
    for word in _WORD.findall(s):
        if word.isascii():
            continue
        scripts: dict[str, str] = {}
        for ch in word:
            if not ch.isalpha():
                continue
            alias = "LATIN" if ch.isascii() else categories.alias(ch)
            if alias in LOOKALIKE_SCRIPTS:
                scripts.setdefault(alias, ch)
        if len(scripts) > 1:
            names = sorted(scripts)
            main = "LATIN" if "LATIN" in scripts else names[0]
            foreign = next(ch for a, ch in scripts.items() if a != main)
            return word, " and ".join(n.title() for n in names), foreign
    return None


def _strings(value: Any, path: str, key: str) -> Iterator[tuple[str, str, str]]:
    """(field path, last key, string) for every string of a parsed TOML document, table keys included."""
    if isinstance(value, str):
        yield path, key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            sub = f"{path}.{k}" if path else str(k)
            yield sub, "<key>", str(k)
            yield from _strings(v, sub, str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{path}[{i}]", key)


def check_document(doc: dict[str, Any], file: str) -> list[Problem]:
    """Refused characters and mixed-script names in every string (and key) of a parsed result.toml."""
    problems: list[Problem] = []
    for path, key, s in _strings(doc, "", ""):
        for _i, ch, rule, what in _refused(s):
            problems.append(Problem(file, None, path, f"{describe(ch)} is {what}", rule))
            break  # one line per field
        else:
            if key in NAME_KEYS or key == "<key>":
                if (m := mixed_script(s)) is not None:
                    word, scripts, foreign = m
                    problems.append(Problem(file, None, path, f"{word!r} mixes {scripts} letters ({describe(foreign)}): a look-alike of another name", "text.mixed-script"))
        if len(problems) >= MAX_PER_FILE:
            problems.append(Problem(file, None, "", "more text problems not listed", "text.invisible"))
            break
    return problems


def check_cell(s: str, file: str, line: int, field: str) -> Problem | None:
    """The first refused character of one CSV cell (header or data), or None."""
    for i, ch, rule, what in _refused(s):
        return Problem(file, line, field, f"{describe(ch)} (character {i + 1} of the cell) is {what}", rule)
    return None


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character → the prototype of its confusable class, from the TR #39 confusables data that
    confusable_homoglyphs ships (confusables.json: each character with the characters it is confused
    with, both directions of every confusables.txt line). Each class is a prototype and the characters
    that map to it; where the prototype is several characters (m → rn) it is the class's only
    multi-character member, otherwise the class's smallest ASCII (else smallest) member stands for it:
    two strings get the same skeleton exactly when their TR #39 skeletons are equal."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for char, alikes in data.items():
        a = char.replace("\u200e", "")  # the data wraps right-to-left characters in marks
        for alike in alikes:
            ra, rb = find(a), find(alike["c"].replace("\u200e", ""))
            if ra != rb:
                parent[ra] = rb
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(find(x), []).append(x)
    out: dict[str, str] = {}
    for group in members.values():
        multi = [m for m in group if len(m) > 1]
        proto = multi[0] if multi else min(group, key=lambda m: (not m.isascii(), m))
        out.update({m: proto for m in group if len(m) == 1 and m != proto})
    return out


def skeleton(name: str) -> str:
    """The TR #39 skeleton of a name after NFKC, with runs of spaces as one space: equal for names that
    look alike (`Сіѕсо`, `Ｃｉｓｃｏ`, `Cisco`), different for names a reader can tell apart (`Cisco`, `CISCO`)."""
    protos = _prototypes()
    s = name
    for _ in range(4):  # to a fixed point: a prototype may hold characters NFKC or the table map again (% → º/₀ → o/0)
        step = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", s))
        step = "".join(protos.get(ch, ch) for ch in step if unicodedata.category(ch) != "Cf")
        if step == s:
            break
        s = step
    return " ".join(unicodedata.normalize("NFD", s).split())


def group_key(name: str) -> str:
    """The key names are grouped by where case does not matter (the results filter): the skeleton, case-folded."""
    return skeleton(unicodedata.normalize("NFKC", name).casefold())
