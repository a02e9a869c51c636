"""What an NFVbench file states about its result set (`describe`): one test per group of runs
(`nfvbench_layout`), the instrument and its versions, the dates, NFVbench's IMIX, and its warnings
carried into the tests' notes.

Stated from the file: the direction, the flow count, the frame sizes, the loads, the trial
duration, the NDR/PDR loss thresholds, the line rate NFVbench used (`config.intf_speed_used`,
the port speed), two ports in port pairs (NFVbench drives exactly two generator ports, 0 and 1,
each the other's receiver). NFVbench's IMIX is fixed in its code since 2.0.5 (traffic_utils.py:
64, 594 and 1518-byte frames, FCS included, at 7:4:1, wirespeed's simple-imix); it is declared
when the file's NFVbench is that recent and the file's own theoretical rate for the IMIX run
agrees with that mix. Not stated: the scenario (what the chain's VNF does).
"""

from __future__ import annotations

import re

from wirespeed.engine.imix import PROFILES
from wirespeed.engine.linerate import ETHERNET_MAX_FRAME, parse_speed
from wirespeed.importers import nfvbench_layout as layout
from wirespeed.importers.common import keyed, number
from wirespeed.importers.contract import ImportPlan, TestPlan
from wirespeed.problems import Problem

RULE = layout.RULE
IMIX = {"id": "imix", "profile": "simple-imix", "sizes": [64, 594, 1518], "weights": [7, 4, 1]}
IMIX_SINCE = (2, 0, 5)  # NFVBENCH-108: the fixed 7:4:1 mix of 64, 594 and 1518-byte frames
TEXT_MAX = 4000  # the longest text result.toml holds
ASKED = re.compile(r"requested TX rate \(([0-9.]+)\) and actual TX rate \(([0-9.]+)\)")


def _version(text) -> tuple[int, ...] | None:
    m = re.match(r"^\s*v?(\d+)\.(\d+)(?:\.(\d+))?", str(text or ""))
    return tuple(int(g or 0) for g in m.groups()) if m else None


def port_speed(config: dict) -> str | None:
    """The line rate NFVbench used per port (config.intf_speed_used, else the detected one), as 25G."""
    for key in ("intf_speed_used", "intf_speed_detected"):
        bps = number(config, key)
        if bps:
            text = f"{bps / 1e9:g}G" if bps >= 1e9 else f"{bps / 1e6:g}M"
            try:
                parse_speed(text)
            except ValueError:
                return None
            return text
    return None


def _imix_checked(entries: list[layout.Entry]) -> str | None:
    """Why NFVbench's IMIX cannot be declared for these runs, or None when it can."""
    mix = PROFILES[IMIX["profile"]].average_frame()
    for e in entries:
        if e.size_key.upper() != "IMIX":
            continue
        version = _version(e.run.result.get("nfvbench_version"))
        if version is None or version < IMIX_SINCE:
            return f"NFVbench {e.run.result.get('nfvbench_version', '(version not stated)')} is older than 2.0.5, whose IMIX frame sizes it does not record"
        used = number(e.config, "intf_speed_used")
        for stats in [keyed(e.body, b, "stats") for b in ("ndr", "pdr")] + [e.body.get("stats")]:
            theoretical = number(stats, "theoretical_tx_rate_pps")
            if used and theoretical and not keyed(e.config, "user_info", "extra_encapsulation_bytes"):
                avg = 2 * used / 8 / theoretical - 20  # NFVbench: two ports at line rate, 20 bytes of preamble and gap a frame
                if abs(avg - mix) > 1e-6 * mix:
                    return f"the file's theoretical rate at {e.where} implies an average IMIX frame of {avg:.3f} bytes, not the {mix:.3f} of NFVbench's 7:4:1 mix"
    return None


def _short(flows: int) -> str:
    return f"{flows // 1000}k" if flows >= 1000 and flows % 1000 == 0 else str(flows)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _sent(message: str) -> str:
    """NFVbench's warning as 'the generator sent 16,701,232 of 74,404,760 frames/s asked (22.4 %)', or quoted."""
    m = ASKED.search(message)
    if not m:
        return f"“{message[:300]}”"
    req, act = float(m.group(1)), float(m.group(2))
    return f"the generator sent {act:,.0f} of {req:,.0f} frames/s asked" + (f" ({act / req * 100:.1f} %)" if req else "")


