"""Result sets of several tool files each, imported by `wirespeed import auto FILE… --into SLUG` and built in the
session's real-files build (tests/realbuild.py) beside the one-file sets, instead of in builds of their own: the
imported sets of every importer's example files (test_import_cli.py) and of real CSIT files of every model and
container (test_importer_csit_build.py). Each group names its files and what a contributor adds after the import
(the fields the files do not state); the tests that own a group check its figures in that build."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import tomlkit

from conftest import ROOT

EX = ROOT / "docs" / "importers" / "examples"
CSIT_REAL = ROOT / "tests" / "real" / "fdio-csit"
UDP, TCP = EX / "iperf3" / "udp.json", EX / "iperf3" / "tcp.json"
NFV = EX / "nfvbench" / "ndr-64b-generator-short.json"
CSIT = EX / "csit" / "ndrpdr-64b-2t1c-l3fwd.info.json"


def _fill_imported(doc) -> None:
    """What a contributor adds to an imported example set: the fields the files do not state."""
    doc["title"], doc["licence"], doc["status"] = f"Imported {doc['slug']}", "CC0-1.0", "published"
    doc["source"]["publisher"] = "wirespeed test suite"
    if "published" not in doc["source"]:  # the traffic generators' exports state no date
        doc["source"]["published"] = "2024-03-14"
    doc["dut"]["vendor"], doc["dut"]["model"] = "Example", "Device under test"
    for t in doc["tests"]:
        for key, value in (("scenario", "ipv4-routing"), ("topology", "port-pairs"), ("ports", 2), ("port_speed", "10G"), ("direction", "bidirectional")):
            if key not in t:
                t[key] = value


def _fill_csit(doc) -> None:
    """What a contributor adds to a set of CSIT files: the fields CSIT's files do not state."""
    doc["title"], doc["licence"], doc["status"] = f"FD.io CSIT {doc['slug']}", "Apache-2.0", "published"
    doc["source"]["publisher"] = "FD.io CSIT"
    doc["dut"]["vendor"], doc["dut"]["model"] = "FD.io", "CSIT testbed"


# slug → (its files, in the order given to `import auto`; the fill)
IMPORTED: dict[str, tuple[list[Path], Callable]] = {slug: (files, _fill_imported) for slug, files in {
    "lo-iperf3-2026": [UDP, TCP], "pvp-nfvbench-2024": [NFV], "vpp-csit-2024": [CSIT],
    "trex-2024": [EX / "trex" / "ndr-bench.json", EX / "trex" / "stl-stats.json", EX / "trex-sweep" / "sweep.json", EX / "trex-loadtest-viz" / "report.html"],
    "stc-2024": [EX / "spirent" / "basic-counters.txt", EX / "spirent" / "rx-stream-block-results.txt"],
    "ixn-2024": [EX / "ixnetwork" / "traffic-item-statistics.csv", EX / "ixnetwork" / "rest-statistics-page.json"],
    "netperf-2011": [EX / "netperf" / "tcp-stream.txt", EX / "netperf" / "udp-rr.txt"],
    "k8s-netperf-2025": [EX / "k8s-netperf" / "result.csv"],
    "flent-2015": [EX / "flent" / "rrul_icmp.flent.gz"],
    "iperf2-2026": [EX / "iperf2" / "udp-server.csv"],
    "moongen-2019": [EX / "moongen" / "quality-of-service-test.log"],
    "lo-iperf3-bidir-2026": [EX / "iperf3" / "tcp-bidir.json"]}.items()}

# one set per DUT software version (a set describes one DUT)
CSIT_SETS: dict[str, tuple[list[Path], Callable]] = {slug: ([CSIT_REAL / f for f in files], _fill_csit) for slug, files in {
    "csit-vpp-frouter-2024": ["64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz", "imix-4c-ethip4-ip4scale100k-frouter-mrr.info.json.gz"],
    "csit-dpdk-l3fwd-2021": ["dpdk_64b-1c-ethip4-ip4base-l3fwd-ndrpdr.info.json", "dpdk_64b-1c-ethip4-ip4base-l3fwd-mrr.info.json",
                             "dpdk_64b-1c-ethip4-ip4base-l3fwd-soak.info.json"],
    "csit-trex-2021": ["trex_64b-eth-l2bdscale1mmaclrn-tg-ndrpdr.info.json"],
    "csit-vpp-2101": ["uti-draft-0.1.0_2101-3n-hsw.64_64b-1t1c-eth-l2patch-ndrpdr.json", "uti-draft-0.1.0_2101-3n-hsw.63_64b-1t1c-eth-l2patch-mrr.json",
                      "uti-draft-0.1.0-flat_78b-1c-ethip6-ip6base-ndrpdr.json", "uti-draft-0.1.0_2101-2n-skx.68_64b-2t1c-ethip4-ip4base-soak.json"],
    "csit-vpp-2202-trend": ["glue_ndrpdr_2021-12-06_part-00000.snappy.parquet"],
    "csit-vpp-2202-mrr": ["uti-0.2.0_storage_test_mrr.info.json"]}.items()}

GROUPS = {**IMPORTED, **CSIT_SETS}


def import_all(work: Path, run: Callable) -> tuple[list[str], dict[str, str]]:
    """Import every group into work/data/results with `run` (realsets' in-process CLI runner) and fill it in; returns
    the slugs made and, for each group that did not import or validate, its slug and the command's first lines."""
    root = work / "data" / "results"
    made, failed = [], {}
    for slug, (files, fill) in GROUPS.items():
        proc = run("import", "auto", *map(str, files), "--into", slug, "--root", str(root), cwd=work)
        if proc.returncode != 0:
            failed[slug] = f"import auto failed ({proc.returncode}): {(proc.stdout + proc.stderr)[-1500:]}"
            continue
        toml = root / slug / "result.toml"
        doc = tomlkit.parse(toml.read_text(encoding="utf-8"))
        fill(doc)
        toml.write_text(tomlkit.dumps(doc), encoding="utf-8")
        check = run("validate", str(root / slug), cwd=work)
        if check.returncode != 0:
            failed[slug] = "does not validate once filled in: " + " | ".join(check.stdout.splitlines()[:3])
            continue
        made.append(slug)
    return made, failed
