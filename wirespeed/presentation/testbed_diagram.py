"""The test-bed diagram of a result set as Graphviz DOT source, from what the set declares: the instrument
(product, modules, software), the device under test (count, model, chassis, components, software) and, per
group of tests that share them, the links between the two (ports, port speed, traffic pattern, direction).
Pure: site/data.py renders it with Graphviz once, as the SVG the web page shows and the PDF the report
prints, so both draw the same diagram."""

from __future__ import annotations

from typing import Any

from wirespeed.presentation.testbed import software_text
from wirespeed.presentation import devicename

FONT = "DejaVu Sans"
WRAP = 44  # characters per line of a box's text
LINK_WRAP = 28  # characters per line of a link's label: links stand side by side between the instrument above and the device below,
# so that the diagram stays narrow enough for a report's page at full size (its 10 pt text never under 7 pt there)
INK, MUTED, FILL, ACCENT = "#1b1d1f", "#59606a", "#f4f6f8", "#0a58ca"
BREAK = '<BR ALIGN="LEFT"/>'
PATTERN = {"full-mesh": "full mesh", "partial-mesh": "partial mesh", "port-pairs": "port pairs", "multicast": "multicast", "chain": "chain"}


def _esc(text: str) -> str:
    """Text for an HTML-like Graphviz label: markup characters escaped (every string here comes from a result set)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _wrap(text: str, width: int = WRAP) -> list[str]:
    import textwrap

    return textwrap.wrap(str(text), width) or [""]


def _box(title: str, lines: list[tuple[str, str]]) -> str:
    """An HTML-like label: a bold title, then (style, text) lines, each wrapped; style "muted" is grey."""
    head = BREAK.join(_esc(t) for t in _wrap(title))
    rows = [f'<TR><TD ALIGN="LEFT"><B>{head}{BREAK}</B></TD></TR>']
    for style, text in lines:
        color = MUTED if style == "muted" else INK
        body = BREAK.join(_esc(t) for t in _wrap(text))
        rows.append(f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="10" COLOR="{color}">{body}{BREAK}</FONT></TD></TR>')
    return "<<TABLE BORDER=\"0\" CELLSPACING=\"1\" CELLPADDING=\"1\">" + "".join(rows) + "</TABLE>>"


def link_groups(tests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tests grouped by the links they use: ports, port speed, pattern, direction (and multicast fan-out), in test order."""
    groups: dict[tuple, dict[str, Any]] = {}
    for t in tests:
        key = (t["ports"], t["port_speed"], t["topology"], t["direction"], t.get("transmitters"), t.get("receivers"))
        groups.setdefault(key, {"ports": t["ports"], "speed": t["port_speed"], "pattern": PATTERN.get(t["topology"], t["topology"]),
                                "direction": t["direction"], "transmitters": t.get("transmitters"), "receivers": t.get("receivers"), "tests": []})["tests"].append(t["title"])
    return list(groups.values())


def dot(data: dict[str, Any]) -> str:
    """DOT source of the set's test bed (site data: dut, instrument, tests)."""
    dut, ins = data["dut"], data["instrument"]
    count = int(dut.get("count") or 1)
    dut_lines = [("muted", dut["chassis"])] if dut.get("chassis") else []
    for c in dut.get("components", [])[:6]:
        dut_lines.append(("", (f"{c['count']} × " if c.get("count") else "") + c["model"]))
    if dut.get("software"):
        dut_lines.append(("muted", software_text(dut["software"])))
    ins_lines = [("", m) for m in ins.get("modules", [])[:4]]
    if ins.get("software"):
        ins_lines.append(("muted", software_text(ins["software"])))
    out = ["digraph testbed {", '  graph [rankdir=TB, bgcolor="transparent", pad="0.15", nodesep="0.35", ranksep="0.9", '
           f'fontname="{FONT}", fontsize=10];',
           f'  node [shape=box, style="rounded,filled", fillcolor="{FILL}", color="{MUTED}", penwidth=1.2, fontname="{FONT}", fontsize=11, fontcolor="{INK}", margin="0.15,0.08"];',
           f'  edge [color="{ACCENT}", penwidth=1.6, fontname="{FONT}", fontsize=10, fontcolor="{INK}", arrowsize=0.7];',
           f'  instrument [label={_box("Test instrument: " + devicename.full(ins["vendor"], ins["product"]), ins_lines)}];',
           f'  dut [label={_box("Device under test: " + (f"{count} × " if count > 1 else "") + dut["vendor"] + " " + dut["model"], dut_lines)}, penwidth=2, color="{INK}"];']
    for i, g in enumerate(link_groups(data["tests"])):
        fan = f", {g['transmitters']} → {g['receivers']} ports" if g.get("transmitters") and g.get("receivers") else ""
        names = g["tests"] if len(g["tests"]) <= 3 else g["tests"][:2] + [f"{len(g['tests']) - 2} more"]
        label = [f"{g['ports']} × {g['speed']} ports, {g['pattern']}{fan}", g["direction"], "Tests: " + "; ".join(names)]
        text = BREAK.join(_esc(line) for part in label for line in _wrap(part, LINK_WRAP))
        arrows = "both" if g["direction"] == "bidirectional" else "forward"
        out.append(f'  instrument -> dut [dir={arrows}, label=<<FONT POINT-SIZE="10">{text}{BREAK}</FONT>>];')
    out.append("}")
    return "\n".join(out) + "\n"


def alt(data: dict[str, Any]) -> str:
    """The diagram in words (its text alternative)."""
    dut, ins = data["dut"], data["instrument"]
    count = int(dut.get("count") or 1)
    links = "; ".join(f"{g['ports']} × {g['speed']} ports, {g['pattern']}, {g['direction']}, for {', '.join(g['tests'])}" for g in link_groups(data["tests"]))
    return (f"Test bed: the test instrument, {devicename.full(ins['vendor'], ins['product'])}, connected to the device under test, "
            f"{f'{count} × ' if count > 1 else ''}{dut['vendor']} {dut['model']}, by {links}.")