def _size(e: layout.Entry) -> str:
    return f"{e.size_key} bytes" if e.size_key.isdigit() else e.size_key


def _loads(ents: list[layout.Entry]) -> list[float]:
    return sorted({float(f.value) for e in ents if (f := layout.load_of(e)) is not None})


def _common(values: list) -> float | int | None:
    values = [v for v in values if v]
    return values[0] if values and all(v == values[0] for v in values) else None


def _notes(ents: list[layout.Entry], name: str, thresholds: dict) -> tuple[list[str], list[Problem]]:
    """The test's notes (NFVbench's warnings, searches that found nothing) and a warning for each."""
    warned, missing, ceiling, problems = [], [], [], []
    for e in ents:
        warned_blocks = layout.warnings_of(e)
        ceiling += [f"{_size(e)} ({b.upper()})" for b in ("ndr", "pdr") if isinstance(e.body.get(b), dict) and b not in warned_blocks and layout.at_ceiling(e.body[b])]
        for block, message in warned_blocks.items():
            if block == "run_config":
                load = layout.load_of(e)
                warned.append(f"{_size(e)}" + (f", {load.text} % load" if load else "") + f": {_sent(message)}")
                where, what = f"{e.where}.run_config.warning", "the load is the rate sent"
            else:
                warned.append(f"{_size(e)} ({block.upper()}): {_sent(message)}")
                where, what = f"{e.where}.{block}.stats.warning", "the throughput is published as at least the rate sent"
            problems.append(Problem(name, None, where, f"NFVbench: {_sent(message)}: {what}", RULE, "warning"))
        for block in ("ndr", "pdr"):
            b = e.body.get(block)
            if isinstance(b, dict) and layout.found_nothing(b):
                thr = thresholds.get(block)
                missing.append(f"{_size(e)} {block.upper()}")
                problems.append(Problem(name, None, f"{e.where}.{block}", f"NFVbench found no {block.upper()}: every load it tried lost more than "
                                        + (f"{thr:g} %" if thr is not None else "the threshold") + " (it writes rates of 0); no row", RULE, "warning"))
    notes = [f"NFVbench warned at {w}." for w in warned]
    if warned:
        notes.append("NFVbench warns when the traffic generator sends less than 90 % of the rate it asked for (\"The traffic generator may not have "
                     "sufficient CPU to achieve the requested TX rate\"): the figures are the rates sent"
                     + (", and a throughput so measured is published as at least that rate (≥), as the device lost no more than the threshold and the "
                        "generator could not offer more." if ents[0].kind == layout.SEARCH else "."))
    if ceiling:
        notes.append("NFVbench's search ended at its ceiling, line rate in each direction, without losing more than the threshold at: " + ", ".join(ceiling)
                     + "; the throughput is published as at least the rate the generator sent (≥).")
    if missing:
        notes.append("NFVbench found no rate meeting the loss threshold (every load it tried lost more) at: " + ", ".join(missing) + "; these have no row.")
    return notes, problems


def _method_notes(first: layout.Entry) -> str:
    if first.kind == layout.FIXED:
        return ("Loads are the rates the generator sent (NFVbench's run_config tx rate, in percent of line rate per direction"
                + (", averaged over the two directions" if first.bidirectional else "") + "), not the rates asked for (run_config orig). "
                "tx_rate and rx_rate are NFVbench's: frames sent and received ÷ the duration.")
    return ("The throughput is the rate the generator sent at the rate NFVbench's binary search found (stats.total_tx_rate: frames sent ÷ duration, "
            "both directions together). NFVbench's rate_pps, rate_bps and rate_percent are the rates it asked for, its percentages added over the "
            "two directions (200 % is line rate both ways): none of them is published. Frame sizes count the FCS and any VLAN tag, as NFVbench counts them.")


