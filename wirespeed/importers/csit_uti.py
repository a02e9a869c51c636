"""FD.io CSIT's per-test JSON (the UTI test-case model) in the versions CSIT has written, read into
a csit_run.Run.

- 1.0.0 to 1.5.1 (resources/model_schema/test_case.schema.yaml): `result.type` ndrpdr | mrr |
  soak; `result.ndr|pdr.lower|upper.{rate,bandwidth}` (1.5: the lower bound is the conditional
  throughput and the upper bound may be missing); `result.latency_forward|latency_reverse.pdr_0|
  10|50|90.{min,avg,max,hdrh,unit}`; `result.receive_rate.rate.{values,avg,stdev,unit}` (and
  `bandwidth`); `result.critical_rate.lower|upper`. `passed` (1.0.0 TRex files: `status`
  "PASS"), `message`, `tags`, `test_id` (missing in DPDK files of 1.0.0: `test_name_long`/
  `_short` and the tags say the rest), `dut_type`/`_version`, `tg_type`/`_version`.
- 0.2.0 (the interim model of November 2021): `results.ndrpdr|mrr|soak` with the same blocks,
  MRR trials as `samples[{rate{unit,value}}]`, `status`, `sut_type`/`sut_version`.
- the 0.1.0 draft (docs/TNM, 2020-2021): `test{test-id, test-type, tags, execution{status,
  start_time, job, build, sut-version}, results{test{…}}}` or the same keys flat; bounds as
  `ndr.value_pps|value_gbps.lower|upper` or `throughput{unit, ndr.value|value_gbps}`, latency as
  `hdrh|latency.forward|reverse.pdr-90|pdr_90`, MRR as `samples` with `mrr`|`avg` and `stdev`,
  soak as `critical_rate|critical-rate|throughput.lower|upper`; -1 means "not measured".
A suite.info.json (suite setup and teardown) and CSIT's Spark schemas hold no results: refused.
"""

from __future__ import annotations

import datetime as _dt
import re

from wirespeed.importers.common import keyed
from wirespeed.importers.csit_names import name_of, suite_of
from wirespeed.importers.csit_run import LOADS, RULE, Bound, Figure, Run, bound, latency, number, rate, unit_problem
from wirespeed.problems import Problem

DRAFT_TIME = re.compile(r"^(\d{4})(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})")


def read(doc, file: str) -> tuple[list[Run], list[Problem]]:
    """The run a UTI document holds (a list of one), or problems saying what the document is."""
    if not isinstance(doc, dict):
        return [], [Problem(file, None, "", "expected a CSIT test-case JSON object (UTI model), found a JSON " + type(doc).__name__, RULE)]
    if "suite_documentation" in doc or ("setup_log" in doc and "teardown_log" in doc):
        return [], [Problem(file, None, "suite_documentation", "a CSIT suite.info.json (suite setup and teardown: times, hosts, documentation) "
                                                                "holds no test results: import the suite's test files (*.info.json) instead", RULE)]
    if doc.get("type") == "struct" and isinstance(doc.get("fields"), list):
        return [], [Problem(file, None, "fields", "a Spark schema (the column types of CSIT's Parquet tables) holds no test results", RULE)]
    if isinstance(doc.get("result"), dict):
        return _one(_uti1(doc, file), file)
    if isinstance(doc.get("test"), dict) or "test-id" in doc or isinstance(doc.get("results"), dict):
        results = doc.get("results") if "test" not in doc else keyed(doc, "test", "results")
        if isinstance(results, dict) and "test" not in doc and any(isinstance(results.get(k), dict) for k in ("ndrpdr", "mrr", "soak")):
            return _one(_uti02(doc, file), file)
        return _one(_draft(doc, file), file)
    return [], [Problem(file, None, "", "expected a CSIT test-case JSON (UTI model): an object with 'result' (1.x), 'results' (0.2.0) "
                                        "or 'test' (0.1.0 draft); found keys " + ", ".join(sorted(map(str, doc))[:8]), RULE)]


