"""`wirespeed show`: recomputed figures beside the published ones, every disagreement flagged."""

from __future__ import annotations

import json

import pytest

from conftest import ARCHIVE, run_cli

SETS = sorted(p.name for p in ARCHIVE.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    """One catalog for every example's `show` (the first ingests the archive, the others find it current), as a user
    running `show` set after set has; the tests below start from no catalog."""
    return tmp_path_factory.mktemp("show") / "c.duckdb"


@pytest.mark.parametrize("slug", SETS)
def test_show_every_example(slug, catalog):
    db = catalog
    proc = run_cli("show", slug, "--db", str(db))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(run_cli("show", slug, "--json", "--db", str(db)).stdout)
    for a in data["agreements"]:
        assert a["published"].split()[0] in proc.stdout
        mark = "✓" if a["agree"] else "✗"
        assert f"{a['recomputed_text']} {mark}" in proc.stdout
    bad = [a for a in data["agreements"] if not a["agree"]]
    assert f"{len(bad)} disagree" in proc.stdout
    for a in bad:
        assert f"✗ {a['where']}: {a['metric']} published {a['published']}" in proc.stdout


def test_show_flags_the_asr9006_disagreements(tmp_path):
    proc = run_cli("show", "cisco-asr9006-rsp440-trex-2022", "--db", str(tmp_path / "c.duckdb"))
    assert "63 published derived figures recomputed: 46 agree, 17 disagree." in proc.stdout
    assert "✗ ipv4-lag, 64 bytes, multi-flow, unidirectional: throughput_line_rate published 84 %, recomputed 42.1 %" in proc.stdout
    assert "17 published figures disagree" in proc.stderr


def test_show_json_has_the_published_and_derived_numbers(tmp_path):
    data = json.loads(run_cli("show", "cisco-nexus-9516-128x100g-2015", "--json", "--db", str(tmp_path / "c.duckdb")).stdout)
    row = next(r for r in data["rows"] if r["test_id"] == "l2-unicast" and r["frame_size"] == 64 and r["load_pct"] == 99.999)
    assert row["cells"]["throughput"]["text"] == "19047430585"
    assert row["cells"]["throughput_l2"]["text"] == "9.752" and row["cells"]["throughput_l2"]["unit_symbol"] == "Tbit/s"
    assert row["line_rate_fps"] == pytest.approx(19_047_619_047.6, abs=0.1)


def test_show_unknown_slug_is_one_line(tmp_path):
    proc = run_cli("show", "no-such-set", "--db", str(tmp_path / "c.duckdb"))
    assert proc.returncode == 1 and "no result set 'no-such-set'" in proc.stderr and "Traceback" not in proc.stderr


def test_help_on_every_command():
    for cmd in ("validate", "ingest", "show", "new", "summary", "plugins", "schema"):
        proc = run_cli(cmd, "--help")
        assert proc.returncode == 0 and "Usage:" in proc.stdout
