"""The PDF step survives any valid text: long unbroken strings break instead of crashing XeLaTeX, a
LaTeX failure is reported by its first `!` error and the line, and pandoc/XeLaTeX run with a deadline."""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from conftest import ARCHIVE, ROOT, run_cli
from pipeline import BUILD
from wirespeed.report import latex
from wirespeed.report import shortcodes, typesetting
from wirespeed.report import pandoc_ast as A
SET = "cisco-7600-osm-acl-2001"
TITLE = "Title-0123456789" * 250  # 4,000 characters, no space: the schema's longest text
CELL = "K" + "eyCell-0123456789" * 15  # 256 characters, one token
assert len(TITLE) == 4000 and len(CELL) == 256


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _api() -> list[int]:
    return shortcodes._api_version()


def _doc(blocks: list, title: str = "Robustness") -> dict:
    meta = {"title": A.meta_inlines(title), "report-number": A.meta_inlines("robustness"), "publisher": A.meta_inlines("wirespeed")}
    return A.document(A.breakable(meta), A.breakable(blocks), _api())


@pytest.mark.slow
def test_longest_title_and_key_cell_build_a_report_that_prints_them(tmp_path):
    """A valid set (the 7600 set with a 4,000-character title and a 256-character component) through the real pipeline."""
    work = tmp_path / "work"
    (work / "data" / "results").mkdir(parents=True)
    for name in ("notebooks", "reports"):
        (work / name).symlink_to(ROOT / name)
    dest = work / "data" / "results" / SET
    shutil.copytree(ARCHIVE / SET, dest)
    toml = dest / "result.toml"
    text = toml.read_text(encoding="utf-8")
    old_title = tomllib.loads(text)["title"]
    toml.write_text(text.replace(f'title = "{old_title}"', f'title = "{TITLE}"', 1), encoding="utf-8")
    csv = dest / "cpu.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace(",NMP,", f",{CELL},"), encoding="utf-8")
    assert tomllib.loads(toml.read_text(encoding="utf-8"))["title"] == TITLE and CELL in csv.read_text(encoding="utf-8")
    for step in (["validate"], ["ingest"], ["analyse"], ["site", "--data-only"]):
        run_cli(*step, cwd=work, check=True)
    proc = run_cli("report", cwd=work)
    assert proc.returncode == 0, proc.stderr
    text = squash(typesetting.pdf_text(work / "build" / "reports" / f"{SET}.pdf"))
    assert TITLE in text
    assert CELL in text


@pytest.mark.slow
def test_a_ten_thousand_character_cell_and_heading_do_not_crash_xelatex(tmp_path):
    cell = "x" * 10_000
    head = [[("Key", "AlignLeft", 1, 1), ("Value", "AlignRight", 1, 1)]]
    rows = [[(cell, "AlignLeft"), ("1", "AlignRight")]]
    blocks = [A.header(1, "H" * 4000), A.para(cell),
              A.table(A.inlines("Caption " + cell), head, rows, ["AlignLeft", "AlignRight"], short="S" * 4000, widths=[0.49, 0.49])]
    pdf = typesetting.typeset(_doc(blocks), tmp_path, tmp_path, "0")
    lines = [l for l in typesetting.pdf_text(pdf).splitlines() if not re.search(r"Page \d+ of \d+|robustness", l)]  # running header and footer
    text = squash("\n".join(lines))
    assert cell in text  # the paragraph, every character
    # a table row cannot break across pages: the cell and the caption are shortened, visibly
    assert f"Table1:Caption{'x' * (A.CAPTION_CHARS - 9)}…" in text
    assert text.count("x") == len(cell) + (A.CAPTION_CHARS - 9) + (A.CELL_CHARS - 1) and text.count("…") >= 2


def test_a_latex_error_is_reported_by_its_first_bang_line_and_place(tmp_path):
    blocks = [A.para("Before the error."), {"t": "RawBlock", "c": ["latex", "\\wsNoSuchCommand{x}"]}, A.para("After.")]
    with pytest.raises(latex.LatexError) as exc:
        typesetting.typeset(_doc(blocks), tmp_path, tmp_path, "0")
    message = str(exc.value)
    assert "\n" not in message
    assert message.startswith("xelatex failed: ! Undefined control sequence"), message
    assert re.search(r"report\.tex line \d+: .*\\wsNoSuchCommand", message), message