def _one(got: tuple[Run | None, list[Problem]], file: str) -> tuple[list[Run], list[Problem]]:
    """The run, or none when it failed or could not be read (a failed test states no result: it is
    refused with the reason CSIT recorded, never published as a zero)."""
    run, problems = got
    if run is not None and run.passed is False:
        first = run.message.strip().splitlines()[0][:300] if run.message.strip() else "no message"
        return [], [Problem(file, None, run.status_at, f"the test failed ({first}): a failed test states no result, so it is not imported", RULE)]
    if run is None or any(p.severity == "error" for p in problems):
        return [], problems
    return [run], problems


def _text(value) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _tags(value) -> list[str]:
    return [t.strip() for t in value if isinstance(t, str) and t.strip()] if isinstance(value, list) else []


def iso(value) -> str | None:
    """An RFC 3339 time (UTI 1.x), a draft "20210128 14:23:54.430" or a datetime → "YYYY-MM-DDTHH:MM:SS" (UTC)."""
    if isinstance(value, _dt.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    text = _text(value)
    if text is None:
        return None
    if m := DRAFT_TIME.match(text):
        return "{}-{}-{}T{}:{}:{}".format(*m.groups())
    if re.match(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}", text):
        return text[:10] + "T" + text[11:19]
    return None


def _status(run: Run, doc: dict, file: str) -> list[Problem]:
    """passed (true/false), or status "PASS"/"FAIL", into run.passed."""
    if isinstance(doc.get("passed"), bool):
        run.passed = doc["passed"]
        return []
    status = doc.get("status")
    if isinstance(status, str) and status.strip().upper() in ("PASS", "FAIL"):
        run.passed, run.status_at = status.strip().upper() == "PASS", "status"
        return []
    return [Problem(file, None, "passed", "expected the test's status: 'passed' (true or false) or 'status' (PASS or FAIL)", RULE)]


def _header(doc: dict, file: str, model: str, device: str) -> tuple[Run, list[Problem]]:
    """A run with what every info.json model states alike: version, tags, status, message, test id and suite, name,
    start and end; `model` names the model when its version is absent, `device` is the DUT's key prefix ('dut' or 'sut')."""
    version = _text(doc.get("version"))
    run = Run(f"UTI {version or model} info.json", "", model=version, tags=_tags(doc.get("tags")))
    problems = _status(run, doc, file)
    run.message = str(doc.get("message") or "").strip()
    run.test_id = _text(doc.get("test_id"))
    run.suite = _suite(doc, run.test_id)
    run.name = name_of(run.test_id) or _text(doc.get("test_name"))
    run.start, run.end = iso(doc.get("start_time")), iso(doc.get("end_time"))
    run.dut = _pair(doc, f"{device}_type", f"{device}_version")
    return run, problems


def _uti1(doc: dict, file: str) -> tuple[Run | None, list[Problem]]:
    run, problems = _header(doc, file, "1.x", "dut")
    run.name = run.name or _text(doc.get("test_name_long"))
    run.short = _text(doc.get("test_name_short"))
    run.tg = _pair(doc, "tg_type", "tg_version")
    result = doc["result"]
    run.kind = str(result.get("type", "")).strip().lower()
    if run.passed is False:
        return run, problems
    if run.kind == "ndrpdr":
        problems += _ndrpdr(run, result, "result", file, latency_unit=None)
    elif run.kind == "mrr":
        problems += _mrr(run, result.get("receive_rate"), "result.receive_rate", file)
    elif run.kind == "soak":
        problems += _bounds(run, "critical-rate", result.get("critical_rate"), "result.critical_rate", file)
    else:
        problems.append(_not_imported(run.kind, "result.type", file))
    return run, problems


NOT_IMPORTED = {"reconf": "a CSIT reconf test (packets lost while the DUT is reconfigured)", "hoststack": "a CSIT hoststack test (goodput of a host stack)",
                "unknown": "a CSIT test without a performance result (type unknown: a device test, or one the model does not cover)",
                "device": "a CSIT device test (functional, no performance result)", "gso": "a CSIT GSO test"}


def _not_imported(kind: str, where: str, file: str) -> Problem:
    what = NOT_IMPORTED.get(kind, f"a CSIT test of type {kind!r}" if kind else "a CSIT test without a result type")
    return Problem(file, None, where, f"{what}: wirespeed imports ndrpdr, mrr and soak results", RULE)


def _suite(doc: dict, test_id: str | None) -> str | None:
    """The suite name from the test id, else from suite_id (its last dotted part)."""
    suite_id = _text(doc.get("suite_id"))
    return suite_of(test_id) or (suite_id.lower().split(".")[-1].replace(" ", "_") if suite_id else None)


def _pair(doc: dict, kind: str, version: str) -> tuple[str, str] | None:
    k, v = _text(doc.get(kind)), _text(doc.get(version))
    return (k, v) if k and v and k.lower() not in ("none", "unknown") else None


def _bounds(run: Run, variant: str, block, where: str, file: str, required: bool = True) -> list[Problem]:
    """{lower, upper} of one search into run.bounds[variant] (the upper bound is optional since 1.5)."""
    if not isinstance(block, dict):
        return [Problem(file, None, where, "expected {lower, upper} bounds, found none", RULE)] if required else []
    out, problems = {}, []
    for side in ("lower", "upper"):
        if side == "upper" and block.get(side) is None:
            continue
        b, probs = bound(block.get(side), f"{where}.{side}", file)
        problems += probs
        if b is not None:
            out[side] = b
    if "lower" in out:
        run.bounds[variant] = out
    return problems


def _latencies(run: Run, blocks: dict, file: str, unit=None, unit_where: str | None = None) -> list[Problem]:
    """{forward|reverse: (where, {pdr_N: numbers})} into run.latency."""
    problems = []
    for direction, (where, block) in blocks.items():
        if block is None:
            continue
        if not isinstance(block, dict):
            problems.append(Problem(file, None, where, "expected latency at pdr_0, pdr_10, pdr_50 and pdr_90", RULE))
            continue
        for load in LOADS:
            key = load if load in block else load.replace("_", "-")
            if key not in block:
                continue
            lat, probs = latency(block[key], f"{where}.{key}", file, unit_where, unit)
            problems += probs
            if lat is not None:
                run.latency[(direction, load)] = lat
    return problems


def _ndrpdr(run: Run, result: dict, where: str, file: str, latency_unit) -> list[Problem]:
    problems = []
    for variant in ("ndr", "pdr"):
        problems += _bounds(run, variant, result.get(variant), f"{where}.{variant}", file)
    blocks = {d: (f"{where}.latency_{d}", result.get(f"latency_{d}")) for d in ("forward", "reverse")}
    return problems + _latencies(run, blocks, file, latency_unit, f"{where}.latency_unit" if latency_unit is not None else None)


def _mrr(run: Run, block, where: str, file: str) -> list[Problem]:
    """receive_rate.rate.{values, avg, stdev, unit} (1.x)."""
    rate_block = keyed(block, "rate")
    if not isinstance(rate_block, dict) or not isinstance(rate_block.get("values"), list) or not rate_block["values"]:
        return [Problem(file, None, f"{where}.rate.values", "expected the receive rate of each MRR trial, found none", RULE)]
    if bad := unit_problem(rate_block.get("unit"), f"{where}.rate.unit", file):
        return [bad]
    return _trials(run, [(v, f"{where}.rate.values[{i}]") for i, v in enumerate(rate_block["values"])],
                   (rate_block.get("avg"), f"{where}.rate.avg"), (rate_block.get("stdev"), f"{where}.rate.stdev"), file)


def _trials(run: Run, values: list, avg: tuple, stdev: tuple, file: str) -> list[Problem]:
    problems = []
    for value, where in values:
        v, probs = number(value, where, "a receive rate in packets per second", file, absent=())
        problems += probs
        if v is not None:
            run.trials.append(Figure(v, "pps", where))
        elif not probs:
            problems.append(Problem(file, None, where, "expected a receive rate in packets per second, found none", RULE))
    for attr, (value, where) in (("trial_avg", avg), ("trial_stdev", stdev)):
        v, probs = number(value, where, "a rate in packets per second", file, absent=())
        problems += probs
        if v is not None:
            setattr(run, attr, Figure(v, "pps", where))
    return problems


def _uti02(doc: dict, file: str) -> tuple[Run | None, list[Problem]]:
    run, problems = _header(doc, file, "0.2", "sut")
    results = doc["results"]
    kinds = [k for k in ("ndrpdr", "mrr", "soak") if k in results]
    run.kind = kinds[0]
    if run.passed is False:
        return run, problems
    block = results[run.kind]
    where = f"results.{run.kind}"
    if run.kind == "ndrpdr":
        problems += _ndrpdr(run, block, where, file, latency_unit=block.get("latency_unit", "us") if isinstance(block, dict) else None) \
            if isinstance(block, dict) else [Problem(file, None, where, "expected ndr and pdr bounds", RULE)]
    elif run.kind == "mrr":
        samples = keyed(block, "samples")
        if not isinstance(samples, list) or not samples:
            return run, problems + [Problem(file, None, f"{where}.samples", "expected the receive rate of each MRR trial, found none", RULE)]
        values = []
        for i, s in enumerate(samples):
            r, probs = rate(keyed(s, "rate"), f"{where}.samples[{i}].rate", file)
            problems += probs
            if r is not None:
                values.append((r.value, r.where))
        problems += _trials(run, values, (keyed(block, "avg"), f"{where}.avg"), (keyed(block, "stdev"), f"{where}.stdev"), file)
    else:
        problems += _bounds(run, "critical-rate", block, where, file)
    return run, problems


def _draft(doc: dict, file: str) -> tuple[Run | None, list[Problem]]:
    """The 0.1.0 draft, nested under "test" or flat."""
    nested = isinstance(doc.get("test"), dict)
    test = doc["test"] if nested else doc
    base = "test." if nested else ""
    execution = test.get("execution") if isinstance(test.get("execution"), dict) else {}
    meta = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
    version = _text(doc.get("version"))
    run = Run(f"UTI {version or '0.1'} draft JSON", "", model=version, tags=_tags(test.get("tags")))
    status = execution.get("status", test.get("status"))
    run.status_at = f"{base}execution.status" if "status" in execution else "status"
    run.passed = status.strip().upper() == "PASS" if isinstance(status, str) and status.strip().upper() in ("PASS", "FAIL") else None
    problems = [] if run.passed is not None else [Problem(file, None, f"{base}execution.status" if nested else "status", "expected the test's status: PASS or FAIL", RULE)]
    run.message = str(test.get("message") or "").strip()
    run.test_id = _text(test.get("test-id")) or _text(test.get("test_id"))
    run.suite = suite_of(run.test_id)
    run.name = name_of(run.test_id)
    run.start = iso(execution.get("start_time", test.get("start_time")))
    run.end = iso(execution.get("end_time", test.get("end_time")))
    version_of_sut = _text(execution.get("sut-version")) or _text(meta.get("sut-version")) or _text(test.get("sut_version"))
    sut = _text(test.get("sut_type")) or ("VPP" if (run.test_id or "").startswith("tests.vpp.") else None)
    run.dut = (sut.upper() if sut.lower() == "vpp" else sut, version_of_sut) if sut and version_of_sut else None
    run.job = _text(execution.get("job")) or _text(test.get("job"))
    build = execution.get("build", test.get("build_number"))
    run.build = str(build).strip() if isinstance(build, (str, int)) and str(build).strip() else None
    run.kind = str(test.get("test-type", test.get("test_type", ""))).strip().lower()
    if run.passed is False:
        return run, problems
    results = test.get("results")
    where = f"{base}results"
    if isinstance(results, dict) and isinstance(results.get("test"), dict):
        results, where = results["test"], f"{where}.test"
    if not isinstance(results, dict):
        return run, problems + [Problem(file, None, where, "expected the test's results, found none", RULE)]
    if run.kind == "ndrpdr":
        problems += _draft_ndrpdr(run, results, where, file)
    elif run.kind == "mrr":
        if bad := unit_problem(results.get("unit", "pps"), f"{where}.unit", file):
            return run, problems + [bad]
        samples = results.get("samples")
        if not isinstance(samples, list) or not samples:
            return run, problems + [Problem(file, None, f"{where}.samples", "expected the receive rate of each MRR trial, found none", RULE)]
        avg_key = "avg" if "avg" in results else "mrr"
        problems += _trials(run, [(v, f"{where}.samples[{i}]") for i, v in enumerate(samples)], (results.get(avg_key), f"{where}.{avg_key}"),
                            (results.get("stdev"), f"{where}.stdev"), file)
    elif run.kind == "soak":
        key = next((k for k in ("critical_rate", "critical-rate") if k in results), "throughput")  # the draft's revisions spell it both ways
        problems += _draft_bounds(run, "critical-rate", results.get(key), None, f"{where}.{key}", f"{where}.{key}", file)
    else:
        problems.append(_not_imported(run.kind, f"{base}test-type" if nested else "test_type", file))
    return run, problems


def _draft_ndrpdr(run: Run, results: dict, where: str, file: str) -> list[Problem]:
    problems = []
    through = results.get("throughput") if isinstance(results.get("throughput"), dict) else None
    for variant in ("ndr", "pdr"):
        block = (through or results).get(variant)
        place = f"{where}.throughput.{variant}" if through else f"{where}.{variant}"
        if not isinstance(block, dict):
            problems.append(Problem(file, None, place, "expected the search's lower and upper bounds, found none", RULE))
            continue
        unit = (through or {}).get("unit", block.get("unit", "pps"))
        if bad := unit_problem(unit, f"{where}.throughput.unit" if through and "unit" in through else f"{place}.unit", file):
            problems.append(bad)
            continue
        if "value_pps" in block:
            rates, rates_where = block["value_pps"], f"{place}.value_pps"
        else:
            rates, rates_where = block.get("value"), f"{place}.value"
        problems += _draft_bounds(run, variant, rates, block.get("value_gbps"), rates_where, f"{place}.value_gbps", file)
    lat = results.get("hdrh") if isinstance(results.get("hdrh"), dict) else results.get("latency")
    if isinstance(lat, dict):
        key = "hdrh" if lat is results.get("hdrh") else "latency"
        problems += _latencies(run, {d: (f"{where}.{key}.{d}", lat.get(d)) for d in ("forward", "reverse")}, file)
    return problems


def _draft_bounds(run: Run, variant: str, rates, gbps, where: str, gbps_where: str, file: str) -> list[Problem]:
    """{lower, upper} in pps (values may be numbers or text), with Gbps {lower, upper} beside them."""
    if not isinstance(rates, dict):
        return [Problem(file, None, where, "expected {lower, upper} rates in packets per second, found none", RULE)]
    out, problems = {}, []
    for side in ("lower", "upper"):
        v, probs = number(rates.get(side), f"{where}.{side}", "a rate in packets per second", file)
        problems += probs
        if v is None:
            continue
        g, probs = number(gbps.get(side), f"{gbps_where}.{side}", "a bandwidth in Gbps", file) if isinstance(gbps, dict) else (None, [])
        problems += probs
        out[side] = Bound(Figure(v, "pps", f"{where}.{side}"), Figure(g, "gbps", f"{gbps_where}.{side}") if g is not None else None)
    if "lower" not in out:
        return problems or [Problem(file, None, f"{where}.lower", "expected the lower bound in packets per second, found none", RULE)]
    run.bounds[variant] = out
    return problems

