"""docs/security.md stays true: every rule it describes for attachments, PDFs, CSV separators and the
publish path names what the code does, and what the code allows or refuses is named in it."""

from __future__ import annotations

import re

from conftest import ROOT
from wirespeed.resultset import limits, pdffile
from wirespeed.resultset.attachments import TYPES
from wirespeed.pipeline import status
from wirespeed.system import csvsafe

DOC = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")


def test_every_attachment_type_and_its_check_is_described():
    for t in TYPES:
        assert t.name.upper() in DOC.upper(), t.name
        assert t.text is not None or t.binary is not None, t.name
    for module in ("attachments.py", "pdffile.py", "pngfile.py", "capturefile.py", "csvsafe.py"):
        assert module in DOC, module
    assert limits.describe("png_pixels").replace(",000,000", " million") in DOC


def test_the_pdf_rules_name_what_is_allowed_and_what_is_refused():
    for action in pdffile.ACTIONS_ALLOWED:
        assert f"`{action[1:]}`" in DOC, action
    for key in pdffile.KEYS_REFUSED:
        if not key.startswith("/RichMedia"):
            assert f"`{key}`" in DOC, key
    for scheme in pdffile.URI_SCHEMES:
        assert scheme.rstrip(":/").removesuffix("s") in DOC, scheme
    for refused in ("Launch", "SubmitForm", "GoToR", "XFA", "/OpenAction"):
        assert refused in DOC


def test_the_csv_rules_name_every_separator_and_formula_character():
    text = DOC.split("## CSV downloads", 1)[1].split("\n## ", 1)[0]
    for sep, word in zip(csvsafe.SEPARATORS, ("`,`", "`;`", "tab", "`|`")):
        assert word in text, sep
    for ch in "=+-@":
        assert f"`{ch}`" in text, ch
    assert "`sep=`" in text and "full-width" in text and f"first {csvsafe.SCAN} characters" in text
    assert "a formula never runs" in text


def test_the_publish_path_section_names_the_exit_statuses_and_the_report():
    text = DOC.split("## A pull request cannot stop the site", 1)[1]
    assert f"exit status {status.EXIT_LEFT_OUT}" in text and f"exit status {status.EXIT_STEP_FAILED}" in text
    assert "wirespeed summary --left-out" in text and "gitlink" in text and "wirespeed cited" in text
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^build: setup\n\t@\$\(WIRESPEED\) build$", makefile, re.M), "make builds with wirespeed build"
    import inspect

    from wirespeed import cli

    source = inspect.getsource(cli.build.callback)  # a step's left-out status goes on, any other fails the build with exit status 3
    assert "code == EXIT_LEFT_OUT" in source and "raise SystemExit(EXIT_STEP_FAILED)" in source
