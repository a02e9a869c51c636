"""The executive summary that opens a PDF report on the page after its cover, as a lab's report does: the summary
in words (the set's own, else what the report holds: holdings), the headline figures (the site data's cards, report/headlines.py), the key findings (the
article's findings box, moved here), and the set's summary chart across its tests; the contents follow it."""

from __future__ import annotations

from typing import Any

from wirespeed.presentation import devicename
from wirespeed.report import pandoc_ast as A

TITLE = "Executive summary"
HERE = {"t": "RawBlock", "c": ["latex", "{\\makeatletter\\def\\fps@figure{H}\\makeatother"]}
CONTENTS = {"t": "RawBlock", "c": ["latex", "\\clearpage\\wsContents"]}  # the template's contents and lists, on a page of their own


def take_findings(blocks: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The article's first findings box, and the article without it."""
    for i, b in enumerate(blocks):
        if b.get("t") == "Div" and "findings" in b["c"][0][1]:
            return [b], blocks[:i] + blocks[i + 1:]
    return [], blocks


def holdings(data: dict[str, Any], headlines: bool) -> str:
    """What the report holds, in a sentence, for a set that gives no summary of its own (a set imported from a tool's
    output): its tests, the device and the instrument; and, when it marks no headline figure, where its figures are. A
    summary page that held nothing but its heading is what a reader met before."""
    dut, ins = data.get("dut") or {}, data.get("instrument") or {}
    tests = [t.get("title") or t.get("id", "") for t in data.get("tests") or []]
    device = devicename.full(dut.get("vendor"), dut.get("model"))  # the vendor once, as the cover and the test bed name it
    instrument = devicename.full(ins.get("vendor"), ins.get("product"))
    what = (f"{len(tests)} test{'s' if len(tests) != 1 else ''}" + (f" of the {device}" if device else "")
            + (f", measured with {instrument}" if instrument else "")
            + (f": {'; '.join(tests)}." if tests else "."))
    return f"This report holds {what}" + ("" if headlines else " It marks no headline figure: each figure is in its test's tables.")


def summary_blocks(data: dict[str, Any], summary: str, headlines: list[dict[str, Any]], findings: list[dict[str, Any]], doc: Any) -> list[dict[str, Any]]:
    """The executive summary's blocks, the contents after them."""
    out = [A.header(1, TITLE, ident="executive-summary", classes=["unnumbered"])]
    out.append(A.para(summary or holdings(data, bool(headlines))))
    out += headlines + findings
    if data.get("summary_chart"):  # here, on the summary's page: not floated away
        out += [HERE, *doc.chart(data["summary_chart"], f"executive summary of {data['slug']}"), {"t": "RawBlock", "c": ["latex", "}"]}]
    return out + [CONTENTS]
