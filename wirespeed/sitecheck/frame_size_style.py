"""Rule frame-size-style: a frame size prints as the tables print it, without a thousands separator ("9216-byte",
"9216 bytes", never "9,216 bytes")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wirespeed.problems import Problem
from wirespeed.sitecheck.numbers import snippet
from wirespeed.sitecheck.site import Site

RULE = "frame-size-style"
GROUPED_SIZE = re.compile(r"(?<![\w.,])(\d{1,2},\d{3})(?:-byte|[ \u00a0]bytes?\b|[ \u00a0]B\b)")


def check_frame_sizes(site: Site) -> Iterator[Problem]:
    """Frame sizes in text print as in the tables: '9216 bytes', not '9,216 bytes'."""
    for t in site.texts():
        for m in GROUPED_SIZE.finditer(t.text):
            yield Problem(t.page, None, t.where, f"frame size {m.group(1)} printed with a thousands separator (tables print {m.group(1).replace(',', '')}) "
                          f"in “{snippet(t.text, m.start(), m.end())}”", RULE)
