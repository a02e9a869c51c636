"""Who collected a result set, where, under which licence and in which state: from the lab, never a fixed string.

Every collector takes the same provenance. Each field comes from, in order: the command line
(`wirespeed collect NAME --publisher … --licence … --location … --status …`), the `[set]` table of the
collector's config (the same four and `operator`, `testbed`, `embargo_until`), and otherwise what the
collecting machine can state about itself (`machine()`: host name, operating system, kernel, processor,
and each NIC's driver, version and firmware from `ethtool -i`). A new set is a `draft` until someone
has looked at it, and its licence is SPDX's `NOASSERTION` until the lab names one (validation refuses
to publish either way). `stamp()` writes the fields into result.toml and the machine's facts into
`raw/machine.json`:

| field | result.toml | default |
|---|---|---|
| publisher | source.publisher | ACCOUNT@HOST |
| licence | licence | NOASSERTION |
| location | campaign.location | host HOST (operating system) |
| operator | campaign.engineers | the account that collected |
| testbed | campaign.testbed | the machine's facts (the collector may state its own, e.g. the T-Rex server's) |
| status | status | draft |
"""

from __future__ import annotations

import datetime as dt
import getpass
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIELDS: dict[str, str] = {  # name -> what it is (the flags' help and the docs read it from here)
    "publisher": "Who publishes the set: a lab, a company or a person (default: ACCOUNT@HOST of the collecting machine).",
    "licence": "The data's licence as an SPDX identifier, e.g. CC-BY-4.0 (default: NOASSERTION, which validate refuses to publish).",
    "location": "Where the test ran, e.g. 'Acme lab 2, rack 4' (default: the collecting host's name and system).",
    "operator": "Who ran the test (default: the account that collected).",
    "testbed": "The test bed: hosts, NICs, drivers, firmware, cabling (default: what the machine states about itself).",
    "status": "draft, embargoed or published (default: draft: nobody has looked at the set yet).",
}
FLAGS = ("publisher", "licence", "location", "status")  # the ones every collector takes on its command line
CONFIG_KEYS = (*FIELDS, "embargo_until")  # allowed in a config's [set] table
STATUSES = ("draft", "embargoed", "published")
NO_LICENCE = "NOASSERTION"  # SPDX: no licence stated (wirespeed.resultset.semantics refuses to publish it)
LICENCE = re.compile(r"[A-Za-z0-9.+-]+")
QUICK_TAG = "quick-run"
MAX_TEXT = 4000


class ProvenanceError(Exception):
    """A provenance value is wrong; one line naming the flag or the config field."""


@dataclass(frozen=True)
class Provenance:
    """The provenance fields of one collection, and which of them the lab stated (the rest are the machine's)."""

    publisher: str
    licence: str
    location: str
    operator: str
    testbed: str
    status: str = "draft"
    embargo_until: str | None = None
    stated: frozenset[str] = frozenset()
    machine: dict[str, Any] = field(default_factory=dict)


def _run(argv: list[str]) -> str | None:
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout if p.returncode == 0 else None


def _nics() -> list[dict[str, str]]:
    """Every interface backed by a device (/sys/class/net/IF/device), with `ethtool -i`'s driver, version, firmware and bus."""
    out = []
    net = Path("/sys/class/net")
    for dev in sorted(net.iterdir()) if net.is_dir() else []:
        if not (dev / "device").exists():
            continue  # loopback, veth, bridges, tunnels: no hardware behind them
        info = {"interface": dev.name}
        text = _run(["ethtool", "-i", dev.name]) if shutil.which("ethtool") else None
        for line in (text or "").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("driver", "version", "firmware-version", "bus-info") and value.strip():
                info[key.strip()] = value.strip()
        if "driver" not in info and (dev / "device" / "driver").exists():
            info["driver"] = os.path.basename(os.readlink(dev / "device" / "driver"))
        out.append(info)
    return out


def machine() -> dict[str, Any]:
    """What this machine states about itself: host, account, operating system, kernel, processor and NICs."""
    osr: dict[str, str] = {}
    if Path("/etc/os-release").is_file():
        for line in Path("/etc/os-release").read_text("utf-8", "replace").splitlines():
            key, sep, value = line.partition("=")
            if sep:
                osr[key] = value.strip().strip('"')
    cpu = next((line.split(":", 1)[1].strip() for line in (Path("/proc/cpuinfo").read_text("utf-8", "replace").splitlines()
                                                         if Path("/proc/cpuinfo").is_file() else []) if line.startswith("model name")), None)
    return {"host": socket.gethostname(), "account": getpass.getuser(), "os": osr.get("PRETTY_NAME") or platform.system(),
            "kernel": platform.release(), "machine": platform.machine(), "cpu": cpu or platform.processor() or "unknown processor",
            "cpus": os.cpu_count(), "nics": _nics(), "ethtool": bool(shutil.which("ethtool"))}


def describe_machine(m: dict[str, Any]) -> str:
    """The machine's facts in one line: host, system, kernel, processor, NICs with driver and firmware."""
    nics = "; ".join(f"NIC {n['interface']}: " + ", ".join(x for x in (n.get("driver", "driver unknown") + (f" {n['version']}" if n.get("version") else ""),
                                                                     f"firmware {n['firmware-version']}" if n.get("firmware-version") else "",
                                                                     f"bus {n['bus-info']}" if n.get("bus-info") else "") if x)
                     for n in m.get("nics", []))
    return (f"host {m['host']}: {m['os']}, kernel {m['kernel']} ({m['machine']}), {m['cpu']} ({m['cpus']} CPUs)"
            + (f"; {nics}" if nics else "; no NIC (no interface backed by a device)"))


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise ProvenanceError(f"{where}: expected text of 1 to {MAX_TEXT} characters")
    return " ".join(value.split())


