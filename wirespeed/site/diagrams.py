"""Rendering the test-bed diagram of a set (presentation/testbed_diagram.py's DOT source) with Graphviz's `dot`:
the SVG the web page shows and the PDF the report prints, both from one source, written beside the set's
other site files. The PDF loses its creation date and is rewritten byte-stable (system/reproducible.py)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from wirespeed.presentation.testbed_diagram import dot
from wirespeed.system import atomic
from wirespeed.system.reproducible import stable_pdf

SVG, PDF = "testbed.svg", "testbed.pdf"


class DiagramError(RuntimeError):
    """Graphviz is missing or failed: one line naming the set and the cause."""


def render(data: dict[str, Any], dest: Path) -> dict[str, str]:
    """Write dest/testbed.svg and dest/testbed.pdf for the set; returns their names by kind ("svg", "pdf")."""
    import graphviz
    import pikepdf

    source = graphviz.Source(dot(data))
    try:
        svg = source.pipe(format="svg")
        pdf = source.pipe(format="pdf")
    except graphviz.ExecutableNotFound:
        raise DiagramError(f"{data['slug']}: the test-bed diagram needs Graphviz's dot (Debian/Ubuntu package graphviz; `make` installs it)") from None
    except graphviz.CalledProcessError as exc:
        raise DiagramError(f"{data['slug']}: Graphviz could not draw the test-bed diagram: {(exc.stderr or b'').decode(errors='replace').strip()[:200]}") from None
    with pikepdf.open(io.BytesIO(pdf)) as doc:  # no creation date: the same set draws the same bytes
        if "/Info" in doc.trailer:
            del doc.trailer["/Info"]
        out = io.BytesIO()
        doc.save(out)
    atomic.write_bytes(dest / SVG, svg)
    atomic.write_bytes(dest / PDF, stable_pdf(out.getvalue()))
    return {"svg": SVG, "pdf": PDF}
