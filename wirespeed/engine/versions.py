"""Version-aware ordering of software versions, and the order of a trend series' result sets.

Versions are compared the way dpkg compares them (deb-version(7)), which suits the strings labs and
CI systems print ("7.0(3)I7(9)", "23.10-rc0~105-g1a2b3c", "6.18.44"): runs of digits compare as
numbers, other characters by ASCII with letters before non-letters, and "~" before anything, even the
end of the string ("23.10~rc1" < "23.10"). Any string has a key, so no version is ever refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

def _char_order(c: str) -> int:
    """dpkg's order of one non-digit character: '~' first, then the end of a part, letters, the rest."""
    if c == "~":
        return -1
    if c.isalpha():
        return ord(c)
    return ord(c) + 256


def version_key(text: str) -> tuple:
    """A sort key for a version string: pairs of (non-digit part, number), as dpkg compares them."""
    pairs = []
    for other, digits in re.findall(r"(\D*)(\d*)", str(text).strip()):
        if other or digits:
            # the end of a non-digit part (0) sorts after '~' (-1) and before any other character
            pairs.append((tuple(_char_order(c) for c in other) + (0,), int(digits or 0)))
    # the end of the string reads as an empty part and 0, so "1.0~rc1" < "1.0" < "1.0.1" < "1.0a"
    return tuple(pairs) + (((0,), 0),)


@dataclass(frozen=True)
class Placed:
    """A result set as a trend series orders it: its software (component name → version, in the set's
    order), the date it was measured (YYYY[-MM[-DD]], or None) and its slug, the last tie-break."""

    slug: str
    software: tuple[tuple[str, str], ...]
    date: str | None


@dataclass(frozen=True)
class Order:
    """The order of a series: the sets, oldest first; by "version" (the components named, compared
    version-aware in turn, then the date) or by "date"; and the components whose versions differ."""

    slugs: tuple[str, ...]
    by: str
    components: tuple[str, ...]


def order(sets: Iterable[Placed]) -> Order:
    """Order result sets by the versions of the software every one of them names (in the first set's
    order of components), then by the components two or more of them name but some do not (a set that
    does not name one sorts before every version of it, as dpkg orders a package not installed before
    any version), then by date and slug; by date and slug alone when they share no component or no
    component's version differs."""
    sets = list(sets)
    if not sets:
        return Order((), "date", ())
    named = [dict(s.software) for s in sets]
    shared = [name for name, _ in sets[0].software if all(name in n for n in named[1:])]
    partial: list[str] = []
    if shared:
        for s in sets:
            for name, _ in s.software:
                if name not in shared and name not in partial and sum(name in n for n in named) >= 2:
                    partial.append(name)
    ranked_by = shared + partial
    varying = tuple(name for name in ranked_by if len({n.get(name) for n in named}) > 1)
    date_key = lambda s: (s.date is None, s.date or "", s.slug)  # noqa: E731 - an undated set goes last
    if varying:
        def key(s: Placed) -> tuple:
            n = dict(s.software)
            return (tuple((name in n, version_key(n[name]) if name in n else ()) for name in ranked_by), date_key(s))

        ranked = sorted(sets, key=key)
        return Order(tuple(s.slug for s in ranked), "version", varying)
    return Order(tuple(s.slug for s in sorted(sets, key=date_key)), "date", ())