def check_value(name: str, value: Any, where: str) -> str:
    """The value of one provenance field, checked (ProvenanceError naming `where` otherwise)."""
    if name == "status":
        if value not in STATUSES:
            raise ProvenanceError(f"{where}: {value!r} is not one of {', '.join(STATUSES)}")
        return value
    if name == "licence":
        if not isinstance(value, str) or not LICENCE.fullmatch(value):
            raise ProvenanceError(f"{where}: {value!r} is not an SPDX licence identifier (e.g. CC-BY-4.0, CC0-1.0)")
        return value
    if name == "embargo_until":
        if not isinstance(value, (str, dt.date)) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(value)):
            raise ProvenanceError(f"{where}: expected a date YYYY-MM-DD")
        return str(value)
    return _text(value, where)


def resolve(flags: dict[str, Any] | None = None, table: Any = None, where: str = "config", facts: dict[str, Any] | None = None,
            testbed: str | None = None) -> Provenance:
    """Provenance from the flags (None: not given), then the config's [set] table (`where` names it in errors), then the machine.

    `testbed` is the collector's own statement of the test bed (e.g. the T-Rex server's), used when the lab states none."""
    table = {} if table is None else table
    if not isinstance(table, dict):
        raise ProvenanceError(f"{where}: expected a table")
    stated: dict[str, str] = {}
    for name in CONFIG_KEYS:
        if name in table:
            stated[name] = check_value(name, table[name], f"{where}.{name}")
    for name, value in (flags or {}).items():
        if name not in FLAGS:
            raise ProvenanceError(f"--{name}: not a provenance flag (known: {', '.join('--' + f for f in FLAGS)})")
        if value is not None:
            stated[name] = check_value(name, value, f"--{name}")
    if stated.get("status") == "embargoed" and "embargo_until" not in stated:
        raise ProvenanceError(f"{where}.embargo_until: an embargoed set needs the date it may be published (embargo_until = \"YYYY-MM-DD\" in [set])")
    if stated.get("status") != "embargoed" and "embargo_until" in stated:
        raise ProvenanceError(f"{where}.embargo_until: given, but the status is {stated.get('status', 'draft')!r}, not 'embargoed'")
    m = facts if facts is not None else machine()
    defaults = {"publisher": f"{m['account']}@{m['host']}", "licence": NO_LICENCE, "location": f"host {m['host']} ({m['os']})",
                "operator": m["account"], "testbed": testbed or describe_machine(m), "status": "draft"}
    values = {name: stated.get(name, defaults[name]) for name in FIELDS}
    return Provenance(**values, embargo_until=stated.get("embargo_until"), stated=frozenset(n for n in stated if n in FIELDS), machine=m)


def stamp(doc: dict[str, Any], prov: Provenance, files: dict[str, bytes] | None = None) -> dict[str, Any]:
    """Write the provenance into a result.toml document (in place; returned) and the machine's facts into files["raw/machine.json"]."""
    doc["status"] = prov.status
    doc.pop("embargo_until", None)
    if prov.embargo_until:
        doc["embargo_until"] = prov.embargo_until
    doc["licence"] = prov.licence
    doc.setdefault("source", {})["publisher"] = prov.publisher
    campaign = doc.setdefault("campaign", {})
    campaign.update({"location": prov.location, "engineers": [prov.operator], "testbed": prov.testbed})
    machine_said = ", ".join(sorted(set(FIELDS) - prov.stated)) or "nothing"
    note = (f"Collected on {describe_machine(prov.machine)} by {prov.machine.get('account', '?')}. "
            f"The lab stated {', '.join(sorted(prov.stated)) or 'no provenance'}; {machine_said} came from the collecting machine.")
    src = doc["source"]
    said = (src.get("notes") or "").strip()
    src["notes"] = f"{said}{'' if said.endswith('.') else '.'} {note}" if said else note
    if files is not None and prov.machine:
        files["raw/machine.json"] = (json.dumps(prov.machine, indent=1, sort_keys=True) + "\n").encode()
        attachments = doc.setdefault("files", {}).setdefault("attachments", [])
        if not any(a.get("path") == "raw/machine.json" for a in attachments):
            attachments.append({"path": "raw/machine.json", "title": "The collecting machine's facts: host, system, kernel, processor, NICs (ethtool -i)"})
    return doc


def mark_quick(doc: dict[str, Any], title: str, what: str) -> dict[str, Any]:
    """A --quick run: its own title, the quick-run tag, and a summary that says it is a short run, not for comparison."""
    doc["title"] = title
    tags = doc.setdefault("tags", [])
    if QUICK_TAG not in tags:
        tags.append(QUICK_TAG)
    doc["summary"] = f"Quick run ({what}; a short check, not for comparison). {doc.get('summary', '')}".strip()
    return doc


def stamp_folder(folder: Path, prov: Provenance) -> None:
    """stamp() a result set written in place (a collector that writes its own folder): result.toml and raw/machine.json."""
    from wirespeed.resultset.writer import dumps

    doc = tomllib.loads((folder / "result.toml").read_text("utf-8"))
    files: dict[str, bytes] = {}
    stamp(doc, prov, files)
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    (folder / "result.toml").write_text(dumps(doc), encoding="utf-8")
