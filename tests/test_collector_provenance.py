"""Provenance from the lab: the flags every collector takes, the config's [set] table, the machine's own facts;
drafts by default, never published without a licence or when synthetic; and the collect command built from
the registry of collectors (every one listed, a typo refused with a suggestion)."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT, run_cli
from wirespeed.cli import cli
from wirespeed.collectors import provenance as prov
from wirespeed.extensions import registry

FACTS = {"host": "bench7", "account": "jsmith", "os": "Debian GNU/Linux 12 (bookworm)", "kernel": "6.1.0-18-amd64", "machine": "x86_64",
         "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz", "cpus": 64, "ethtool": True,
         "nics": [{"interface": "ens1f0", "driver": "ice", "version": "6.1.0-18-amd64", "firmware-version": "4.20 0x8001778b 1.3346.0", "bus-info": "0000:17:00.0"}]}


def test_the_lab_states_and_the_machine_fills_in_the_rest() -> None:
    lab = prov.resolve({"publisher": "Acme Test Lab", "licence": None, "location": None, "status": None},
                       {"licence": "CC-BY-4.0", "operator": "A. Tester", "publisher": "overridden by the flag"}, "lab.toml: set", FACTS)
    assert (lab.publisher, lab.licence, lab.operator, lab.status) == ("Acme Test Lab", "CC-BY-4.0", "A. Tester", "draft")
    assert lab.location == "host bench7 (Debian GNU/Linux 12 (bookworm))"
    assert lab.testbed == ("host bench7: Debian GNU/Linux 12 (bookworm), kernel 6.1.0-18-amd64 (x86_64), Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz "
                           "(64 CPUs); NIC ens1f0: ice 6.1.0-18-amd64, firmware 4.20 0x8001778b 1.3346.0, bus 0000:17:00.0")
    assert lab.stated == {"publisher", "licence", "operator"}
    nothing = prov.resolve({}, None, "x", FACTS)
    assert (nothing.publisher, nothing.licence, nothing.operator, nothing.status) == ("jsmith@bench7", "NOASSERTION", "jsmith", "draft")
    assert prov.resolve({}, None, "x", {**FACTS, "nics": []}).testbed.endswith("; no NIC (no interface backed by a device)")


def test_stamp_writes_every_field_and_the_machine_file() -> None:
    lab = prov.resolve({"publisher": "Acme Test Lab", "licence": "CC-BY-4.0", "location": "Acme lab 2, rack 4", "status": None}, None, "x", FACTS)
    doc = {"status": "published", "licence": "CC0-1.0", "source": {"kind": "measured", "publisher": "wirespeed", "notes": "Measured by x"},
           "campaign": {"location": "a 2-core VM shared with other jobs"}, "files": {"attachments": []}}
    files: dict[str, bytes] = {}
    prov.stamp(doc, lab, files)
    assert (doc["status"], doc["licence"], doc["source"]["publisher"]) == ("draft", "CC-BY-4.0", "Acme Test Lab")
    assert doc["campaign"] == {"location": "Acme lab 2, rack 4", "engineers": ["jsmith"], "testbed": lab.testbed}
    assert doc["source"]["notes"].startswith("Measured by x. Collected on host bench7:")
    assert doc["source"]["notes"].endswith("The lab stated licence, location, publisher; operator, status, testbed came from the collecting machine.")
    assert json.loads(files["raw/machine.json"]) == FACTS and doc["files"]["attachments"][0]["path"] == "raw/machine.json"


@pytest.mark.parametrize("flags, table, message", [
    ({"status": "final"}, None, "--status: 'final' is not one of draft, embargoed, published"),
    ({"licence": "CC BY 4.0"}, None, "--licence: 'CC BY 4.0' is not an SPDX licence identifier (e.g. CC-BY-4.0, CC0-1.0)"),
    ({"publisher": "  "}, None, "--publisher: expected text of 1 to 4000 characters"),
    ({}, {"status": "embargoed"}, "lab.toml: set.embargo_until: an embargoed set needs the date it may be published"),
    ({}, {"embargo_until": "2027-01-01"}, "lab.toml: set.embargo_until: given, but the status is 'draft', not 'embargoed'"),
    ({"colour": "red"}, None, "--colour: not a provenance flag"),
])
def test_bad_provenance_is_one_line_naming_the_flag_or_field(flags, table, message) -> None:
    with pytest.raises(prov.ProvenanceError) as exc:
        prov.resolve(flags, table, "lab.toml: set", FACTS)
    assert str(exc.value).startswith(message) and "\n" not in str(exc.value)


@pytest.mark.slow  # asks the machine (ethtool, ip and the like)
def test_the_machine_states_itself() -> None:
    m = prov.machine()
    assert m["host"] and m["kernel"] and m["cpus"] >= 1 and m["cpu"]
    for nic in m["nics"]:  # every interface backed by a device, with ethtool -i's driver when ethtool is installed
        assert Path(f"/sys/class/net/{nic['interface']}/device").exists() and nic["driver"]


def test_validate_refuses_to_publish_without_a_licence(tmp_path: Path) -> None:
    src = next(p for p in sorted((ROOT / "data" / "results").iterdir()) if (p / "result.toml").is_file()
               and tomllib.loads((p / "result.toml").read_text())["status"] == "published")
    folder = tmp_path / src.name
    shutil.copytree(src, folder)
    text = (folder / "result.toml").read_text()
    doc = tomllib.loads(text)
    (folder / "result.toml").write_text(text.replace(f'licence = "{doc["licence"]}"', 'licence = "NOASSERTION"', 1))
    proc = run_cli("validate", str(folder))
    assert proc.returncode == 1 and "licence: NOASSERTION (no licence stated) cannot be published" in proc.stdout and "[publish.licence]" in proc.stdout


def test_the_catalog_never_lists_a_synthetic_set_as_published(tmp_path: Path) -> None:
    """Validation already refuses a published synthetic set; the catalog's published_sets view leaves one out even so."""
    from wirespeed.catalog.store import connect

    con = connect(tmp_path / "c.duckdb")
    cols = [c for (c,) in con.execute("SELECT column_name FROM information_schema.columns WHERE table_name = 'result_sets' ORDER BY ordinal_position").fetchall()]
    for slug, kind in (("real", "measured"), ("sim", "synthetic")):
        values = {c: None for c in cols} | {"slug": slug, "status": "published", "source_kind": kind}
        con.execute(f"INSERT INTO result_sets VALUES ({', '.join('?' * len(cols))})", [values[c] for c in cols])
    assert con.execute("SELECT slug FROM published_sets").fetchall() == [("real",)]
    con.close()