def test_the_report_error_names_the_result_set(tmp_path, monkeypatch):
    """build() turns a LaTeX failure into one line that starts with the slug."""
    def broken(*args, **kwargs):
        raise latex.LatexError("xelatex failed: ! Dimension too large (report.tex line 7: x)")

    monkeypatch.setattr(typesetting, "typeset", broken)
    job_dir = tmp_path / "data"
    job_dir.mkdir()
    data_file = BUILD / "hugo-data" / "wirespeed" / "sets" / f"{SET}.json"
    if not data_file.is_file():
        from pipeline import build

        build("site-data")
    job = typesetting.ReportJob(SET, "k", {}, data_file, BUILD / "site-static" / "results" / SET / "charts", None, tmp_path / "out.pdf")
    res = typesetting.build(job, str(ROOT))
    log = tmp_path.parent / "logs" / SET / "report-pdf.log"  # beside the reports folder, as build/logs is beside build/reports
    assert res["ok"] is False
    assert res["error"] == (f"{SET}: report failed in the generated report (template {typesetting.TEMPLATE_ROOT / 'template'}): "
                            f"xelatex failed: ! Dimension too large (report.tex line 7: x) (left out of the site and reports; full traceback: {log})")
    assert "Dimension too large (report.tex line 7: x)" in log.read_text(encoding="utf-8")
    assert not (tmp_path / "out.pdf").exists()


def test_first_error_reads_the_log_not_its_tail():
    log = "\n".join(["This is XeTeX", "(./report.tex", "! Dimension too large.", "<recently read> \\wsBandHeight ", "",
                     "l.412 \\wsTitlePage", "", "I can't work with sizes bigger than about 19 feet.", "", "! Emergency stop.", "<*> report.tex",
                     "No pages of output.", "Transcript written on report.log."])
    assert latex.first_error(log) == "! Dimension too large. (report.tex line 412: \\wsTitlePage)"
    assert latex.first_error("no error here\n") is None


def test_pandoc_and_xelatex_run_with_a_deadline_and_are_killed_with_their_group(tmp_path, monkeypatch):
    monkeypatch.setenv(latex.TIMEOUT_ENV, "8")
    blocks = [A.para("Loop:"), {"t": "RawBlock", "c": ["latex", "\\def\\wsLoop{\\wsLoop}\\wsLoop"]}]
    with pytest.raises(latex.LatexError) as exc:
        typesetting.typeset(_doc(blocks), tmp_path, tmp_path, "0")
    assert str(exc.value) == "xelatex timed out after 8 s"
    left = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and Path(os.readlink(proc / "cwd")).is_relative_to(tmp_path):
                left.append(proc.name)
        except OSError:
            continue
    assert not left, f"processes still running in {tmp_path}: {left}"


def test_the_timeout_must_be_a_positive_number(monkeypatch):
    monkeypatch.setenv(latex.TIMEOUT_ENV, "soon")
    with pytest.raises(latex.LatexError, match="WIRESPEED_REPORT_TIMEOUT"):
        latex.timeout_s()
    monkeypatch.setenv(latex.TIMEOUT_ENV, "0")
    with pytest.raises(latex.LatexError, match="more than 0"):
        latex.timeout_s()


@pytest.mark.slow
def test_long_inline_code_breaks_and_prints_every_character_literally(tmp_path):
    code = r"wirespeed collect netns --config examples/collect/netns-ab.toml --into linux-netns-bridge-forward-nftables-2026-11 \input{/etc/passwd} $x$ & #1 ^ a_b 100% ~ <>"
    para = {"t": "Para", "c": [{"t": "Str", "c": "Run"}, {"t": "Space"}, {"t": "Code", "c": [["", [], []], code]}, {"t": "Str", "c": "."}]}
    short = {"t": "Code", "c": [["", [], []], "make test"]}
    assert A.breakable([short]) == [short]  # short code stays Pandoc's own
    pdf = typesetting.typeset(_doc(A.breakable([para])), tmp_path, tmp_path, "0")
    text = typesetting.pdf_text(pdf)
    assert "".join(code.split()) in "".join(text.split())  # every character, none interpreted by TeX
    log = pdf.with_suffix(".log").read_text(errors="replace")
    assert not re.search(r"Overfull \\hbox \(([1-9]\d*|[2-9])\.", log), log  # the line breaks inside the long arguments


def test_long_strings_get_break_opportunities_and_short_ones_do_not():
    out = A.breakable([A.para("short words stay " + "y" * 45)])
    inl = out[0]["c"]
    assert inl[:5] == A.inlines("short words stay ")[:5]
    pieces = [i["c"] for i in inl if i["t"] == "Str"]
    assert "".join(pieces[3:]) == "y" * 45 and all(len(p) <= A.BREAK_CHUNK for p in pieces[3:])
    assert any(i["t"] == "RawInline" for i in inl)
    # a file name breaks between its words (after _ . / - =) first; inside a word only where a run is too long
    name = A.breakable([A.para("testapi_nfvbench_characterization_page1.json")])[0]["c"]
    assert [i["c"] if i["t"] == "Str" else i["c"][1] for i in name] == [
        "testapi_", "\\allowbreak{}", "nfvbench_", "\\allowbreak{}", "characteri", "\\penalty300{}", "zation_", "\\allowbreak{}", "page1.",
        "\\allowbreak{}", "json"]
    image = A.figure("x.pdf", A.inlines("c"), "z" * 50)
    assert A.breakable(image)["c"][2] == image["c"][2]  # alt text of an image is left alone
