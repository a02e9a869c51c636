"""Did-you-mean hints for names a contributor mistyped: columns, units, test ids, variants, enums."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str], n: int = 3) -> str:
    """' (did you mean 'a' or 'b'?)' for the closest choices, or '' when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=n, cutoff=0.6)
    if not close:
        close = [c for c in choices if c.lower() == word.lower()][:1]
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


def listing(choices: Iterable[str], most: int = 24) -> str:
    """'a, b, c' (cut after `most`)."""
    items = list(choices)
    shown = ", ".join(items[:most])
    return shown + (f", … ({len(items) - most} more)" if len(items) > most else "")
