"""Issue 25 (one owner per fact): a table column's alignment is decided once, by the table model, from what the
column prints; the web table (layouts/_partials/result-table.html) and the PDF (report/shortcodes.py) both read it.
Before, the web looked at the cells and the PDF at the column's key, and they disagreed on 61 of 454 columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from wirespeed.presentation.tables.model import Cell, Column, ResultTable, alignment


@pytest.mark.parametrize(("texts", "align"), [
    (["64", "1,518", "9,216"], "right"),  # frame sizes, the first column too
    (["64", "IMIX"], "left"),  # one word makes it a column of text
    (["9.752", "<0.1", "—", "n/a"], "right"),  # qualifiers and blanks do not make it text
    (["1\u202f000", "99.9 %", "−3.2", "1e-5"], "right"),
    (["", "—"], "left"),  # nothing printed: nothing to align
    (["2/3", "a→b"], "left"),
    (["unidirectional", "bidirectional"], "left"),
])
def test_a_column_of_printed_numbers_aligns_right(texts, align):
    assert alignment(texts) == align


def _table() -> ResultTable:
    cols = [Column("frame_size", "Frame size", "bytes"), Column("direction", "Direction"), Column("throughput", "Throughput", "frames/s")]
    rows = [[Cell("64"), Cell("east→west"), Cell("14,880,952")], [Cell("1518"), Cell("west→east"), Cell("—")]]
    return ResultTable("t-results", "T", "c", "t", cols, rows)


def test_the_table_model_states_each_column_s_alignment():
    assert [c["align"] for c in _table().to_dict()["columns"]] == ["right", "left", "right"]


def test_the_pdf_aligns_the_columns_as_the_model_says():
    from wirespeed.report.shortcodes import _Doc

    table = _table().to_dict()
    table["figs"] = [[None] * 3 for _ in table["rows"]]
    doc = _Doc({"slug": "s", "tables": {"t-results": table}}, Path("/nonexistent"), {})
    found = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("t") == "Table":
                found.append([spec[0]["t"] for spec in node["c"][2]])  # the column specs: (alignment, width)
                return
            walk(node.get("c"))
        elif isinstance(node, list):
            for n in node:
                walk(n)

    walk(doc.table("t-results", "test"))
    assert found == [["AlignRight", "AlignLeft", "AlignRight"]]