def _test(part: str, ents: list[layout.Entry], prefix: str, name: str) -> tuple[TestPlan, list[str], list[Problem]]:
    first = ents[0]
    config, rec = first.config, first.run.record
    blocks = [b for b in ("ndr", "pdr") if any(isinstance(e.body.get(b), dict) for e in ents)]
    kind = "fixed-rate" if first.kind == layout.FIXED else "-".join(blocks) or "search"
    flows = first.flows
    test_id = "-".join(x for x in (prefix, _slug(first.chain) or "chain", f"x{first.chain_count}" if first.chain_count > 1 else "",
                                   f"{_short(flows)}-flows" if flows else "", "" if first.bidirectional else "unidirectional", kind) if x)
    what = {"fixed-rate": "fixed rate", "ndr": "NDR", "pdr": "PDR", "ndr-pdr": "NDR and PDR"}.get(kind, "NDR/PDR search")
    title = f"NFVbench {first.chain} chain" + (f" ×{first.chain_count}" if first.chain_count > 1 else "") + (f", {flows:,} flows" if flows else "") + f": {what}"
    title += "" if first.bidirectional else " (unidirectional)"
    title += f" ({prefix})" if prefix else ""
    sizes = [int(e.size_key) for e in ents if e.size_key.isdigit() and int(e.size_key) > 0]
    imix = any(e.size_key.upper() == "IMIX" for e in ents)  # any other name is refused by the conversion
    method: dict = {"frame_sizes": sorted(set(sizes)) + (["imix"] if imix else []), "frame_size_convention": "ethernet-frame",
                    "search": "fixed-rate" if first.kind == layout.FIXED else "binary"}
    durations = ([number(e.config, "duration_sec") for e in ents] if first.kind == layout.FIXED
                 else [number(e.body[b], "duration_sec") for e in ents for b in blocks if isinstance(e.body.get(b), dict)])
    if (d := _common(durations)) is not None:
        method["trial_duration_s"] = d
    thresholds = {b: number(keyed(config, "measurement"), b.upper()) for b in ("ndr", "pdr")}
    fields: dict = {"title": title, "rfc": ["vendor"] if first.kind == layout.FIXED else ["2544"], "topology": "port-pairs", "ports": 2,
                    "direction": "bidirectional" if first.bidirectional else "unidirectional"}
    if flows:
        fields["flows"] = flows
    speed = port_speed(config)
    if speed:
        fields["port_speed"] = speed
    if first.kind == layout.FIXED:
        if loads := _loads(ents):
            method["offered_loads_pct"] = loads
    else:
        fields["variants"] = {b: f"NFVbench {b.upper()}: the highest rate with loss at most " + (f"{thresholds[b]:g} %" if thresholds[b] is not None else "its threshold")
                              for b in blocks}
        tolerances = [thresholds[b] for b in blocks if thresholds[b] is not None]
        if tolerances:
            method["loss_tolerance_pct"] = max(tolerances)
    unstated = [f"tests.{test_id}.scenario"] + ([] if speed else [f"tests.{test_id}.port_speed"])
    problems: list[Problem] = []
    if imix:
        why = _imix_checked(ents)
        if why is None:
            method["imix"] = [IMIX]
        else:
            unstated.append(f"tests.{test_id}.methodology.imix")
            problems.append(Problem(name, None, first.where, f"NFVbench's IMIX is not declared: {why}", RULE, "warning"))
    if sizes and max(sizes) > ETHERNET_MAX_FRAME:
        method["max_frame_bytes"] = max(sizes)
    method_notes = [_method_notes(first)]
    if "imix" in method:
        method_notes.append("IMIX is NFVbench's: 64, 594 and 1518-byte frames at 7:4:1 (traffic_gen/traffic_utils.py).")
    if "max_frame_bytes" in method:
        method_notes.append(f"NFVbench does not record the ports' MTU: max_frame_bytes is the largest frame it sent, {max(sizes)} bytes.")
    method["notes"] = " ".join(method_notes)
    fields["methodology"] = method
    source = ""
    if rec:
        source = " From the OPNFV TestAPI record" + "".join(f" {label} {str(rec[k]).strip()}" for k, label in (("case_name", "of case"), ("pod_name", "on pod"), ("start_date", "started"))
                                                         if str(rec.get(k, "")).strip()) + "."
    label = str(config.get("user_label") or "").strip()
    fields["description"] = (f"NFVbench traffic through the {first.chain} service chain" + (f" ({first.chain_count} chains)" if first.chain_count > 1 else "")
                             + (", one binary search per frame size." if first.kind == layout.SEARCH else ", one fixed-rate run per frame size and load.")
                             + source + (f" NFVbench user label: {label}." if label else ""))[:TEXT_MAX]
    notes, probs = _notes(ents, name, thresholds)
    detected, used = number(config, "intf_speed_detected"), number(config, "intf_speed_used")
    if detected and used and detected != used:
        notes.append(f"NFVbench was told to take {used / 1e9:g} Gbit/s as line rate (intf_speed); it detected {detected / 1e9:g} Gbit/s generator ports.")
    if notes:
        text = " ".join(notes)
        fields["notes"] = text if len(text) <= TEXT_MAX else text[:TEXT_MAX - 1] + "…"
    return TestPlan(test_id, fields, [{"part": part}]), unstated, problems + probs


