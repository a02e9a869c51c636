"""What FD.io CSIT's test names and Robot tags state about a test: frame size, threads and cores,
NIC (port speed and port count), testbed topology, traffic direction, scenario, and the IMIX.

CSIT names a suite `{topology}-{nic code}-{suite tag}-{test type}` (2n1l-25ge2p1xxv710-ethip4-ip4base-
ndrpdr; 3-node suites of before 2021 have no topology prefix) and a test in it `{frame size}-
{threads and cores}-{suite tag}-{test type}` (64b-2t1c-ethip4-ip4base-ndrpdr); a test id is
`{suite id}.{test name}` in lower case (tests.vpp.perf.ip4.2n1l-….64b-2t1c-…). A NIC code reads
`{speed}ge{ports}p{cards}{model}`: 25ge2p1xxv710 is one Intel XXV710 card with two 25GE ports.
The tags (docs/content/overview/csit/test_tags.md in FDio/csit) say the same things again:
64B / IMIX, 2T1C and 1C, NIC_Intel-XXV710, 2_NODE_SINGLE_LINK_TOPO, UDIR, IP4FWD, …
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

IMIX_ID = "imix-v4-1"
IMIX = {"id": IMIX_ID, "sizes": [64, 570, 1518], "weights": [28, 16, 4]}
"""CSIT's only IMIX, IMIX_v4_1 (GPL/traffic_profiles/trex/profile_trex_stateless_base_class.py:
64, 570 and 1518-byte frames, FCS included, at 28:16:4 packets per second; the IMIX tag's
documentation says the same: "28x 64B, 16x 570B, 4x 1518B"). Its average frame is 353.83 bytes,
the value CSIT's performance_vars.robot uses for bandwidth."""

NIC_CODES = {
    "Intel-X520-DA2": "10ge2p1x520", "Intel-X553": "10ge2p1x553", "Intel-X710": "10ge2p1x710", "Intel-XL710": "40ge2p1xl710",
    "Intel-XXV710": "25ge2p1xxv710", "Intel-E810XXV": "25ge2p1e810xxv", "Intel-E822CQ": "25ge2p1e822cq", "Intel-E823C": "25ge2p1e823c",
    "Intel-E810CQ": "100ge2p1e810cq", "Amazon-Nitro-50G": "50ge1p1ena", "Amazon-Nitro-100G": "100ge1p1ena",
    "Amazon-Nitro-200G": "200ge1p1ena", "Mellanox-CX556A": "100ge2p1cx556a", "Mellanox-CX6DX": "100ge2p1cx6dx",
    "Cavium-A063-100G": "100ge2p1a063", "Cisco-VIC-1227": "10ge2p1vic1227", "Cisco-VIC-1385": "40ge2p1vic1385",
}
"""NIC tag (without NIC_) → NIC code, as CSIT's Constants.NIC_NAME_TO_CODE has had them (one code a
name; Mellanox-CX7VEAT is left out: CSIT uses it as 200ge2p1 and 200ge6p3)."""

NIC_CODE = re.compile(r"^(\d+)ge(\d+)p(\d+)[a-z0-9]+$")
TOPOLOGY_TAGS = {"2_NODE_SINGLE_LINK_TOPO": "2n1l", "2_NODE_DOUBLE_LINK_TOPO": "2n2l", "3_NODE_SINGLE_LINK_TOPO": "3n1l", "3_NODE_DOUBLE_LINK_TOPO": "3n2l"}
FRAME = re.compile(r"^(\d+)b$")
CORES = re.compile(r"^(\d+t\d+c|\d+c)$")
SCENARIOS = (("L2XCFWD", "l2-xconnect", "l2"), ("L2PATCH", "l2-xconnect", "l2"), ("L2BDMACLRN", "bridge-domain", "l2"),
             ("L2BDMACSTAT", "bridge-domain", "l2"), ("IP4FWD", "ipv4-routing", "ipv4"), ("IP6FWD", "ipv6-unicast", "ipv6"))
"""Forwarding-mode tags → wirespeed scenario and address family (the first tag found wins; an ACL
tag makes the test acl-filtering, a test of the traffic generator alone generator-capacity)."""
SUITE_WORDS = (("l2xc", "l2-xconnect", "l2"), ("l2patch", "l2-xconnect", "l2"), ("l2bd", "bridge-domain", "l2"),
               ("ethip4", "ipv4-routing", "ipv4"), ("ip4", "ipv4-routing", "ipv4"), ("ethip6", "ipv6-unicast", "ipv6"), ("ip6", "ipv6-unicast", "ipv6"))
"""The same from the words of a suite name, for files without tags (CSIT's Parquet tables): the
first word starting with one of these prefixes wins (eth-l2xcbase-…: l2-xconnect)."""


@dataclass(frozen=True)
class Nic:
    code: str | None  # 25ge2p1xxv710
    model: str | None  # Intel-XXV710
    speed: str | None  # 25G
    ports: int | None


def words(text: str | None) -> list[str]:
    """A CSIT name split at dashes, lower case ("64B-2t1c-ethip4…" → ["64b", "2t1c", "ethip4", …])."""
    return [w for w in (text or "").strip().lower().split("-")] if text else []


