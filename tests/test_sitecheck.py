"""The publication check on its corpus of broken pages (tests/broken_pages/): a clean minimal build passes, and
each case, one defect of one kind, fails with exactly its rule, one line per failure naming the page, the
element and the rule. The check's own parts: the number reader, the d3 format types, the row keys of cards."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from wirespeed.extensions import registry
from wirespeed.sitecheck.e_notation import d3_type
from wirespeed.sitecheck.numbers import parse
from wirespeed.sitecheck.run import SiteMissing, check_site

CORPUS = ROOT / "tests" / "broken_pages"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and p.name != "base")


def build_case(tmp_path: Path, case: str | None) -> tuple[Path, Path]:
    """base/ with the case's files laid over it, in a scratch folder: (public, build)."""
    work = tmp_path / (case or "base")
    shutil.copytree(CORPUS / "base", work)
    if case:
        shutil.copytree(CORPUS / case, work, dirs_exist_ok=True)
    return work / "public", work / "build"


def test_every_rule_has_a_broken_case_and_every_case_a_rule():
    assert set(CASES) == set(registry("site_checks")), "one broken case per rule, named by the rule"


def test_a_clean_build_passes(tmp_path):
    public, build = build_case(tmp_path, None)
    assert check_site(public, build) == []


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c == "unit-disagrees" else c for c in CASES])  # its PDF is read by pdftotext
def test_each_broken_case_fails_with_its_rule_alone(tmp_path, case):
    public, build = build_case(tmp_path, case)
    problems = check_site(public, build)
    assert problems, f"{case}: the check found nothing"
    assert {p.rule for p in problems} == {case}, [str(p) for p in problems]
    for p in problems:
        line = str(p)
        assert "\n" not in line and line.endswith(f"[{case}]")
        assert p.file and p.field, line  # the page and the element


@pytest.mark.slow  # the unit-disagrees case has a PDF, read by pdftotext
def test_the_failures_say_what_is_wrong_where(tmp_path):
    found = {}
    for case in ("e-notation", "digits", "negative-loss", "percentile-above-max", "named-row", "date-before-set", "unit-disagrees", "empty-cells"):
        public, build = build_case(tmp_path / "x", case)
        found[case] = [str(p) for p in check_site(public, build)]
        shutil.rmtree(tmp_path / "x")
    e = "\n".join(found["e-notation"])
    assert "3e+07" in e and "results/case-set/charts/t1-throughput.svg: svg text:nth-of-type(1): e-notation '1e+1'" in e
    assert "results/case-set/charts/t1-throughput.vl.json: .encoding.x.axis.format: d3 format ','" in e
    d = "\n".join(found["digits"])
    assert "5,337,161,395.8681555: 17 significant digits" in d and "0.001498917167227048: 16 significant digits" in d
    assert "8,701.5: a rate of 1,000 frames/s or more printed with decimals" in d
    assert any("row 1 (64), column “Frames lost (frames)”: negative loss −1" in x for x in found["negative-loss"])
    assert any("row 1 (64), column “Frame loss (%)”: negative loss -0.012" in x for x in found["negative-loss"])
    assert found["percentile-above-max"] == ["results/case-set/tables/t1-percentiles.json: table t1-percentiles, row 1 (64), column “99.99th percentile latency (ns)”: "
                                             "79,871 ns is above the row's maximum 79,810 ns without a stated reason [percentile-above-max]"]
    n = "\n".join(found["named-row"])
    assert "15.9 Mframes/s differs from the row it names: 14.2 Mpps in results/case-set/tables/t1-results.json" in n
    assert "“Case switch: 14.9 Mpps…” differs from the row it names: 14.2 Mpps" in n
    assert "feed.xml: entry[case-set] > updated: 1970-01-01T00:00:00Z: the epoch stands in" in "\n".join(found["date-before-set"])
    assert found["unit-disagrees"] == ["reports/case-set.pdf: table t1-results (“IPv4 forwarding: results”): units differ between the page "
                                       "(results/case-set/tables/t1-results.json) and the PDF header: page only: µs; PDF only: ms [unit-disagrees]"]
    empty = "\n".join(found["empty-cells"])
    assert "column “Average latency (µs)”: column empty in all 3 rows" in empty and "1 of 3 rows empty in every visible figure column (e.g. 64 / pdr)" in empty


def test_the_check_says_when_there_is_no_build(tmp_path):
    with pytest.raises(SiteMissing, match="no built site"):
        check_site(tmp_path / "public", tmp_path / "build")


def test_the_number_reader():
    (p,) = parse("5,337,161,395.8681555 bit/s")
    assert (p.value, p.unit, p.decimals, p.digits) == (5337161395.8681555, "bps", 7, 17)
    assert [(x.number, x.unit) for x in parse("64-byte frames at 28.7\u00a0Mframes/s, −1 frames")] == [("64", "bytes"), ("28.7", "mfps"), ("1", "frames")]
    assert parse("−1 frames")[0].value == -1
    assert [x.number for x in parse("Linux 6.18.44 on 10G ports, RFC 2544 table 2")] == ["2544", "2"]  # versions and 10G are no figures
    assert parse("≈39.9 %")[0].qualifier == "≈"


@pytest.mark.parametrize("spec,kind", [(",", ""), (",.6~r", "r"), (".2f", "f"), (",~s", "s"), (".3g", "g"), (",d", "d"), (".1e", "e")])
def test_d3_format_types(spec, kind):
    assert d3_type(spec) == kind


def test_the_command_prints_one_line_per_failure_and_exits_1(tmp_path):
    from conftest import run_cli

    public, build = build_case(tmp_path, "negative-loss")
    proc = run_cli("check-site", "--public", str(public), "--build", str(build))
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1 and lines and all(line.endswith("[negative-loss]") for line in lines), proc.stdout + proc.stderr
    assert f"{len(lines)} publication problems (negative-loss)" in proc.stderr
    only = run_cli("check-site", "--public", str(public), "--build", str(build), "--rule", "e-notation")
    assert only.returncode == 0 and only.stdout == ""
    clean_public, clean_build = build_case(tmp_path / "clean", None)
    assert run_cli("check-site", "--public", str(clean_public), "--build", str(clean_build)).returncode == 0
    missing = run_cli("check-site", "--public", str(tmp_path / "nowhere"), "--build", str(build))
    assert missing.returncode == 1 and "no built site" in missing.stderr and "Traceback" not in missing.stderr