# ---- the collect command

def test_collect_help_lists_every_collector_from_the_registry() -> None:
    res = CliRunner().invoke(cli, ["collect", "--help"])
    assert res.exit_code == 0
    listed = [line.split()[0] for line in res.output.split("Commands:")[1].splitlines() if line.startswith("  ") and not line.startswith("   ")]
    assert listed == sorted(registry("collectors")) and {"netns", "netns-ramp", "trex"} <= set(listed)
    for name in listed:
        own = CliRunner().invoke(cli, ["collect", name, "--help"])
        assert own.exit_code == 0
        assert all(f"--{flag}" in own.output for flag in prov.FLAGS), name
    trex = CliRunner().invoke(cli, ["collect", "trex", "--help"]).output
    assert all(o in trex for o in ("--server", "--config", "--record", "--replay", "--quick", "--force", "--timeout"))


@pytest.mark.parametrize("args", [["netnss"], ["netnss", "--help"], ["trx", "--into", "x"]])
def test_a_mistyped_collector_exits_non_zero_with_a_suggestion(args: list[str]) -> None:
    proc = run_cli("collect", *args)
    assert proc.returncode == 2
    suggestion = {"netnss": "netns", "trx": "trex"}[args[0]]
    assert f"no collector {args[0]!r}; did you mean {suggestion!r}? (installed: " in proc.stderr


def test_the_registered_trex_collector_is_the_one_that_runs() -> None:
    """One registration: `collect trex` is the entry point wirespeed.collectors.trex_collect:run, options and all."""
    from wirespeed.collectors.trex_collect import run

    assert registry("collectors")["trex"] is run
    proc = run_cli("collect", "trex", "--into", "x")
    assert proc.returncode == 1 and proc.stderr.strip() == "trex: give --server HOST[:PORT] and --config FILE (or --replay FILE: see docs/collectors.md)"
