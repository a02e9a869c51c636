"""A device's name as a reader sees it: the full name (vendor and model, the vendor said once) and a short one for a
row label or a card (the model cut before its description: "Catalyst 6509-E with Virtual Switching System" is the
Catalyst 6509-E; "kernel 6.18 in a network namespace, veth ports" is Linux kernel 6.18)."""

from __future__ import annotations

import re

from wirespeed.engine.names import full  # noqa: F401 - the full name is the engine's (the catalog stores it too)

SHORT_CHARS = 48  # a short name longer than this is cut at a word, with an ellipsis
# where a model's name ends and its description begins
_DESCRIPTION = re.compile(r"\s+(?:with|in|on|using|via|over|behind)\s+|\s*[,;(:—–]\s*|\s+-\s+")


def short(vendor: str, model: str) -> str:
    """The name without the model's description, at most SHORT_CHARS characters: 'Cisco Catalyst 6509-E'."""
    name = full(vendor, model)
    head = _DESCRIPTION.split(name, maxsplit=1)[0].strip() or name
    if len(head) <= SHORT_CHARS:
        return head
    cut = head[: SHORT_CHARS - 1].rsplit(" ", 1)[0].rstrip(" ,;:-")
    return (cut or head[: SHORT_CHARS - 1]) + "…"
