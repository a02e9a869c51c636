"""FD.io CSIT per-test info.json (the UTI test-case model, 1.x): NDR/PDR bounds, MRR trials, latency.

ndrpdr: result.ndr|pdr.lower|upper.rate (pps, aggregate of both directions) and .bandwidth (bps,
layer 1) become throughput / throughput_l1 (lower bound) and throughput_upper / throughput_upper_l1,
as variants ndr and pdr. result.latency_forward|latency_reverse.pdr_0|10|50|90 (min, avg, max and
an HDR histogram, µs) become rows of variant pdr-0 … pdr-90 (latency at that share of the PDR lower
bound; pdr-0 at CSIT's minimal rate) with port forward or reverse, percentiles from the histogram.
mrr: result.receive_rate.rate.values (one per trial) become forwarding_rate per trial, with the
average as a row of its own. Frame size, cores and NIC come from the tags and the long test name.
One info.json is one test case; a test of the set is a suite at one thread/core count, its frame
sizes the files imported into it.
"""

from __future__ import annotations

import re

from wirespeed.importers import hdr
from wirespeed.importers.common import json_head_has, keyed, lenient, parse_json, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.problems import Problem

RULE = "import.csit"
LOADS = ("pdr_0", "pdr_10", "pdr_50", "pdr_90")
SCENARIOS = {"IP4FWD": ("ipv4-routing", "ipv4"), "IP6FWD": ("ipv6-unicast", "ipv6"), "L2XCFWD": ("l2-xconnect", "l2"), "L2BDMACLRN": ("bridge-domain", "l2")}
NIC = re.compile(r"^(\d+)ge(\d+)p")


def _doc(data: bytes, file: str) -> tuple[dict | None, list[Problem]]:
    doc, problems = parse_json(data, file)
    if doc is None:
        return None, problems
    if not isinstance(doc, dict) or not isinstance(doc.get("result"), dict) or "test_id" not in doc:
        return None, [Problem(file, None, "", "expected a CSIT test-case info.json: an object with 'test_id', 'tags' and 'result'", RULE)]
    if doc.get("passed") is False:
        msg = str(doc.get("message", "")).strip().splitlines()
        return None, [Problem(file, None, "passed", f"CSIT marks the test as failed: {msg[0] if msg else 'no message'}", RULE)]
    return doc, []


