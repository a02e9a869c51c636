"""Physics on every row: samples and trials are checked against line rate like summary rows, and
undeclared frame sizes and loads are errors naming the row."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ARCHIVE, run_cli
from test_validate_bad_input import edit, toml

ASR = "cisco-asr9006-rsp440-trex-2022"
NETNS = "linux-netns-ipv4-ramp-2026-11"
NEXUS = "cisco-nexus-9516-128x100g-2015"


def copy(tmp_path: Path, slug: str) -> Path:
    dest = tmp_path / slug
    shutil.copytree(ARCHIVE / slug, dest)
    return dest


def lines_with(proc, rule: str) -> list[str]:
    return [l for l in proc.stdout.splitlines() if f"[{rule}]" in l]


def test_imix_sample_above_1g_line_rate_fails(tmp_path: Path):
    s = copy(tmp_path, ASR)
    # an IMIX sample of 872 kframes/s received on a 1G link: the IMIX average frame allows ~ 327 kframes/s per direction
    text = toml(s).read_text(encoding="utf-8")
    start = text.index('id = "l2xc-10g"\n')
    at = text.index('port_speed = "', start)
    toml(s).write_text(text[:at] + 'port_speed = "1G"' + text[text.index("\n", at):], encoding="utf-8")
    edit(toml(s), 'measurements = ["loadtests.csv", "power.csv", "scaling.csv"]', 'measurements = ["loadtests.csv", "power.csv", "scaling.csv"]\nsamples = ["samples.csv"]')
    (s / "samples.csv").write_text("test,frame_size,t_s,rx_rate_kpps\nl2xc-10g,imix,0,100\nl2xc-10g,imix,1,872\n", encoding="utf-8")
    proc = run_cli("validate", str(s))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    hits = lines_with(proc, "rate-above-line-rate")
    assert len(hits) == 1, proc.stdout
    assert "samples.csv:3: rx_rate: 872 kpps is above the line rate of" in hits[0]


def test_ramp_sample_and_trial_above_line_rate_fail(tmp_path: Path):
    s = copy(tmp_path, NETNS)
    lines = (s / "samples.csv").read_text().splitlines()
    head = lines[0].split(",")
    row = lines[2].split(",")
    row[head.index("rx_rate_pps")] = "872000.0"
    lines[2] = ",".join(row)
    (s / "samples.csv").write_text("\n".join(lines) + "\n")
    meas = (s / "measurements.csv").read_text().splitlines()
    mhead, second = meas[0].split(","), meas[2].split(",")  # the 5 % step
    received = second[mhead.index("rx_frames")]
    second[mhead.index("duration_s")] = "0.01"
    meas[2] = ",".join(second)
    (s / "measurements.csv").write_text("\n".join(meas) + "\n")
    proc = run_cli("validate", str(s))
    assert proc.returncode == 1
    hits = lines_with(proc, "rate-above-line-rate")
    assert any("samples.csv:3: rx_rate: 872000" in h for h in hits), proc.stdout
    assert any(f"measurements.csv:3: rx: {received} frames received in 0.01 s" in h for h in hits), proc.stdout
    assert len(hits) == 2, proc.stdout


def test_undeclared_load_is_an_error(tmp_path: Path):
    s = copy(tmp_path, NEXUS)
    text = (s / "jitter-vs-load.csv").read_text().splitlines()
    i = next(n for n, l in enumerate(text) if ",50," in l)
    text[i] = text[i].replace(",50,", ",60,", 1)
    (s / "jitter-vs-load.csv").write_text("\n".join(text) + "\n")
    proc = run_cli("validate", str(s))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    hits = lines_with(proc, "undeclared-load")
    assert hits and f"jitter-vs-load.csv:{i + 1}: load_pct: load 60 % is not among the test's methodology.offered_loads_pct (10, 50, 90, 99.999)" in hits[0], proc.stdout


@pytest.mark.parametrize("slug", sorted(p.name for p in ARCHIVE.iterdir() if (p / "result.toml").is_file()))
def test_examples_have_no_row_physics_findings(slug: str):
    proc = run_cli("validate", str(ARCHIVE / slug))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for rule in ("rate-above-line-rate", "undeclared-load", "undeclared-frame-size"):
        assert not lines_with(proc, rule)
