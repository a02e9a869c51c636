"""The physics gate (wirespeed.checks.PHYSICS): impossible figures are errors at validate and at import,
each line naming the file, the row, both numbers and the rule; one passing and one failing case per rule,
a documented exception (an erratum with its cause), and the import that refuses to write."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from wirespeed.checks import PHYSICS, run_checks
from wirespeed.cli import cli
from wirespeed.importers.importing import import_files
from wirespeed.problems import InputError
from wirespeed.catalog.load import load

TOML = """format_version = 1
slug = "{slug}"
title = "Gate test"
status = "published"
licence = "CC-BY-4.0"

[source]
kind = "measured"
publisher = "wirespeed"
published = "2026-11-20"

[dut]
vendor = "Example"
model = "Router"

[instrument]
vendor = "Example"
product = "Generator"

[[tests]]
id = "t"
title = "Test"
rfc = [{rfc}]
scenario = "ipv4-routing"
topology = "port-pairs"
ports = 2
port_speed = "10G"
direction = "unidirectional"

[tests.methodology]
frame_sizes = [64]
{method}
[files]
measurements = ["m.csv"]
{extra}"""


def make_set(tmp_path: Path, csv: str, rfc: str = '"2544"', method: str = "", extra: str = "", slug: str = "gate") -> Path:
    folder = tmp_path / slug
    folder.mkdir()
    (folder / "result.toml").write_text(TOML.format(slug=slug, rfc=rfc, method=method, extra=extra), encoding="utf-8")
    (folder / "m.csv").write_text(csv, encoding="utf-8")
    return folder


def gate_lines(folder: Path) -> list[str]:
    rs, problems = load(folder)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    return [str(p) for p in run_checks(rs) if p.rule in PHYSICS and p.severity == "error"]


# rule, header, failing row, passing row, what the failing line must say (both numbers, the place)
CASES = [
    ("throughput-above-line-rate", "test,frame_size,throughput_line_rate_pct", "t,64,200", "t,64,99.5", ["m.csv:2", "200 % of the line rate is above 100 %"]),
    ("throughput-above-line-rate", "test,frame_size,throughput_mpps", "t,64,29.76", "t,64,14.88", ["m.csv:2", "29.76 Mpps is above the line rate of 14,880,952 frames/s"]),
    ("rate-frames-duration", "test,frame_size,tx_frames,duration_s,tx_rate_pps", "t,64,1000000,1.000000,1002000", "t,64,1000000,1.000000,1000500",
     ["m.csv:2", "tx_rate: 1002000 pps, but 1000000 frames in 1.000000 s is 1,000,000.0 pps", "0.1% clock tolerance"]),
    ("rate-frames-duration", "test,frame_size,rx_frames,duration_s,forwarding_rate_pps", "t,64,500,10,5000", "t,64,500,10,50",
     ["forwarding_rate: 5000 pps, but 500 frames in 10 s is 50.0 pps"]),
    ("requested-as-achieved", "test,frame_size,offered_rate_mpps,tx_frames,duration_s,throughput_mpps", "t,64,7.44,16701232,10,7.44", "t,64,7.44,16701232,10,1.670",
     ["throughput 7.44 Mpps is more than the 16701232 frames sent in 10 s (1,670,123 frames/s", "7.44 Mpps was offered", "a requested rate published as achieved"]),
    ("frame-counts", "test,frame_size,trial,tx_frames,rx_frames,duplicate_frames", "t,64,1,100,102,1", "t,64,1,100,101,1",
     ["m.csv:2: rx: 102 frames received is more than the 100 frames sent plus 1 duplicates"]),
    ("latency-order", "test,frame_size,latency_max_ns,latency_p99_ns,latency_p99_99_ns", "t,64,79810,41000,79871", "t,64,79810,41000,79810",
     ["m.csv:2: latency_max: the maximum 79810 ns is below the 99.99th percentile 79871 ns"]),
    ("latency-order", "test,frame_size,latency_p50_us,latency_p90_us", "t,64,12,9", "t,64,9,12", ["the 90th percentile 9 µs is below the median (50th percentile) 12 µs"]),
    ("latency-order", "test,frame_size,latency_min_us,latency_avg_us", "t,64,5.0,4.0", "t,64,5,4", ["the average 4.0 µs is below the minimum 5.0 µs"]),
    ("zero-measurement", "test,frame_size,latency_avg_us", "t,64,0", "t,64,3.2", ["latency_avg is 0 µs: tools write 0 where they measured nothing"]),
    ("zero-measurement", "test,frame_size,trial,tx_frames,rx_frames,duration_s", "t,64,1,10,10,0", "t,64,1,10,10,1", ["duration is 0 s"]),
    ("zero-measurement", "test,frame_size,trial,tx_frames,rx_frames,latency_avg_us", "t,64,1,10,0,4.5", "t,64,1,10,10,4.5",
     ["latency_avg 4.5 µs is stated, but 0 frames were received"]),
]


@pytest.mark.parametrize("rule, header, bad, good, says", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_rule_fails_the_impossible_and_passes_the_possible(tmp_path: Path, rule, header, bad, good, says):
    failing = gate_lines(make_set(tmp_path, f"{header}\n{bad}\n", slug="bad"))
    assert [l for l in failing if l.endswith(f"[{rule}]")], failing
    line = next(l for l in failing if l.endswith(f"[{rule}]"))
    assert "bad/m.csv:2:" in line, line
    for text in says:
        assert text in line, line
    assert gate_lines(make_set(tmp_path, f"{header}\n{good}\n", slug="good")) == []


RAMP = dict(rfc='"loadtest-ramp"', method='search = "ramp"\noffered_loads_pct = [10, 20]\n')


def test_negative_loss_of_a_ramp_step_and_the_device_count_that_replaces_it(tmp_path: Path):
    header = "test,frame_size,load_pct,trial,tx_frames,rx_frames"
    bad = gate_lines(make_set(tmp_path, f"{header}\nt,64,10,1,12844,12845\nt,64,20,1,25000,24990\n", slug="bad", **RAMP))
    assert [l.split("/bad/")[-1] for l in bad] == ["m.csv:2: rx: a loss of −1 frames: 12845 frames received in this interval but 12844 sent; counters read while the stream runs "
                   "count a frame sent at the end of one interval in the next, so sent − received is not a loss (state the frames the device "
                   "dropped as lost_frames, from its own counters) [negative-loss]"]
    good = make_set(tmp_path, f"{header},lost_frames\nt,64,10,1,12844,12845,0\nt,64,20,1,25000,24990,7\n", slug="good", **RAMP)
    assert gate_lines(good) == []


def test_an_erratum_with_its_cause_acknowledges_a_finding_and_says_why(tmp_path: Path):
    erratum = ('\n[[errata]]\ncheck = "rate-frames-duration"\ntest = "t"\nmetric = "tx_rate"\ncause = "measurement"\n'
               'note = "The generator reports its configured rate, not the counted one; the counters are the measurement."\n')
    folder = make_set(tmp_path, "test,frame_size,tx_frames,duration_s,tx_rate_pps\nt,64,1000000,1.000000,1002000\n", extra=erratum)
    rs, _ = load(folder)
    problems = [p for p in run_checks(rs) if p.rule == "rate-frames-duration"]
    assert [p.severity for p in problems] == ["acknowledged"]
    assert problems[0].message.endswith("— known measurement artefact: The generator reports its configured rate, not the counted one; the counters are the measurement.")
    bad_cause = make_set(tmp_path, "test,frame_size,throughput_mpps\nt,64,14.88\n", extra=erratum.replace('"measurement"', '"weather"'), slug="bad-cause")
    assert any(p.rule == "schema.enum" and p.field == "errata[0].cause" for p in load(bad_cause)[1])


def test_validate_refuses_a_set_claiming_200_percent_of_line_rate(tmp_path: Path):
    folder = make_set(tmp_path, "test,frame_size,throughput_mpps,throughput_line_rate_pct\nt,64,74.40,200.0\n")
    result = CliRunner().invoke(cli, ["validate", str(folder)])
    assert result.exit_code == 1, result.output
    lines = [l for l in result.output.splitlines() if "[throughput-above-line-rate]" in l]
    assert any("m.csv:2: throughput_line_rate: 200.0 % of the line rate is above 100 %" in l for l in lines), result.output
    assert any("m.csv:2: throughput: 74.40 Mpps is above the line rate of 14,880,952 frames/s" in l for l in lines), result.output


def test_import_refuses_to_write_a_set_that_fails_the_gate_with_the_same_line(tmp_path: Path):
    sweep = tmp_path / "sweep.json"
    sweep.write_text('[{"size": 64, "rate": "50%", "rep": 1, "duration": 10, "tx_pkts": 148809524, "rx_pkts": 148809530}]\n', encoding="utf-8")
    (tmp_path / "sweep.mapping.toml").write_text('frame_size = "size"\nload_pct = "rate"\ntrial = "rep"\nduration_s = "duration"\n'
                                                 'tx_frames = "tx_pkts"\nrx_frames = "rx_pkts"\n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_files("trex-sweep", [sweep], tmp_path / "out", "gate-import")
    lines = [str(p) for p in err.value.problems]
    assert lines == [f"{sweep}: measurements row of test fixed-rate-sweep (frame_size 64, load_pct 50, trial 1): rx: 148809530 frames received "
                     "is more than the 148809524 frames sent [frame-counts]"], lines
    assert not (tmp_path / "out").exists()
    sweep.write_text(sweep.read_text().replace("148809530", "148809524"), encoding="utf-8")
    assert import_files("trex-sweep", [sweep], tmp_path / "out", "gate-import").written