def describe(data: bytes, name: str) -> ImportPlan:
    """One test per group of runs (record, chain, flows, direction, kind); NFVbench and T-Rex
    versions; the run dates (and the TestAPI records' dates)."""
    plan = ImportPlan("nfvbench")
    reading = layout.read(data, name)
    plan.problems, found, failed = list(reading.problems), reading.runs, reading.failed
    groups: dict[str, list[layout.Entry]] = {}
    for e in reading.entries:
        groups.setdefault(e.part, []).append(e)
    records = {e.run.record_where: e.run.record for ents in groups.values() for e in ents}
    prefixes = {}
    if len(records) > 1:
        for where, rec in records.items():
            date = str(rec.get("start_date", "")).strip()[:10]
            prefixes[where] = date if re.match(r"^\d{4}-\d{2}-\d{2}$", date) else _slug(where)
    ids: set[str] = set()
    order = list(records)
    for part, ents in sorted(groups.items(), key=lambda g: (order.index(g[1][0].run.record_where), g[1][0].kind != layout.SEARCH, g[1][0].chain, g[1][0].flows or 0)):
        test, unstated, probs = _test(part, ents, prefixes.get(ents[0].run.record_where, ""), name)
        base, n = test.id, 1
        while test.id in ids:
            n += 1
            test.id = f"{base}-{n}"
        ids.add(test.id)
        plan.tests.append(test)
        plan.unstated += [u.replace(f"tests.{base}.", f"tests.{test.id}.") for u in unstated]
        plan.problems += probs
    for note in failed:
        plan.problems.append(Problem(name, None, "", note, RULE, "warning"))
    if failed:
        plan.methodology["notes"] = " ".join(failed)[:TEXT_MAX]
    if not plan.tests and not any(p.severity == "error" for p in plan.problems):
        plan.problems.append(Problem(name, None, "", "no NFVbench run with results in the file", RULE))
    _instrument(plan, found)
    dates = [str(d).strip()[:10] for run in found for d in (run.result.get("date"), run.record.get("start_date"), run.record.get("stop_date"))
             if isinstance(d, str) and re.match(r"^\d{4}-\d{2}-\d{2}", d.strip())]
    if dates:
        plan.campaign = {"start": min(dates), "end": max(dates)}
        plan.source = {"published": max(dates), "publication_kind": "test-run"}
    return plan


def _instrument(plan: ImportPlan, found: tuple[layout.Run, ...]) -> None:
    versions = [v for v in dict.fromkeys(str(r.result.get("nfvbench_version", "")).strip() for r in found) if v]
    tgs = [v for v in dict.fromkeys(str(keyed(r.result, "benchmarks", "network", "versions", "Traffic_Generator", "version") or "").strip() for r in found) if v]
    if not found:
        return
    plan.instrument = {"vendor": "OPNFV", "product": "NFVbench" + (" with the T-Rex traffic generator" if tgs else "")}
    software = [{"name": "NFVbench", "version": v} for v in versions] + [{"name": "T-Rex", "version": v} for v in tgs]
    if software:
        plan.instrument["software"] = software
