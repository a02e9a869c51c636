"""What CSIT runs state about their result set (the ImportPlan of `wirespeed import csit`): one
test per CSIT suite at one thread/core count (its frame sizes are the runs imported into it),
named after CSIT's suite (2n1l-25ge2p1xxv710-ethip4-ip4base-l3fwd-ndrpdr-2t1c); a file holding
the same test twice (the trending Parquet: one row per CI build) makes one test per run, the
build in its id. The DUT's software and the generator's versions, dates, port speed and ports,
direction, scenario and the IMIX come from the runs; nothing the files do not state is guessed.
"""

from __future__ import annotations

from collections import Counter

from wirespeed.engine.jumbo import standard_max
from wirespeed.importers import csit_names as names
from wirespeed.importers.contract import ImportPlan, TestPlan
from wirespeed.importers.csit_run import RULE, Run
from wirespeed.problems import Problem

KIND_TITLES = {"ndrpdr": "NDR/PDR", "mrr": "MRR", "soak": "soak"}
LATENCY_TEXT = {0: "at CSIT's minimal rate (9000 pps a direction)", 100: "at the lower bound itself (the search's trial)"}
MULTI = ("Robot output.xml", "CSIT Parquet")
"""Sources holding any number of runs: their [files].native entries name the run (part)."""


def suite_name(run: Run) -> str:
    """CSIT's suite name, or the one CSIT would give (topology-nic-suite tag-type) when the file has no test id."""
    if run.suite:
        return run.suite
    nic = names.nic(run.tags, None)
    short = run.short or "-".join(w for w in names.words(run.name) if not (names.FRAME.match(w) or names.CORES.match(w) or w == "imix"))
    bed = names.testbed(run.tags, None)
    return "-".join(p for p in (bed, nic.code, short, run.kind) if p)


def base_id(run: Run) -> str:
    cores = names.cores(run.tags, run.name)
    return names.slug("-".join(p for p in (suite_name(run), cores) if p))


def frame_size(run: Run) -> int | str | None:
    return names.frame_size(run.tags, run.name)


def parts(runs: list[Run]) -> list[str]:
    """The part of each run of a many-run file: its test id, with the build (or the row) when the
    file holds the test more than once."""
    keys = [r.test_id or r.where for r in runs]
    counts = Counter(keys)
    return [k if counts[k] == 1 else f"{k} #{r.build or r.where}" for k, r in zip(keys, runs)]


def test_ids(runs: list[Run]) -> list[str]:
    """The set's test id of each run: the base id, and the build (or row) where the same test and
    frame size come twice."""
    keys = [(base_id(r), frame_size(r)) for r in runs]
    counts = Counter(keys)
    out = []
    for (base, _size), r in zip(keys, runs):
        if counts[(base, _size)] == 1:
            out.append(base)
        else:
            tail = f"b{r.build}" if r.build else r.where.replace(" ", "")
            out.append(names.slug(f"{base[: 80 - len(tail) - 1]}-{tail}"))
    return out


def describe_runs(runs: list[Run], problems: list[Problem], file: str) -> ImportPlan:
    plan = ImportPlan("csit")
    plan.problems = list(problems)
    if not runs:
        if not any(p.severity == "error" for p in plan.problems):
            plan.problems.append(Problem(file, None, "", "no CSIT test run to import", RULE))
        return plan
    duts = sorted({r.dut for r in runs if r.dut}, key=str)
    if len(duts) > 1:
        listed = ", ".join(f"{_dut_name(t)} {v}" for t, v in duts[:4])
        plan.problems.append(Problem(file, None, "dut_version", f"runs of {len(duts)} DUT versions ({listed}): a result set describes one DUT, "
                                                               "import the runs of one version", RULE))
        return plan
    if duts:
        plan.dut = {"software": [{"name": _dut_name(duts[0][0]), "version": duts[0][1]}]}
    multi = runs[0].source in MULTI
    part_of = dict(zip(map(id, runs), parts(runs)))
    tests: dict[str, TestPlan] = {}
    for run, tid in zip(runs, test_ids(runs)):
        size = frame_size(run)
        if size is None:
            plan.problems.append(Problem(file, None, run.where or "tags", f"{run.label()}: no frame size: expected a tag such as 64B or IMIX, "
                                                                          "or a test name starting 64b- or imix-", RULE))
            continue
        native = {"frame_size": size, **({"part": part_of[id(run)]} if multi else {})}
        if tid not in tests:
            tests[tid] = TestPlan(tid, _fields(run), [])
            if tid != base_id(run):  # the same test again in this file: its run says which
                tests[tid].fields["title"] += f" (build {run.build})" if run.build else f" ({run.where})"
            plan.unstated += [f"tests.{tid}.{key}" for key in ("topology", "port_speed", "ports", "scenario") if key not in tests[tid].fields]
        if isinstance(size, int) and size > standard_max("ethernet", 0) and f"tests.{tid}.methodology.max_frame_bytes" not in plan.unstated:
            plan.unstated.append(f"tests.{tid}.methodology.max_frame_bytes")  # jumbo frames: the ports' setting is not in CSIT's files
        test = tests[tid]
        test.native.append(native)
        sizes = test.fields["methodology"]["frame_sizes"]
        sizes += [size] if size not in sizes else []
        _add_imix(test.fields["methodology"], size)
    plan.tests = list(tests.values())
    _instrument(plan, runs)
    dates = sorted(d[:10] for r in runs for d in (r.start, r.end) if d)
    if dates:
        plan.campaign = {"start": dates[0], "end": dates[-1]}
        plan.source = {"published": dates[-1], "publication_kind": "test-run"}
    return plan


