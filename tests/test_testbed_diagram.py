"""The test-bed diagram (wirespeed/site/diagrams.py): one `dot` lays the graph out and writes the SVG the page shows
and the PDF the report prints; both carry the set's own words, even markup and DOT syntax in them; the PDF has no
creation date, so the same set draws the same bytes; without Graphviz, one line names the set and the package."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from wirespeed.site import diagrams

pytestmark = pytest.mark.slow  # runs Graphviz's dot

HOSTILE = 'R1 "core" <b>bold</b> & {x -> y}; ]] \\N'
BED = {
    "slug": "hostile-bed",
    "dut": {"vendor": "Acme", "model": HOSTILE, "chassis": "4-slot <chassis>", "count": 2,
            "components": [{"model": "RSP440-SE", "count": 2}], "software": [{"name": "IOS XR", "version": "5.1.3"}]},
    "instrument": {"vendor": "Cisco", "product": "T-Rex", "modules": ["2 × Intel X710 & \"quad\""], "software": [{"name": "t-rex", "version": "v2.89"}]},
    "tests": [{"title": "L2 cross-connect </TD></TR>", "ports": 2, "port_speed": "10G", "topology": "port-pairs", "direction": "bidirectional"},
              {"title": "IPv4 routing", "ports": 4, "port_speed": "10G", "topology": "full-mesh", "direction": "unidirectional"}],
}


def _svg_text(svg: bytes) -> str:
    root = ET.fromstring(svg)
    return " ".join(t for el in root.iter() if el.tag.endswith("text") for t in el.itertext())


def test_one_dot_draws_both_with_the_sets_own_words(tmp_path):
    import pikepdf

    names = diagrams.render(BED, tmp_path)
    assert names == {"svg": "testbed.svg", "pdf": "testbed.pdf"}
    svg, pdf = (tmp_path / "testbed.svg").read_bytes(), (tmp_path / "testbed.pdf").read_bytes()
    text = _svg_text(svg)
    for words in ('"core"', "<b>bold</b>", "{x", "4-slot <chassis>", "2 × Intel X710", "T-Rex", "IOS XR 5.1.3", "L2 cross-connect </TD></TR>"):
        assert words in text, (words, text)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == 1 and "/Info" not in doc.trailer
    # the page's SVG is Graphviz's, leaner (no titles, ids, classes, comments; attributes said once): the same pixels
    import subprocess

    import vl_convert as vlc

    from wirespeed.presentation import svgtree
    from wirespeed.presentation.testbed_diagram import dot

    raw = subprocess.run(["dot", "-Tsvg"], input=dot(BED).encode("utf-8"), capture_output=True, check=True).stdout.decode("utf-8")
    assert svg.decode("utf-8") == svgtree.lean_diagram(raw) and len(svg) < 0.75 * len(raw.encode("utf-8"))
    assert b"<title>" not in svg and b"<!--" not in svg and b' class="' not in svg
    assert vlc.svg_to_png(svg.decode("utf-8")) == vlc.svg_to_png(raw)
    again = tmp_path / "again"
    again.mkdir()
    diagrams.render(BED, again)
    assert (again / "testbed.svg").read_bytes() == svg and (again / "testbed.pdf").read_bytes() == pdf


def test_without_graphviz_one_line_names_the_set_and_the_package(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot on it
    with pytest.raises(diagrams.DiagramError) as err:
        diagrams.render(BED, tmp_path)
    message = str(err.value)
    assert message.startswith("hostile-bed: ") and "graphviz" in message and "\n" not in message
    assert not (tmp_path / "testbed.svg").exists() and not (tmp_path / "testbed.pdf").exists()
