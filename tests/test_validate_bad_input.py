"""`wirespeed validate` on bad input: exit status 1, one line naming the file and the place, no traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ARCHIVE, run_cli


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def toml(s: Path) -> Path:
    return s / "result.toml"


# (name, mutation, file the message must name, place (field or line) it must name, rule)
CASES = [
    ("missing-field", lambda s: edit(toml(s), 'vendor = "Cisco"\n', ""), "result.toml", "dut.vendor", "schema.required"),
    ("unknown-field", lambda s: edit(toml(s), 'status = "published"', 'status = "published"\ncolour = "red"'), "result.toml", "colour", "schema.unknown-field"),
    ("bad-enum", lambda s: edit(toml(s), 'status = "published"', 'status = "final"'), "result.toml", "status", "schema.enum"),
    ("toml-syntax", lambda s: edit(toml(s), 'title = "Cisco 7600', 'title = Cisco 7600'), "result.toml", ":3:", "toml.syntax"),
    ("format-too-new", lambda s: edit(toml(s), "format_version = 1", "format_version = 2"), "result.toml", "format_version", "format.version"),
    ("slug-mismatch", lambda s: edit(toml(s), 'slug = "cisco-7600-osm-acl-2001"', 'slug = "cisco-7600"'), "result.toml", "slug", "semantic.slug"),
    ("embargo-without-date", lambda s: edit(toml(s), 'status = "published"', 'status = "embargoed"'), "result.toml", "embargo_until", "semantic.embargo"),
    ("wrong-unit", lambda s: edit(s / "packet-filtering.csv", "latency_avg_us", "latency_avg_gbps"), "packet-filtering.csv", "latency_avg_gbps", "csv.wrong-unit"),
    ("unknown-column", lambda s: edit(s / "baseline.csv", "throughput_mpps", "speed_mpps"), "baseline.csv", "speed_mpps", "csv.unknown-column"),
    ("negative-value", lambda s: edit(s / "packet-filtering.csv", "filter-no-acl,64,26.9,34.6", "filter-no-acl,64,26.9,-34.6"), "packet-filtering.csv", ":4:", "csv.negative"),
    ("non-numeric", lambda s: edit(s / "baseline.csv", "baseline,64,26.9,91.2", "baseline,64,fast,91.2"), "baseline.csv", ":4:", "csv.non-numeric"),
    ("thousands-separator", lambda s: edit(s / "baseline.csv", "baseline,64,26.9,91.2", 'baseline,64,"26,9",91.2'), "baseline.csv", "throughput_mpps", "csv.non-numeric"),
    ("percent-over-100", lambda s: edit(s / "cpu.csv", "cpu-utilisation,idle,,NMP,1", "cpu-utilisation,idle,,NMP,150"), "cpu.csv", "cpu_peak_pct", "csv.range"),
    ("above-line-rate", lambda s: edit(s / "baseline.csv", "baseline,64,26.9,91.2", "baseline,64,31.0,91.2"), "baseline.csv", ":4:", "throughput-above-line-rate"),
    ("ragged-row", lambda s: edit(s / "baseline.csv", "baseline,128,15.5,99.7", "baseline,128,15.5"), "baseline.csv", ":5:", "csv.ragged-row"),
    ("unknown-test", lambda s: edit(s / "baseline.csv", "baseline,256,7.97,100", "basline,256,7.97,100"), "baseline.csv", ":6:", "csv.unknown-test"),
    ("unknown-variant", lambda s: edit(s / "cpu.csv", "cpu-utilisation,idle,,NMP,1", "cpu-utilisation,busy,,NMP,1"), "cpu.csv", "variant", "csv.unknown-variant"),
    ("duplicate-row", lambda s: edit(s / "baseline.csv", "baseline,512,4.04,100\n", "baseline,512,4.04,100\nbaseline,512,4.04,100\n"), "baseline.csv", ":8:", "csv.duplicate-row"),
    ("non-utf8", lambda s: (s / "cpu.csv").write_bytes((s / "cpu.csv").read_bytes().replace(b"MSFC2", b"MSFC\xb2", 1)), "cpu.csv", ":3:", "encoding.utf8"),
    ("undeclared-file", lambda s: (s / "notes.txt").write_text("hello\n"), "notes.txt", "", "layout.undeclared-file"),
    ("missing-declared-file", lambda s: (s / "cpu.csv").unlink(), "result.toml", "files", "layout.missing-file"),
    ("empty-csv", lambda s: (s / "cpu.csv").write_text(""), "cpu.csv", ":1:", "csv.empty"),
    ("latency-order", lambda s: edit(toml(s), 'files]\nmeasurements = ["baseline.csv", "packet-filtering.csv", "cpu.csv"]', 'files]\nmeasurements = ["baseline.csv", "packet-filtering.csv", "cpu.csv", "latency.csv"]') or (s / "latency.csv").write_text("test,frame_size,latency_min_us,latency_avg_us\nfilter-no-acl,96,40.0,34.6\n"), "latency.csv", ":2:", "latency-order"),
]


@pytest.mark.parametrize("name, mutate, file, place, rule", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_clear_line(good_set: Path, name, mutate, file, place, rule):
    mutate(good_set)
    proc = run_cli("validate", str(good_set))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = [l for l in proc.stdout.splitlines() if f"[{rule}]" in l]
    assert lines, f"no line with rule {rule}:\n{proc.stdout}\n{proc.stderr}"
    line = lines[0]
    assert file in line and place in line, line
    assert "\n" not in line and len(line) < 600


def test_bad_input_count():
    assert len(CASES) >= 15


def test_duplicate_slug_across_folders(tmp_path: Path):
    a, b = tmp_path / "a" / "cisco-7600-osm-acl-2001", tmp_path / "b" / "cisco-7600-osm-acl-2001"
    shutil.copytree(ARCHIVE / "cisco-7600-osm-acl-2001", a)
    shutil.copytree(ARCHIVE / "cisco-7600-osm-acl-2001", b)
    proc = run_cli("validate", str(a), str(b))
    assert proc.returncode == 1
    assert any("[semantic.duplicate-slug]" in l and "slug" in l and "result.toml" in l for l in proc.stdout.splitlines()), proc.stdout


def test_not_a_folder(tmp_path: Path):
    proc = run_cli("validate", str(tmp_path / "nope"))
    assert proc.returncode == 1 and "[layout.folder]" in proc.stdout and "Traceback" not in proc.stderr


def test_all_examples_validate():
    proc = run_cli("validate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 invalid; 0 errors" in proc.stderr


def test_stale_erratum_is_reported(good_set: Path):
    edit(toml(good_set), 'test = "filter-acl-15k"\nframe_size = 1500', 'test = "filter-acl-15k"\nframe_size = 1024')
    proc = run_cli("validate", str(good_set))
    assert proc.returncode == 1  # the 1500-byte finding is no longer acknowledged
    assert "[errata.unused]" in proc.stdout and "[throughput-above-line-rate]" in proc.stdout


def test_new_scaffold_validates_once_filled(tmp_path: Path):
    root = tmp_path / "results"
    proc = run_cli("new", "acme-switch-2026", "--root", str(root))
    assert proc.returncode == 0, proc.stderr
    folder = root / "acme-switch-2026"
    assert run_cli("validate", str(folder)).returncode == 1  # blanks not filled in yet
    text = (folder / "result.toml").read_text()
    for field, value in [("title", "Acme S1 switch"), ("summary", "A test."), ("publisher", "Acme Lab"), ("published", "2026-11"),
                         ("start", "2026-11"), ("end", "2026-11"), ("location", "Lab A"), ("lab", "Acme Lab"), ("vendor", "Acme"),
                         ("model", "S1"), ("name", "AcmeOS"), ("version", "1.0"), ("product", "Gen"), ("vendor", "GenCo"),
                         ("name", "GenSoft"), ("version", "2.0")]:
        text = text.replace(f'{field} = ""', f'{field} = "{value}"', 1)
    text = text.replace('id = "ipv4-unicast"\ntitle = ""', 'id = "ipv4-unicast"\ntitle = "IPv4"')
    (folder / "result.toml").write_text(text)
    with open(folder / "measurements.csv", "a") as f:
        f.write("ipv4-unicast,64,100,14880952,1.1,2.2,3.3\n")
    proc = run_cli("validate", str(folder))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert run_cli("new", "acme-switch-2026", "--root", str(root)).returncode == 1
    bad = run_cli("new", "Not A Slug", "--root", str(root))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