def suite_of(test_id: str | None) -> str | None:
    """The suite name of a test id: the last dotted part of its suite id."""
    parts = (test_id or "").strip().lower().split(".")
    return parts[-2].replace(" ", "_") if len(parts) >= 2 and parts[-2] else None


def name_of(test_id: str | None) -> str | None:
    """The test name of a test id (its last dotted part)."""
    parts = (test_id or "").strip().lower().split(".")
    return parts[-1] if len(parts) >= 2 and parts[-1] else None


def upper_tags(tags: list[str]) -> set[str]:
    return {t.strip().upper() for t in tags}


def frame_size(tags: list[str], name: str | None) -> int | str | None:
    """64 for a 64B tag (or a test name starting 64b-), IMIX_ID for IMIX; None when neither says."""
    for t in upper_tags(tags):
        if m := re.fullmatch(r"(\d+)B", t):
            return int(m.group(1)) if int(m.group(1)) > 0 else None
        if t == "IMIX" or t.startswith("IMIX_V4_1"):
            return IMIX_ID
    first = next(iter(words(name)), "")
    if m := FRAME.match(first):
        return int(m.group(1)) if int(m.group(1)) > 0 else None
    return IMIX_ID if first in ("imix", "imix_v4_1") else None


def cores(tags: list[str], name: str | None) -> str | None:
    """Threads and cores as the test name writes them (2t1c, 1c), else from the 2T1C or 1C tag."""
    for w in words(name)[1:3]:
        if CORES.match(w):
            return w
    up = upper_tags(tags)
    return next((t.lower() for t in sorted(up) if re.fullmatch(r"\d+T\d+C", t)), None) or next((t.lower() for t in sorted(up) if re.fullmatch(r"\d+C", t)), None)


def nic(tags: list[str], suite: str | None) -> Nic:
    """The NIC from the suite name's code, else from the NIC_ tag through CSIT's table."""
    model = next((t.strip()[4:] for t in tags if t.strip().upper().startswith("NIC_")), None)
    code = next((w for w in words(suite) if NIC_CODE.match(w)), None) or NIC_CODES.get(model or "")
    if code is None:
        return Nic(None, model, None, None)
    m = NIC_CODE.match(code)
    return Nic(code, model, f"{int(m.group(1))}G", int(m.group(2)))


def testbed(tags: list[str], suite: str | None) -> str | None:
    """The testbed topology: the suite name's prefix (2n1l, 1n1l, 2n), else the one topology tag."""
    first = next(iter(words(suite)), "")
    if re.fullmatch(r"\dn(\dl)?", first):
        return first
    found = {TOPOLOGY_TAGS[t] for t in upper_tags(tags) if t in TOPOLOGY_TAGS}
    return found.pop() if len(found) == 1 else None


def direction(tags: list[str], suite: str | None, latency_directions: set[str]) -> str:
    """unidirectional for UDIR / UDP_UDIR / LOADBALANCER tags, a -udir- suite or latency measured
    forward only (CSIT exports latency_reverse only for bidirectional profiles); else CSIT's default
    symmetric bidirectional profile."""
    up = upper_tags(tags)
    if up & {"UDIR", "UDP_UDIR"} or any(t.startswith("LOADBALANCER") for t in up) or "udir" in words(suite):
        return "unidirectional"
    if latency_directions == {"forward"}:
        return "unidirectional"
    return "bidirectional"


def generator_only(tags: list[str], test_id: str | None, dut_type: str | None) -> bool:
    """A test of the traffic generator alone (tests.trex.…, no DUT)."""
    return (test_id or "").lower().startswith("tests.trex.") or (str(dut_type or "").lower() in ("none", "unknown") and "TREX" in upper_tags(tags))


def scenario(tags: list[str], suite: str | None, generator: bool) -> tuple[str, str | None] | None:
    """(wirespeed scenario, address family) the tags (else the suite name) state, or None."""
    if generator:
        return ("generator-capacity", None)
    up = upper_tags(tags)
    family = next(((sc, af) for tag, sc, af in SCENARIOS if tag in up), None)
    ws = words(suite)
    if family is None and not tags:
        family = next(((sc, af) for w in ws for prefix, sc, af in SUITE_WORDS if w.startswith(prefix)), None)
    if family and (any("ACL" in t for t in up) or any("acl" in w for w in ws)):
        return ("acl-filtering", family[1])
    return family


def traffic_pattern(bed: str | None) -> str | None:
    """wirespeed's topology: a 3-node testbed sends through two DUTs in a chain; 1 and 2-node
    testbeds pair the generator's ports through the one DUT (or a loop)."""
    if bed is None:
        return None
    return "chain" if bed.startswith("3n") else "port-pairs"


def slug(text: str, limit: int = 80) -> str:
    """A result.toml id: lower-case letters, digits and single dashes; too long → cut with a hash."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "csit"
    if len(s) <= limit:
        return s
    digest = hashlib.sha256(s.encode()).hexdigest()[:8]
    return s[: limit - 9].rstrip("-") + "-" + digest