def _dut_name(kind: str) -> str:
    return kind.upper() if kind.lower() in ("vpp", "dpdk") else kind


def _add_imix(method: dict, size) -> None:
    if size == names.IMIX_ID and not any(m.get("id") == names.IMIX_ID for m in method.get("imix", [])):
        method.setdefault("imix", []).append(dict(names.IMIX))


def _fields(run: Run) -> dict:
    suite = suite_name(run)
    cores = names.cores(run.tags, run.name)
    nic = names.nic(run.tags, suite)
    bed = names.testbed(run.tags, suite)
    generator = names.generator_only(run.tags, run.test_id, run.dut[0] if run.dut else None)
    directions = {d for d, _ in run.latency}
    fields: dict = {
        "title": f"CSIT {suite} {KIND_TITLES[run.kind]}" + (f", {cores.upper()}" if cores else ""),
        "rfc": ["2544"] if run.kind == "ndrpdr" else ["vendor"],
        "direction": names.direction(run.tags, suite, directions),
    }
    if nic.speed:
        fields["port_speed"] = nic.speed
    if nic.ports and nic.ports >= 2 and (bed is None or bed.endswith("1l") or bed in ("2n", "3n")):
        fields["ports"] = nic.ports
    if (pattern := names.traffic_pattern(bed)) is not None:
        fields["topology"] = pattern
    if (sc := names.scenario(run.tags, suite, generator)) is not None:
        fields["scenario"] = sc[0]
        if sc[1]:
            fields["address_family"] = sc[1]
    about = [f"FD.io CSIT test {run.test_id}" if run.test_id else f"FD.io CSIT test {run.name or suite}"]
    if run.job:
        about.append(f"CI job {run.job}" + (f" build {run.build}" if run.build else ""))
    if nic.model:
        about.append(f"NIC {nic.model}" + (f" ({nic.code})" if nic.code else ""))
    if bed:
        about.append(f"testbed {bed} ({bed[0]}-node)")
    fields["description"] = "; ".join(about) + ". Tags: " + ", ".join(run.tags) + "." if run.tags else "; ".join(about) + "."
    fields["variants"] = _variants(run)
    fields["methodology"] = _methodology(run)
    return fields


def _variants(run: Run) -> dict:
    if run.kind == "ndrpdr":
        out = {"ndr": "NDR: no loss (MLRsearch); throughput = the lower bound, the upper bound beside it (in the 1.5 model the lower bound is "
                      "the conditional throughput, the median forwarding rate of the long trials)",
               "pdr": "PDR: at most 0.5 % loss (MLRsearch); throughput = the lower bound, the upper bound beside it"}
        for _, load in sorted(run.latency, key=lambda k: (k[1][:3], int(k[1][4:]))):
            kind, pct = load[:3], int(load[4:])
            out[load.replace("_", "-")] = f"latency {LATENCY_TEXT.get(pct, f'at {pct} % of the {kind.upper()} lower bound')}, per direction " \
                                          "(port 0->1 forward, 1->0 reverse): CSIT's min/avg/max and the percentiles of its HDR histogram"
        return out
    if run.kind == "soak":
        return {"critical-rate": "soak (PLRsearch, about 30 minutes): the critical rate at an average loss ratio of 10^-7, a Bayesian estimate; "
                                 "throughput = its lower bound, the upper bound beside it"}
    return {}


def _methodology(run: Run) -> dict:
    method: dict = {"frame_sizes": [], "frame_size_convention": "ethernet-frame"}
    if run.kind == "ndrpdr":
        method.update({"search": "mlrsearch", "notes": "CSIT's MLRsearch finds NDR (0 % loss) and PDR (0.5 % loss) in one search; rates are "
                                                     "aggregate over both directions (one direction for unidirectional profiles)."})
    elif run.kind == "mrr":
        method.update({"search": "single-rate", "trials": len(run.trials),
                       "notes": "MRR: the receive rate of each trial with the load offered at the link's or the NIC's maximum; the average "
                                "row is CSIT's avg (CSIT's stdev is a population standard deviation, jumpavg's, and is not published)."})
    else:
        method["notes"] = "CSIT's PLRsearch soak test: the critical rate for a 10^-7 average loss ratio, estimated from trials over about 30 minutes."
    return method


def _instrument(plan: ImportPlan, runs: list[Run]) -> None:
    tgs = sorted({r.tg for r in runs if r.tg}, key=str)
    trex = any(t.lower() == "trex" for t, _ in tgs) or any("TREX" in names.upper_tags(r.tags) for r in runs)
    plan.instrument = {"vendor": "FD.io", "product": "CSIT" + (" with the T-Rex traffic generator" if trex else "")}
    software = [{"name": "T-Rex" if t.lower() == "trex" else t, "version": v} for t, v in tgs]
    software += [{"name": "CSIT UTI model", "version": m} for m in sorted({r.model for r in runs if r.model})]
    if software:
        plan.instrument["software"] = software
