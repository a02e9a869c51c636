"""A chart drawing's SVG said in fewer elements and attributes, drawing the same pixels (the second half of
drawings.lean_svg, over the parsed tree where the first half edits tags one by one).

vl-convert writes what Vega's scene graph holds: a group per mark and per axis part, most of them with no attribute of
their own, and every tick, label and point with its own copy of its colour, size and anchor and its own
`translate(x,y)`. Over the tree:

- a group with no attribute is replaced by its children (it changes nothing they inherit);
- a presentation attribute that SVG inherits and that every child of a group sets to the same value is said once, on
  the group (no child relied on the group's own value, since each set its own);
- a text or line whose only transform is a translation, with no children to move along, takes it into its
  coordinates (x and y; x1, y1, x2 and y2), and a line's coordinate of 0, SVG's initial value, is left out.

Text (titles, labels, tick values) is never edited: the parser reads it and the writer escapes it again as XML must
(vl-convert escapes the same characters)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG_NS, XLINK_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)

# Inherited presentation attributes (SVG 1.1's property index, "Inherited: yes"); never opacity, transform or a clip.
INHERITED = ("fill", "fill-opacity", "stroke", "stroke-opacity", "stroke-width", "stroke-dasharray", "stroke-dashoffset",
             "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "font-family", "font-size", "font-style",
             "font-weight", "text-anchor")
_SHAPES = {"path", "line", "rect", "circle", "ellipse", "polyline", "polygon"}
_DRAWN = _SHAPES | {"g", "text", "image", "use"}
_TRANSLATE = re.compile(r"translate\((-?[\d.]+)(?:[ ,](-?[\d.]+))?\)")


def _name(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def hundredths(value: float) -> str:
    """A coordinate to a hundredth of a pixel, without trailing zeros ("12.5", "3", never "-0")."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def lean_tree(svg: str) -> str:
    """`svg` (one SVG document, as vl-convert and drawings.lean_svg's first half write it) with the rewrites above."""
    root = ET.fromstring(svg)
    _unpainted(root, {"fill": "#000", "stroke": "none"})
    _hoist(root)
    _unwrap(root)  # groups with no attribute, some of them left so by the hoisting
    for el in root.iter():
        _translate_into_coordinates(el)
    # the writer's space before "/>": nowhere else, since it escapes every ">" of a text or a value
    return ET.tostring(root, encoding="unicode", short_empty_elements=True).replace(" />", "/>")


_STROKE_ONLY = ("stroke-width", "stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin",
                "stroke-miterlimit", "stroke-opacity")


def _unpainted(parent: ET.Element, paint: dict[str, str]) -> None:
    """Under a group (never inside a clip path or other definition, whose shapes are geometry): a shape with neither
    fill nor stroke (vl-convert's group backgrounds) is left out, and a shape without a stroke loses the attributes
    that only shape a stroke."""
    kids: list[ET.Element] = []
    for child in parent:
        name = _name(child.tag)
        own = {k: child.get(k, v) for k, v in paint.items()}
        if name in ("g", "svg"):
            _unpainted(child, own)
        elif name in _SHAPES and not len(child) and "style" not in child.attrib:  # paint in CSS: left as it is
            if own["stroke"] == "none" and (own["fill"] == "none" or name == "line"):
                continue
            if own["stroke"] == "none":
                for attr in _STROKE_ONLY:
                    child.attrib.pop(attr, None)
        kids.append(child)
    parent[:] = kids


def lean_diagram(svg: str) -> str:
    """A test-bed diagram as Graphviz draws it (dot -Tsvg), said in fewer bytes: without its XML declaration, document
    type and comments (the parser keeps none), its elements' names and classes (ids and classes nothing styles or
    links: the page shows the drawing as an image) and their titles (node names like "dut", which an image shows
    nobody), then with lean_tree's rewrites. Its text is never edited."""
    root = ET.fromstring(svg)
    for el in list(root.iter()):  # the whole tree first: the loop takes titles out of it
        for title in [c for c in el if _name(c.tag) == "title"]:
            el.remove(title)
        for attr in ("id", "class"):
            el.attrib.pop(attr, None)
    return lean_tree(ET.tostring(root, encoding="unicode"))


def _unwrap(parent: ET.Element) -> None:
    kids: list[ET.Element] = []
    for child in parent:
        _unwrap(child)
        if _name(child.tag) == "g" and not child.attrib and not (child.text or "").strip() and not (child.tail or "").strip():
            kids.extend(child)
        else:
            kids.append(child)
    parent[:] = kids


# What only text reads (a shape draws the same with or without it): said once on a group when every text and group
# among its children says it alike, whatever its shapes say.
TEXT_ONLY = ("font-family", "font-size", "font-style", "font-weight", "text-anchor")


def _hoist(parent: ET.Element) -> None:
    for child in parent:
        _hoist(child)
    kids = list(parent)
    if _name(parent.tag) not in ("g", "svg") or not kids or any(_name(k.tag) not in _DRAWN for k in kids):
        return
    for attr in INHERITED:
        readers = [k for k in kids if attr not in TEXT_ONLY or _name(k.tag) not in _SHAPES]
        values = {k.get(attr) for k in readers}
        if readers and len(values) == 1 and None not in values and (len(kids) > 1 or attr in parent.attrib):
            parent.set(attr, values.pop())
            for k in kids:
                k.attrib.pop(attr, None)


def _translate_into_coordinates(el: ET.Element) -> None:
    name = _name(el.tag)
    if name not in ("text", "line") or len(el):
        return
    m = _TRANSLATE.fullmatch(el.get("transform", ""))
    if not m:
        if name == "line":
            _zeros(el)
        return
    dx, dy = float(m[1]), float(m[2] or 0)
    if name == "line" and not (dx.is_integer() and dy.is_integer()):  # a cap at a fraction may fall a shade differently
        _zeros(el)
        return
    pairs = (("x", "y"),) if name == "text" else (("x1", "y1"), ("x2", "y2"))
    if name == "text" and any(a in el.attrib for a in ("x", "y", "dx", "dy", "rotate")):
        return
    del el.attrib["transform"]
    for ax, ay in pairs:
        for attr, shift in ((ax, dx), (ay, dy)):
            value = float(el.get(attr, "0")) + shift
            el.set(attr, hundredths(value))
    if name == "line":
        _zeros(el)


def _zeros(line: ET.Element) -> None:
    for attr in ("x1", "y1", "x2", "y2"):
        if line.get(attr) == "0":
            del line.attrib[attr]
