"""Messages a contributor can act on: did-you-mean and the allowed values for unknown columns, units,
test ids and enums; file:line for schema errors; one delimiter hint for a semicolon or tab CSV; one
message per root cause; a trailing blank line accepted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ARCHIVE, run_cli
from test_validate_bad_input import edit, toml

KEYSIGHT = "keysight-ixnetwork-ve-dpdk-400g-2022"
ASR = "cisco-asr9006-rsp440-trex-2022"


@pytest.fixture
def ks(tmp_path: Path) -> Path:
    dest = tmp_path / KEYSIGHT
    shutil.copytree(ARCHIVE / KEYSIGHT, dest)
    return dest


def problems(s: Path) -> list[str]:
    proc = run_cli("validate", str(s))
    assert "Traceback" not in proc.stdout + proc.stderr
    return [l for l in proc.stdout.splitlines() if l.strip()]


def csv_of(s: Path) -> Path:
    return s / "throughput.csv"


def test_unknown_unit_suggests_and_lists_units(ks: Path):
    edit(csv_of(ks), "throughput_mpps", "throughput_mps")
    [line] = problems(ks)
    assert "throughput.csv:1: throughput_mps: unknown unit 'mps' for throughput (did you mean 'mpps' or" in line
    assert "use one of: fps, kfps, mfps, gfps, pps, kpps, mpps, gpps [csv.unknown-unit]" in line


def test_misspelt_metric_suggests_the_metric_and_lists_the_table_metrics(ks: Path):
    edit(csv_of(ks), "throughput_mpps", "througput_mpps")
    [line] = problems(ks)
    assert "throughput.csv:1: througput_mpps: unknown metric 'througput' for a measurements table (did you mean 'throughput'" in line
    assert "metrics of a measurements table:" in line and "latency_avg" in line and line.endswith("[csv.unknown-column]")


def test_misspelt_key_column_suggests_the_key(ks: Path):
    edit(csv_of(ks), "test,frame_size,", "test,framesize,")
    [line] = problems(ks)
    assert "throughput.csv:1: framesize: unknown column (did you mean 'frame_size'" in line
    assert "not a key of a measurements table (test, frame_size, load_pct, direction, variant, trial, component, port)" in line


def test_unknown_test_id_suggests_the_declared_one_and_says_it_once(ks: Path):
    edit(csv_of(ks), "single-flow,512,", "single-flw,512,")
    [line] = problems(ks)
    assert "throughput.csv:3: test: unknown test id 'single-flw' (did you mean 'single-flow'?) (declared: multi-flow, per-vcpu-dpdk, per-vcpu-software, single-flow) [csv.unknown-test]" in line


def test_unknown_test_id_with_an_imix_row_is_one_message(tmp_path: Path):
    s = tmp_path / ASR
    shutil.copytree(ARCHIVE / ASR, s)
    text = (s / "loadtests.csv").read_text().splitlines()
    i = next(n for n, l in enumerate(text) if ",imix," in l)
    text[i] = "no-such-test" + text[i][text[i].index(","):]
    (s / "loadtests.csv").write_text("\n".join(text) + "\n")
    lines = problems(s)
    assert len(lines) == 1, lines
    assert f"loadtests.csv:{i + 1}: test: unknown test id 'no-such-test'" in lines[0]


def test_direction_enum_suggests(ks: Path):
    edit(csv_of(ks), "test,frame_size,", "test,direction,frame_size,")
    text = csv_of(ks).read_text().splitlines()
    text[1:] = [l.replace(",", ",unidirectional,", 1) for l in text[1:]]
    text[2] = text[2].replace("unidirectional", "bidirectinal")
    csv_of(ks).write_text("\n".join(text) + "\n")
    line = next(l for l in problems(ks) if "[csv.enum]" in l)
    assert "throughput.csv:3: direction: direction must be one of unidirectional, bidirectional, not 'bidirectinal' (did you mean 'bidirectional'" in line


@pytest.mark.parametrize("sep, name", [(";", "semicolons"), ("\t", "tabs")])
def test_semicolon_or_tab_csv_is_one_delimiter_hint(ks: Path, sep: str, name: str):
    csv_of(ks).write_text(csv_of(ks).read_text().replace(",", sep))
    lines = problems(ks)
    assert len(lines) == 1, lines
    assert f"throughput.csv:1: the header is one column holding {name}: tables are comma-separated" in lines[0]
    assert lines[0].endswith("[csv.delimiter]")


def test_trailing_blank_lines_are_accepted_inner_ones_are_not(ks: Path):
    csv_of(ks).write_text(csv_of(ks).read_text() + "\n\n")
    assert problems(ks) == []
    text = csv_of(ks).read_text().splitlines()
    csv_of(ks).write_text("\n".join(text[:2] + [""] + text[2:]) + "\n")
    [line] = problems(ks)
    assert "throughput.csv:3: blank line inside the table [csv.blank-line]" in line


def test_schema_errors_carry_the_line_of_their_field(ks: Path):
    lines_of = toml(ks).read_text().splitlines()
    vendor = next(n for n, l in enumerate(lines_of, 1) if l.startswith('vendor = "Keysight"'))
    edit(toml(ks), 'vendor = "Keysight"', "vendor = 7")
    [line] = problems(ks)
    assert f"result.toml:{vendor}: dut.vendor: 7 is not of type string [schema.type]" in line


def test_missing_field_points_at_its_table(ks: Path):
    lines_of = toml(ks).read_text().splitlines()
    dut = lines_of.index("[dut]") + 1
    edit(toml(ks), 'vendor = "Keysight"\n', "")
    [line] = problems(ks)
    assert f"result.toml:{dut}: dut.vendor: missing required field 'vendor' [schema.required]" in line


def test_undeclared_frame_size_line_in_toml_semantics(ks: Path):
    text = toml(ks).read_text()
    edit(toml(ks), "frame_sizes = [512, 64]", "frame_sizes = [512, 64, 70000]")
    n = next(i for i, l in enumerate(toml(ks).read_text().splitlines(), 1) if "70000" in l)
    assert text != toml(ks).read_text()
    line = next(l for l in problems(ks) if "frame_sizes" in l)
    assert f"result.toml:{n}: tests[1].methodology.frame_sizes" in line