def _tag_list(doc: dict) -> list[str]:
    tags = doc.get("tags")
    return [t.strip() for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def _tags(doc: dict) -> list[str]:
    return [t.upper() for t in _tag_list(doc)]


def frame_size(doc: dict) -> int | str | None:
    """The frame size tag (64B → 64, IMIX → "imix"), or None."""
    for t in _tags(doc):
        if re.fullmatch(r"\d+B", t):
            return int(t[:-1])
        if t.startswith("IMIX"):
            return "imix"
    return None


def _bound(block, file: str, where: str) -> tuple[dict, list[Problem]]:
    """{rate, bandwidth} of one bound; the rate must be in pps."""
    if not isinstance(block, dict) or not isinstance(block.get("rate"), dict):
        return {}, [Problem(file, None, where, "expected {rate: {value, unit}}", RULE)]
    unit = str(block["rate"].get("unit", "")).strip()
    if unit != "pps":
        return {}, [Problem(file, None, f"{where}.rate.unit", f"expected pps, not {unit!r}", RULE)]
    value = lenient(block["rate"].get("value"))
    if value is None:
        return {}, [Problem(file, None, f"{where}.rate.value", "expected a number", RULE)]
    out = {"rate": value}
    bw = block.get("bandwidth")
    if isinstance(bw, dict) and lenient(bw.get("value")) is not None:
        if str(bw.get("unit", "")).strip() != "bps":
            return {}, [Problem(file, None, f"{where}.bandwidth.unit", f"expected bps, not {bw.get('unit')!r}", RULE)]
        out["bandwidth"] = lenient(bw["value"])
    return out, []


def _ndrpdr(result: dict, keys: dict, file: str) -> tuple[list, list[Problem], int]:
    rows, problems, n = [], [], 0
    for variant in ("ndr", "pdr"):
        n += 1
        block = result.get(variant)
        lower, probs = _bound(block.get("lower") if isinstance(block, dict) else None, file, f"result.{variant}.lower")
        problems += probs
        if not lower:
            continue
        upper, probs = _bound(block["upper"], file, f"result.{variant}.upper") if "upper" in block else ({}, [])
        problems += probs
        rows.append(row("measurements", file, 0, {**keys, "variant": variant}, {
            "throughput": (lower["rate"], "pps"), "throughput_l1": (lower.get("bandwidth"), "bps"),
            "throughput_upper": (upper.get("rate"), "pps"), "throughput_upper_l1": (upper.get("bandwidth"), "bps")}))
    for direction in ("forward", "reverse"):
        lat = result.get(f"latency_{direction}")
        if lat is None:
            continue
        for load in LOADS:
            n += 1
            where = f"result.latency_{direction}.{load}"
            numbers = lat.get(load) if isinstance(lat, dict) else None
            if not isinstance(numbers, dict):
                problems.append(Problem(file, None, where, "expected {min, avg, max, hdrh, unit}", RULE))
                continue
            if str(numbers.get("unit", "us")).strip() != "us":
                problems.append(Problem(file, None, f"{where}.unit", f"expected us, not {numbers.get('unit')!r}", RULE))
                continue
            values = {f"latency_{k}": (lenient(numbers.get(k)), "us") for k in ("min", "avg", "max")}
            if numbers.get("hdrh"):
                hist, probs = hdr.decode(numbers["hdrh"], file, f"{where}.hdrh", RULE)
                problems += probs
                if hist is not None:
                    values.update({m: (v, "us") for m, v in hdr.percentiles(hist).items()})
            rows.append(row("measurements", file, 0, {**keys, "variant": load.replace("_", "-"), "port": direction}, values))
    return rows, problems, n


def _mrr(result: dict, keys: dict, file: str) -> tuple[list, list[Problem], int]:
    rate = keyed(result, "receive_rate", "rate")
    if not isinstance(rate, dict) or not isinstance(rate.get("values"), list) or not rate["values"]:
        return [], [Problem(file, None, "result.receive_rate.rate.values", "expected a list of receive rates, one per trial", RULE)], 0
    if str(rate.get("unit", "")).strip() != "pps":
        return [], [Problem(file, None, "result.receive_rate.rate.unit", f"expected pps, not {rate.get('unit')!r}", RULE)], 0
    rows, problems = [], []
    for i, v in enumerate(rate["values"]):
        value = lenient(v)
        if value is None:
            problems.append(Problem(file, None, f"result.receive_rate.rate.values[{i}]", f"expected a number, not {v!r}", RULE))
            continue
        rows.append(row("measurements", file, 0, {**keys, "trial": i + 1}, {"forwarding_rate": (value, "pps")}))
    if lenient(rate.get("avg")) is not None:
        rows.append(row("measurements", file, 0, keys, {"forwarding_rate": (lenient(rate["avg"]), "pps")}))
    return rows, problems, len(rate["values"]) + ("avg" in rate)


def import_csit(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """CSIT info.json → NDR/PDR bounds and latency rows (ndrpdr), or receive rate per trial (mrr)."""
    doc, problems = _doc(data, file)
    if doc is None:
        return [], problems, 0
    size = spec.get("frame_size", frame_size(doc))
    if size is None or (isinstance(size, str) and size not in test.imixes):
        return [], [Problem(file, None, "tags", "no frame size: expected a tag such as 64B (or an IMIX tag with the test's methodology.imix declared)", RULE)], 0
    keys = {"test": test.id, "frame_size": size}
    kind = str(doc["result"].get("type", "")).strip()
    if kind == "ndrpdr":
        return _ndrpdr(doc["result"], keys, file)
    if kind == "mrr":
        return _mrr(doc["result"], keys, file)
    return [], [Problem(file, None, "result.type", f"expected ndrpdr or mrr results, not {kind!r}", RULE)], 0


def sniff(head: bytes, name: str) -> float:
    """A UTI info.json names test_name_long, tg_type and dut_type."""
    return 0.9 if json_head_has(head, "test_id", "tags") and (b'"tg_type"' in head or b'"test_name_long"' in head) else 0.0


def describe(data: bytes, name: str) -> ImportPlan:
    """The test (suite at one core count), its frame size, port speed and ports from the NIC name,
    scenario from the tags; VPP/DPDK and T-Rex versions; start and end times."""
    plan = ImportPlan("csit")
    doc, plan.problems = _doc(data, name)
    if doc is None:
        return plan
    tags = _tags(doc)
    kind = str(doc["result"].get("type", "")).strip()
    if kind not in ("ndrpdr", "mrr"):
        plan.problems.append(Problem(name, None, "result.type", f"expected ndrpdr or mrr results, not {kind!r}", RULE))
        return plan
    long_name = str(doc.get("test_name_long", "")).strip().lower()
    short = str(doc.get("test_name_short", "")).strip().lower() or long_name
    cores = next((t.lower() for t in tags if re.fullmatch(r"\d+T\d+C", t)), None) or next((t.lower() for t in tags if re.fullmatch(r"\d+C", t)), "")
    test_id = re.sub(r"[^a-z0-9]+", "-", f"{short}-{cores}").strip("-")
    size = frame_size(doc)
    if size is None:
        plan.problems.append(Problem(name, None, "tags", "no frame size: expected a tag such as 64B or IMIX", RULE))
        return plan
    fields: dict = {"title": f"CSIT {short}, {cores.upper()}" if cores else f"CSIT {short}", "rfc": ["2544"] if kind == "ndrpdr" else ["vendor"]}
    nic = NIC.match(long_name)
    if nic:
        fields["ports"], fields["port_speed"] = int(nic.group(2)), f"{nic.group(1)}G"
    if kind == "ndrpdr" and "latency_forward" in doc["result"]:
        fields["direction"] = "bidirectional" if "latency_reverse" in doc["result"] else "unidirectional"
    scenario = next((SCENARIOS[t] for t in tags if t in SCENARIOS), None)
    if scenario:
        fields["scenario"], fields["address_family"] = scenario
    nic_tag = next((t for t in _tag_list(doc) if t.upper().startswith("NIC_")), None)
    fields["description"] = f"FD.io CSIT {doc.get('test_id')}" + (f" on {nic_tag[4:]}" if nic_tag else "") + "; tags: " + ", ".join(_tag_list(doc)) + "."
    method: dict = {"frame_sizes": [size], "frame_size_convention": "ethernet-frame"}
    if kind == "ndrpdr":
        fields["variants"] = {"ndr": "NDR: highest rate without loss (lower bound; upper bound beside it)",
                              "pdr": "PDR: highest rate with at most 0.5 % loss (lower bound; upper bound beside it)",
                              **{load.replace("_", "-"): (f"latency at {load[4:]} % of the PDR lower bound" if load != "pdr_0" else "latency at CSIT's minimal rate")
                                 for load in LOADS}}
        method.update({"search": "binary", "loss_tolerance_pct": 0.5, "notes": "CSIT's MLRsearch: NDR at 0 % loss, PDR at 0.5 % (the tolerance above)."})
    else:
        values = keyed(doc["result"], "receive_rate", "rate", "values")
        method.update({"search": "single-rate", "trials": len(values) if isinstance(values, list) and values else 1,
                       "notes": "MRR: receive rate with the offered load at line rate (or the NIC's limit)."})
    fields["methodology"] = method
    plan.tests.append(TestPlan(test_id, fields, [{"frame_size": size}] if isinstance(size, int) else [{}]))
    if isinstance(size, str):
        plan.unstated.append("methodology.imix")
    for key, label in (("dut_type", "dut_version"),):
        if doc.get(key) and doc.get(label):
            plan.dut = {"software": [{"name": str(doc[key]).strip(), "version": str(doc[label]).strip()}]}
    tg = str(doc.get("tg_type", "")).strip()
    plan.instrument = {"vendor": "Cisco (open source)" if tg.upper() == "TREX" else tg or "unknown", "product": ("T-Rex" if tg.upper() == "TREX" else tg) + " driven by FD.io CSIT"}
    software = [{"name": "T-Rex" if tg.upper() == "TREX" else tg, "version": str(doc["tg_version"]).strip()}] if doc.get("tg_version") and tg else []
    if doc.get("version"):
        software.append({"name": "CSIT UTI model", "version": str(doc["version"]).strip()})
    if software:
        plan.instrument["software"] = software
    dates = [str(doc[k]).strip()[:10] for k in ("start_time", "end_time") if isinstance(doc.get(k), str) and re.match(r"^\d{4}-\d{2}-\d{2}", doc[k].strip())]
    if dates:
        plan.campaign = {"start": min(dates), "end": max(dates)}
        plan.source = {"published": max(dates), "publication_kind": "test-run"}
    plan.unstated += [f"tests.{test_id}.topology"]
    return plan


IMPORTER = Importer(
    summary="FD.io CSIT per-test info.json (UTI model): NDR/PDR lower/upper bounds, MRR trials, latency at 0/10/50/90 % of PDR with HDR percentiles",
    sniff=sniff,
    describe=describe,
    convert=import_csit,
    examples=("docs/importers/examples/csit/ndrpdr-64b-1c.info.json", "docs/importers/examples/csit/mrr-64b-1c.info.json"),
)
