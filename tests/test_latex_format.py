"""The reports' packages are dumped once into a precompiled format (report/latexformat.py) that every XeLaTeX run
starts from: the pages are the ones typeset without it, the format is dumped once and shared, a spoiled format or a
document without the mark is typeset without one, and the cache keeps a few formats and follows no link."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from wirespeed.pipeline import paths
from wirespeed.report import latex, latexformat, typesetting
from wirespeed.report import pandoc_ast as A

from test_latex_seed import _blocks
from test_report_robustness import _doc


@pytest.fixture
def typeset(monkeypatch):
    """Typeset a document in its own folder; records each XeLaTeX command line (the last list is the current one)."""
    calls: list[list[list[str]]] = []
    real = latex.run

    def recorded(cmd, *args, **kwargs):
        if cmd[0] == "xelatex":
            calls[-1].append(cmd)
        return real(cmd, *args, **kwargs)

    monkeypatch.setattr(latex, "run", recorded)

    def run(doc: dict, work, formats=None):
        calls.append([])
        work.mkdir()
        return typesetting.typeset(doc, work, work, "1700000000", formats=formats)

    run.calls = calls
    return run


def _pages(pdf) -> list[bytes]:
    """Each page drawn at 60 dpi (PPM bytes) and the text, to compare what a reader sees."""
    out = subprocess.run(["pdftoppm", "-r", "60", str(pdf)], capture_output=True, check=True).stdout
    return [out, typesetting.pdf_text(pdf).encode()]


@pytest.mark.slow
def test_a_report_on_the_format_shows_the_pages_typeset_without_it(tmp_path, typeset):
    doc = _doc(_blocks(3))
    formats = tmp_path / "cache" / "latex-format"
    plain = typeset(doc, tmp_path / "plain")
    assert not any(any(a.startswith("-fmt=") for a in c) for c in typeset.calls[-1])
    on_format = typeset(doc, tmp_path / "first", formats)
    dumps = [c for c in typeset.calls[-1] if "-ini" in c]
    assert len(dumps) == 1  # dumped once, then every run starts from it
    assert all("-fmt=" + latexformat.NAME in c for c in typeset.calls[-1] if "-ini" not in c)
    kept = list(formats.glob("*.fmt"))
    assert len(kept) == 1 and kept[0].stat().st_size > 1_000_000
    assert _pages(on_format) == _pages(plain)
    # another report of the same template: the same format, not dumped again
    other = typeset(_doc(_blocks(1)), tmp_path / "second", formats)
    assert not [c for c in typeset.calls[-1] if "-ini" in c] and list(formats.glob("*.fmt")) == kept
    assert _pages(other) == _pages(typeset(_doc(_blocks(1)), tmp_path / "second-plain"))


@pytest.mark.slow
def test_a_spoiled_format_is_dropped_and_the_report_typeset_without_it(tmp_path, typeset):
    doc = _doc(_blocks(1))
    formats = tmp_path / "formats"
    plain = typeset(doc, tmp_path / "plain")
    typeset(doc, tmp_path / "dump", formats)
    (fmt,) = formats.glob("*.fmt")
    fmt.write_bytes(b"not a format" * 1000)
    assert _pages(typeset(doc, tmp_path / "spoiled", formats)) == _pages(plain)
    assert not fmt.exists()  # dropped: the next report dumps it again
    typeset(doc, tmp_path / "again", formats)
    assert fmt.is_file() and [c for c in typeset.calls[-1] if "-ini" in c]
    # a package the format was dumped from changed since (a tlmgr update leaves xelatex.fmt as it was): dumped again
    files = fmt.with_suffix(".files")
    lines = files.read_text().splitlines()
    assert any("/xcolor.sty\t" in ln for ln in lines) and any("/fontspec.sty\t" in ln for ln in lines)
    path, size, mtime = lines[0].split("\t")
    files.write_text("\n".join([f"{path}\t{int(size) + 1}\t{mtime}", *lines[1:]]) + "\n")
    assert _pages(typeset(doc, tmp_path / "updated", formats)) == _pages(plain)
    assert [c for c in typeset.calls[-1] if "-ini" in c] and files.read_text().splitlines() == lines
    typeset(doc, tmp_path / "unchanged", formats)
    assert not [c for c in typeset.calls[-1] if "-ini" in c]


def test_the_head_is_what_stands_above_the_mark_on_its_own_line(tmp_path, monkeypatch):
    tex = tmp_path / "report.tex"
    tex.write_text("\\documentclass{article}\n\\usepackage{xcolor}\n" + latexformat.MARK + "\n\\setstretch{1}\n")
    assert latexformat.head(tex) == "\\documentclass{article}\n\\usepackage{xcolor}\n"
    tex.write_text("\\documentclass{article}\n\\usepackage{xcolor}" + latexformat.MARK + "\n")  # not on a line of its own
    assert latexformat.head(tex) is None
    tex.write_text("\\documentclass{article}\n\\begin{document}x\\end{document}\n")
    assert latexformat.head(tex) is None
    tex.write_text("%" * (latexformat.MAX_HEAD_BYTES + 10) + "\n" + latexformat.MARK + "\n")
    assert latexformat.head(tex) is None
    monkeypatch.setattr(latexformat, "engine_stamp", lambda: "XeTeX 3.14 / xelatex.fmt:1:2")  # the installation's part of the key
    assert latexformat.key("a") != latexformat.key("b") and len(latexformat.key("a")) == 32


def test_a_format_is_used_only_while_the_files_it_was_dumped_from_are_unchanged(tmp_path):
    sty = tmp_path / "xcolor.sty"
    sty.write_text("\\ProvidesPackage{xcolor}")
    fls = tmp_path / "x.fls"
    fls.write_text(f"PWD {tmp_path}\nINPUT {sty}\nINPUT head.tex\nOUTPUT x.fmt\n")
    files = tmp_path / "x.files"
    files.write_text(latexformat._stamps(fls))
    assert files.read_text().count("\n") == 1 and latexformat._unchanged(files)
    sty.write_text("\\ProvidesPackage{xcolor}[newer]")
    assert not latexformat._unchanged(files)
    assert not latexformat._unchanged(tmp_path / "missing.files")
    files.write_text("not\ta stamp\n")
    assert not latexformat._unchanged(files)


def test_a_dump_counts_only_with_no_error_but_the_kernels_default_roman():
    dump = "Beginning to dump on file wirespeed-report.fmt\n"
    refusal = "! " + latexformat.NATIVE_FONT_ERROR + "\n"
    assert latexformat.dumped_whole(dump + "\\font\\OT1/cmr/m/n/10=cmr10\n")
    assert latexformat.dumped_whole(dump + "\\font\\TU/lmr/m/n/10=[lmroman10-regular]:mapping=tex-text;\n" + refusal)
    assert not latexformat.dumped_whole(dump + "\\font\\TU/lmss/m/n/10=[lmsans10-regular]:mapping=tex-text;\n" + refusal)
    assert not latexformat.dumped_whole(dump + "! Undefined control sequence.\n")
    assert not latexformat.dumped_whole("! Emergency stop.\n")


@pytest.mark.slow
def test_a_document_without_the_mark_is_typeset_without_a_format(tmp_path):
    work = tmp_path / "w"
    work.mkdir()
    (work / "report.tex").write_text("\\documentclass{article}\n\\begin{document}Hello\\end{document}\n")
    env = {**os.environ, "openin_any": "p", "openout_any": "p", "SOURCE_DATE_EPOCH": "1700000000", "FORCE_SOURCE_DATE": "1"}
    pdf = latex.xelatex(work, "report.tex", env, time.monotonic() + 120, formats=tmp_path / "formats")
    assert pdf.is_file() and not (tmp_path / "formats").exists()


def test_the_cache_keeps_the_latest_formats_and_follows_no_link(tmp_path):
    cache = tmp_path / "formats"
    cache.mkdir()
    outside = tmp_path / "outside.fmt"
    outside.write_bytes(b"x")
    for n in range(latexformat.KEPT + 2):
        p = cache / f"{n:032x}.fmt"
        p.write_bytes(b"f")
        os.utime(p, ns=(n * 10**9, n * 10**9))
    (cache / "link.fmt").symlink_to(outside)
    for n in (0, latexformat.KEPT + 1):  # the lists of the files a format was dumped from go with it
        (cache / f"{n:032x}.files").write_text("")
    latexformat.prune(cache)
    assert sorted(p.name for p in cache.iterdir()) == sorted([f"{n:032x}.fmt" for n in range(2, latexformat.KEPT + 2)] + [f"{latexformat.KEPT + 1:032x}.files"])
    assert outside.read_bytes() == b"x"


def test_builds_in_several_folders_may_share_one_format_cache(tmp_path, monkeypatch):
    out = tmp_path / "build" / "reports" / "a-set.pdf"
    monkeypatch.delenv(paths.LATEX_FORMATS_ENV, raising=False)
    assert paths.latex_formats(out) == tmp_path / "build" / "cache" / "latex-format"
    monkeypatch.setenv(paths.LATEX_FORMATS_ENV, str(tmp_path / "shared"))
    assert paths.latex_formats(out) == tmp_path / "shared"
    monkeypatch.setenv(paths.LATEX_FORMATS_ENV, "relative/formats")  # only an absolute folder: a relative one would follow the working folder
    assert paths.latex_formats(out) == tmp_path / "build" / "cache" / "latex-format"
