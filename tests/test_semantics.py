"""Semantic rules and inert text: `wirespeed validate` refuses nonsense and spoofing with one clear line
(exit 1, the file, the place and the rule, no traceback), and one set's unexpected failure never hides
the others."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ARCHIVE, run_cli
from test_validate_bad_input import edit, toml
from wirespeed.engine.jumbo import oversize

KEYSIGHT = "keysight-ixnetwork-ve-dpdk-400g-2022"
NETNS = "linux-netns-ipv4-ramp-2026-11"
NEXT_YEAR = dt.datetime.now(dt.timezone.utc).year + 1


@pytest.fixture
def ks(tmp_path: Path) -> Path:
    """A writable copy of the Keysight set: Ethernet, two tests, one of them with declared 9000-byte jumbo frames."""
    dest = tmp_path / KEYSIGHT
    shutil.copytree(ARCHIVE / KEYSIGHT, dest)
    return dest


def add_table(s: Path, name: str, text: str, kind: str = "measurements") -> None:
    """Declare and write one more CSV table of a set."""
    t = toml(s).read_text(encoding="utf-8")
    start = t.index(f"{kind} = [", t.index("[files]"))
    end = t.index("]", start)
    toml(s).write_text(t[:end] + f', "{name}"' + t[end:], encoding="utf-8")
    (s / name).write_text(text, encoding="utf-8")


def rx_above_tx(s: Path) -> None:
    add_table(s, "counts.csv", "test,frame_size,trial,tx_frames,rx_frames\nfilter-no-acl,64,1,1000,1001\n")


def lost_above_tx(s: Path) -> None:
    add_table(s, "counts.csv", "test,frame_size,trial,tx_frames,lost_frames\nfilter-no-acl,64,1,1000,1200\n")


def lost_inconsistent(s: Path) -> None:
    add_table(s, "counts.csv", "test,frame_size,trial,tx_frames,rx_frames,lost_frames\nfilter-no-acl,64,1,1000,990,3\n")


def ramp_sum_above_sent(s: Path) -> None:
    # every interval receives 40 frames more than it sent: more than frames in flight can explain over the series
    lines = (s / "samples.csv").read_text().splitlines()
    head, rows = lines[0].split(","), [l.split(",") for l in lines[1:]]
    tx, rx = head.index("tx_frames"), head.index("rx_frames")
    for r in rows:
        r[rx] = str(int(r[tx]) + 40)
    (s / "samples.csv").write_text("\n".join([lines[0], *(",".join(r) for r in rows)]) + "\n")


def unidirectional_on_three_ports(s: Path) -> None:
    edit(toml(s), "ports = 2\n", "ports = 3\n")
    add_table(s, "direction.csv", "test,frame_size,direction,throughput_mpps\nsingle-flow,512,unidirectional,1.0\n")


# (name, set, mutation, file the message must name, place it must name, rule, text the message must contain)
CASES = [
    ("port-speed-0G", KEYSIGHT, lambda s: edit(toml(s), 'port_speed = "200G"\nmedia', 'port_speed = "0G"\nmedia'), "result.toml", "tests[0].port_speed", "semantic.port-speed", "0G"),
    ("port-speed-0M", KEYSIGHT, lambda s: edit(toml(s), 'port_speed = "50G"', 'port_speed = "0M"'), "result.toml", "tests[1].port_speed", "semantic.port-speed", "0M"),
    ("port-speed-absurd", KEYSIGHT, lambda s: edit(toml(s), 'port_speed = "50G"', 'port_speed = "99999999G"'), "result.toml", "tests[1].port_speed", "semantic.port-speed", "1600G"),
    ("date-2022-02-30", KEYSIGHT, lambda s: edit(toml(s), 'published = "2022-11-16"', 'published = "2022-02-30"'), "result.toml", "source.published", "semantic.date", "2022-02-30"),
    ("date-next-year", KEYSIGHT, lambda s: edit(toml(s), 'published = "2022-11-16"', f'published = "{NEXT_YEAR}-01-15"'), "result.toml", "source.published", "semantic.date-future", "future"),
    ("campaign-month-next-year", "cisco-7600-osm-acl-2001", lambda s: edit(toml(s), 'end = "2001-07"', f'end = "{NEXT_YEAR}-02"'), "result.toml", "campaign.end", "semantic.date-future", "future"),
    ("rx-above-tx", "cisco-7600-osm-acl-2001", rx_above_tx, "counts.csv", ":2: rx:", "frame-counts", "1001 frames received"),
    ("lost-above-tx", "cisco-7600-osm-acl-2001", lost_above_tx, "counts.csv", ":2: lost:", "frame-counts", "1200 frames lost"),
    ("lost-inconsistent", "cisco-7600-osm-acl-2001", lost_inconsistent, "counts.csv", ":2: lost:", "frame-counts", "990 received"),
    ("ramp-received-above-sent", NETNS, ramp_sum_above_sent, "samples.csv", "rx:", "frame-counts", "more than the"),
    ("jumbo-row-undeclared", KEYSIGHT, lambda s: edit(s / "throughput.csv", "multi-flow,64,~112,~75\n", "multi-flow,64,~112,~75\nmulti-flow,9600,1.0,\n"), "throughput.csv", ":7: frame_size:", "jumbo-frames", "max_frame_bytes"),
    ("jumbo-row-above-declared", KEYSIGHT, lambda s: edit(s / "throughput.csv", "single-flow,64,40,~27\n", "single-flow,64,40,~27\nsingle-flow,9600,1.0,\n"), "throughput.csv", ":5: frame_size:", "jumbo-frames", "declared max_frame_bytes of 9000"),
    ("jumbo-frame-sizes-undeclared", KEYSIGHT, lambda s: edit(toml(s), "frame_sizes = [512, 64]", "frame_sizes = [9600, 512, 64]"), "result.toml", "tests[1].methodology.frame_sizes", "semantic.jumbo-frames", "9600-byte frame"),
    ("jumbo-declaration-removed", KEYSIGHT, lambda s: edit(toml(s), "max_frame_bytes = 9000\n", ""), "result.toml", "tests[0].methodology.frame_sizes", "semantic.jumbo-frames", "9000-byte frame"),
    ("jumbo-imix-undeclared", "cisco-asr9006-rsp440-trex-2022", lambda s: edit(toml(s), 'profile = "trex-imix"\nsizes = [64, 594, 1518]\nweights = [28, 16, 4]', 'sizes = [64, 594, 1600]\nweights = [28, 16, 4]'), "result.toml", "methodology.imix[0].sizes", "semantic.jumbo-frames", "1600-byte frame"),
    ("rlo-in-vendor", KEYSIGHT, lambda s: edit(toml(s), 'vendor = "Keysight"\nmodel', 'vendor = "Key\u202esight"\nmodel'), "result.toml", "dut.vendor", "text.invisible", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("escaped-rlo-in-title", KEYSIGHT, lambda s: edit(toml(s), 'title = "Keysight IxNetwork', 'title = "\\u202EKeysight IxNetwork'), "result.toml", "title", "text.invisible", "U+202E"),
    ("zwsp-in-test-id", KEYSIGHT, lambda s: edit(toml(s), 'id = "single-flow"', 'id = "single\u200b-flow"'), "result.toml", "tests[0].id", "text.invisible", "U+200B ZERO WIDTH SPACE"),
    ("cyrillic-in-vendor", KEYSIGHT, lambda s: edit(toml(s), 'vendor = "Keysight"\nmodel', 'vendor = "Ke\u0443sight"\nmodel'), "result.toml", "dut.vendor", "text.mixed-script", "U+0443 CYRILLIC SMALL LETTER U"),
    ("cyrillic-a-in-slug", KEYSIGHT, lambda s: edit(toml(s), 'slug = "keysight-', 'slug = "keysight-\u0430'), "result.toml", "slug", "text.mixed-script", "U+0430 CYRILLIC SMALL LETTER A"),
    ("control-in-toml", KEYSIGHT, lambda s: edit(toml(s), 'product = "IxNetwork VE"', 'product = "IxNetwork\\u0007 VE"'), "result.toml", "instrument.product", "text.control", "U+0007"),
    ("bidi-in-csv-cell", "cisco-7600-osm-acl-2001", lambda s: edit(s / "cpu.csv", "NMP", "N\u2067MP"), "cpu.csv", ":2: component:", "text.invisible", "U+2067 RIGHT-TO-LEFT ISOLATE"),
    ("bom-inside-csv", "cisco-7600-osm-acl-2001", lambda s: edit(s / "baseline.csv", "baseline,128", "\ufeffbaseline,128"), "baseline.csv", ":5: test:", "text.invisible", "U+FEFF"),
    ("control-in-csv-cell", "cisco-7600-osm-acl-2001", lambda s: edit(s / "cpu.csv", "NMP", "N\x1bMP"), "cpu.csv", ":2: component:", "text.control", "U+001B"),
    ("zwsp-in-csv-header", "cisco-7600-osm-acl-2001", lambda s: edit(s / "baseline.csv", "throughput_mpps", "throughput\u200b_mpps"), "baseline.csv", ":1: column 3:", "text.invisible", "U+200B ZERO WIDTH SPACE"),
    ("cyrillic-in-csv-key", "cisco-7600-osm-acl-2001", lambda s: edit(s / "cpu.csv", "NMP", "NM\u0420"), "cpu.csv", ":2: component:", "text.mixed-script", "CYRILLIC"),
    ("huge-exponent", "cisco-7600-osm-acl-2001", lambda s: edit(s / "baseline.csv", "baseline,64,26.9,91.2", "baseline,64,1e999999,91.2"), "baseline.csv", ":4: throughput_mpps:", "csv.non-numeric", "finite"),
    ("tiny-exponent", "cisco-7600-osm-acl-2001", lambda s: edit(s / "baseline.csv", "baseline,64,26.9,91.2", "baseline,64,1e-999999,91.2"), "baseline.csv", ":4: throughput_mpps:", "csv.magnitude", "1e-30"),
    ("superscript-digit-frame-size", "cisco-7600-osm-acl-2001", lambda s: edit(s / "baseline.csv", "baseline,64,26.9,91.2", "baseline,6\u00b2,26.9,91.2"), "baseline.csv", ":4: frame_size:", "csv.frame-size", "IMIX"),
    ("toml-inf", KEYSIGHT, lambda s: edit(toml(s), '[instrument]\nvendor', '[instrument]\ntimestamp_resolution_ns = inf\nvendor'), "result.toml", "instrument.timestamp_resolution_ns", "toml.number", "finite"),
    ("toml-huge-integer", KEYSIGHT, lambda s: edit(toml(s), "ports = 8\n", "ports = " + "9" * 40 + "\n"), "result.toml", "tests[1].ports", "toml.number", "40-digit"),
    ("unidirectional-row-odd-ports", KEYSIGHT, unidirectional_on_three_ports, "direction.csv", ":2: direction:", "csv.direction", "3 ports"),
]


@pytest.mark.parametrize("name, slug, mutate, file, place, rule, text", CASES, ids=[c[0] for c in CASES])
def test_semantic_rule_is_one_clear_line(tmp_path: Path, name, slug, mutate, file, place, rule, text):
    folder = tmp_path / slug
    shutil.copytree(ARCHIVE / slug, folder)
    mutate(folder)
    proc = run_cli("validate", str(folder))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr and "internal error" not in proc.stdout + proc.stderr
    lines = [l for l in proc.stdout.splitlines() if l.endswith(f"[{rule}]")]
    assert lines, f"no line with rule {rule}:\n{proc.stdout}\n{proc.stderr}"
    line = lines[0]
    assert file in line and place in line and text in line, line
    assert "\n" not in line and len(line) < 600
    assert line.isprintable(), line  # refused characters are shown as escapes, never passed on


def test_jumbo_rows_accepted_with_declaration(ks: Path):
    edit(ks / "throughput.csv", "multi-flow,64,~112,~75\n", "multi-flow,64,~112,~75\nmulti-flow,9600,1.0,\n")
    edit(toml(ks), "frame_sizes = [512, 64]", "frame_sizes = [512, 64, 9600]\nmax_frame_bytes = 9600")
    proc = run_cli("validate", str(ks))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 warnings" in proc.stderr


def test_undeclared_frame_size_is_an_error_naming_the_row(ks: Path):
    edit(ks / "throughput.csv", "multi-flow,64,~112,~75\n", "multi-flow,64,~112,~75\nmulti-flow,1024,1.0,\n")
    proc = run_cli("validate", str(ks))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    line = next(l for l in proc.stdout.splitlines() if "[undeclared-frame-size]" in l)
    assert "throughput.csv:7: frame_size: frame size 1024" in line


def test_partial_dates_and_future_embargo_are_accepted(ks: Path):
    edit(toml(ks), 'published = "2022-11-16"', 'published = "2022-11"')
    edit(toml(ks), 'status = "published"', f'status = "embargoed"\nembargo_until = "{NEXT_YEAR}-06-30"')
    proc = run_cli("validate", str(ks))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_frame_size_conventions_and_vlan_tags():
    eth = {"frame_size_convention": "ethernet-frame"}
    assert oversize(1518, "ethernet-frame", "ethernet", {}) is None
    assert "jumbo" in oversize(1519, "ethernet-frame", "ethernet", {})
    assert oversize(1514, "trex-packet", "ethernet", {}) is None  # a 1518-byte frame with its FCS
    assert "1519-byte frame" in oversize(1515, "trex-packet", "ethernet", {})
    assert oversize(1518, "ethernet-frame", "ethernet", {"vlan_tags": 1}) is None  # 1522 with the tag
    assert oversize(1522, "ethernet-frame", "ethernet", {"vlan_tags": 2, **eth}) is not None  # 1530 > 1526
    assert oversize(1500, "ip-packet", "pos", {}) is None and oversize(4470, "ip-packet", "pos", {}) is not None
    assert oversize(4470, "ip-packet", "pos", {"max_frame_bytes": 4470}) is None
    assert oversize(9216, "ethernet-frame", "ethernet", {"max_frame_bytes": 9216}) is None


def _invoke(*args: str):
    from wirespeed.cli import cli

    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_a_crash_while_loading_one_set_still_reports_the_others(tmp_path: Path, monkeypatch):
    import importlib

    load_mod = importlib.import_module("wirespeed.catalog.load")  # the package re-exports load() under the same name

    a, b = tmp_path / KEYSIGHT, tmp_path / "cisco-7600-osm-acl-2001"
    shutil.copytree(ARCHIVE / a.name, a)
    shutil.copytree(ARCHIVE / b.name, b)
    edit(b / "baseline.csv", "baseline,64,26.9,91.2", "baseline,64,31.0,91.2")  # a real error in the second set
    real = load_mod.load

    def load(folder):
        if Path(folder).name == KEYSIGHT:
            raise ZeroDivisionError("float division by zero")
        return real(folder)

    monkeypatch.setattr(load_mod, "load", load)
    result = _invoke("validate", str(a), str(b))
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    crash = [l for l in lines if l.endswith("[internal]")]
    assert len(crash) == 1 and f"{KEYSIGHT}/result.toml" in crash[0] and "ZeroDivisionError" in crash[0]
    assert any("baseline.csv:4" in l and "[throughput-above-line-rate]" in l for l in lines), result.output
    assert "2 invalid" in result.output


def test_a_crash_in_one_check_still_runs_the_other_checks(tmp_path: Path, monkeypatch):
    from wirespeed.extensions import registry

    b = tmp_path / "cisco-7600-osm-acl-2001"
    shutil.copytree(ARCHIVE / b.name, b)
    edit(b / "baseline.csv", "baseline,64,26.9,91.2", "baseline,64,31.0,91.2")

    def broken(rs):
        """A check that fails."""
        raise OverflowError("int too large to convert to float")

    monkeypatch.setitem(registry("checks"), "frame-size", broken)
    result = _invoke("validate", str(b))
    assert result.exit_code == 1
    crash = [l for l in result.output.splitlines() if l.endswith("[internal]")]
    assert len(crash) == 1 and "cisco-7600-osm-acl-2001/result.toml" in crash[0] and "check frame-size" in crash[0]
    assert "[throughput-above-line-rate]" in result.output


def test_a_crash_while_ingesting_one_set_still_loads_the_others(tmp_path: Path, monkeypatch):
    import wirespeed.catalog.store as catalog

    root = tmp_path / "results"
    for slug in (KEYSIGHT, "cisco-7600-osm-acl-2001"):
        shutil.copytree(ARCHIVE / slug, root / slug)
    real = catalog._insert_set

    def insert(con, rs, *args):
        if rs.slug == KEYSIGHT:
            raise ValueError("boom")
        return real(con, rs, *args)

    monkeypatch.setattr(catalog, "_insert_set", insert)
    reports = {r.slug: r for r in catalog.ingest(sorted(root.iterdir()), tmp_path / "c.duckdb")}
    assert reports[KEYSIGHT].action == "rejected" and reports[KEYSIGHT].errors[0].rule == "internal"
    assert "result.toml" in str(reports[KEYSIGHT].errors[0])
    assert reports["cisco-7600-osm-acl-2001"].action == "loaded" and reports["cisco-7600-osm-acl-2001"].rows_loaded > 0


def test_dates_against_a_pinned_today():
    from wirespeed.resultset.schemacheck import schema
    from wirespeed.resultset.semantics import check_dates

    def rules(**fields):
        doc = {"source": {"published": fields.pop("published", "2022")}, "campaign": fields, "embargo_until": "2031-01-01"}
        return [(p.field, p.rule) for p in check_dates(doc, schema(), "result.toml", today=dt.date(2022, 3, 1))]

    assert rules(start="2022-03", end="2022-03-01") == []  # partial dates are kept; embargo_until may lie ahead
    assert rules(end="2022-04") == [("campaign.end", "semantic.date-future")]
    assert rules(published="2022-03-02") == [("source.published", "semantic.date-future")]
    assert rules(start="2022-02-29", end="2020-02-29") == [("campaign.start", "semantic.date")]
    assert rules(start="2021-04-31") == [("campaign.start", "semantic.date")]
