"""Rendering the test-bed diagram of a set (presentation/testbed_diagram.py's DOT source) with Graphviz's `dot`:
the SVG the web page shows (said in fewer bytes: presentation/svgtree.py lean_diagram) and the PDF the report prints,
both from one source, written beside the set's other site files. The PDF loses its creation date and is rewritten byte-stable (system/reproducible.py)."""

from __future__ import annotations

import io
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from wirespeed.presentation import svgtree
from wirespeed.presentation.testbed_diagram import dot
from wirespeed.system import atomic
from wirespeed.system.reproducible import stable_pdf

SVG, PDF = "testbed.svg", "testbed.pdf"
TIMEOUT_S = 60


class DiagramError(RuntimeError):
    """Graphviz is missing or failed: one line naming the set and the cause."""


def render(data: dict[str, Any], dest: Path) -> dict[str, str]:
    """Write dest/testbed.svg and dest/testbed.pdf for the set; returns their names by kind ("svg", "pdf").
    One `dot` lays the graph out once and writes both (two pipes laid it out twice, in two processes)."""
    import pikepdf

    with tempfile.TemporaryDirectory(prefix="wirespeed-dot-") as tmp:
        out = Path(tmp)
        try:
            proc = subprocess.run(["dot", "-Tsvg", "-o", str(out / SVG), "-Tpdf", "-o", str(out / PDF)], input=dot(data).encode("utf-8"),
                                  capture_output=True, timeout=TIMEOUT_S)
        except FileNotFoundError:
            raise DiagramError(f"{data['slug']}: the test-bed diagram needs Graphviz's dot (Debian/Ubuntu package graphviz; `make` installs it)") from None
        except subprocess.TimeoutExpired:
            raise DiagramError(f"{data['slug']}: Graphviz took more than {TIMEOUT_S} s to draw the test-bed diagram") from None
        if proc.returncode != 0 or not (out / SVG).is_file() or not (out / PDF).is_file():
            raise DiagramError(f"{data['slug']}: Graphviz could not draw the test-bed diagram: {proc.stderr.decode(errors='replace').strip()[:200]}")
        svg, pdf = (out / SVG).read_bytes(), (out / PDF).read_bytes()
    with pikepdf.open(io.BytesIO(pdf)) as doc:  # no creation date: the same set draws the same bytes
        if "/Info" in doc.trailer:
            del doc.trailer["/Info"]
        buf = io.BytesIO()
        doc.save(buf)
    atomic.write_text(dest / SVG, svgtree.lean_diagram(svg.decode("utf-8")))
    atomic.write_bytes(dest / PDF, stable_pdf(buf.getvalue()))
    return {"svg": SVG, "pdf": PDF}
