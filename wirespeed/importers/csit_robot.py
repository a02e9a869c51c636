"""FD.io CSIT's Robot Framework output.xml, read into csit_run.Run: one run per performance test.

A CSIT test states its result in its status message (the `Set Test Message` lines of
resources/libraries/robot/performance/performance_display.robot and performance_utils.robot):
  NDR_LOWER: <pps> pps, <Gbps> Gbps (untagged|initial)      (NDR_UPPER, PDR_LOWER, PDR_UPPER alike;
  NDR: <pps> pps, <Gbps> Gbps (initial)                      since MLRsearch 1.0: the conditional throughput)
  LATENCY [min/avg/max/hdrh] per stream: ['a/b/c/HDR', '…']  (latency of the lower bound's trial)
  Latency at 90% PDR: ['a/b/c/HDR', '…']                      (also 50 %, 10 %, and "Latency at 0% PDR:")
  Maximum Receive Rate trial results in packets per second: [r1, r2, …]
  PLRsearch lower bound: <pps> pps, <Gbps> Gbps (…)          (and upper bound: soak tests)
Each latency list holds one 'min/avg/max[/hdrh]' string per stream, forward (port 0 → 1) first;
-1 is "not measured". The bandwidth is rate × (frame + 20 bytes) × 8: layer 1.

A FAILED test holds no result: it is never read as a zero throughput. Its status message and
its `TrafficGen result: rate=…pps, totalReceived=…, totalSent=…` trial logs say why; a file
whose tests all failed is refused with that reason, the failed tests of a file with passed ones
are left out with a warning each. The XML is parsed with defusedxml (no DTD, no entity is
resolved) as a stream, its nesting bounded.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import defusedxml
import defusedxml.ElementTree as safe

from wirespeed.importers.csit_names import name_of, suite_of
from wirespeed.importers.csit_run import RULE, Bound, Figure, Latency, Run, number, rounded
from wirespeed.importers.csit_uti import iso
from wirespeed.problems import Problem

MAX_DEPTH = 128  # CSIT's keywords nest about 20 levels deep
MAX_ELEMENTS = 5_000_000
MAX_MESSAGE = 1 << 20  # characters of one test message kept
NUMBER = r"(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
BOUND = re.compile(rf"^(NDR|PDR)(?:_(LOWER|UPPER))?:\s*{NUMBER}\s*(pps|CPS|cps)\b,?\s*(?:{NUMBER}\s*Gbps)?", re.MULTILINE)
PLR = re.compile(rf"^PLRsearch (lower|upper) bound::?\s*{NUMBER}\s*(pps|CPS|cps)\b,?\s*(?:{NUMBER}\s*Gbps)?", re.MULTILINE)
LATENCY = re.compile(r"^(?:LATENCY[^\n\[]*per stream:|Latency at (\d+)%\s*(NDR|PDR)?:?)\s*\[([^\n\]]*)\]", re.MULTILINE)
MRR = re.compile(r"trial results\s+in ([a-z ]+?):\s*\[([^\]]*)\]")
TRIAL = re.compile(r"TrafficGen result: rate=([\d.]+)pps, totalReceived=(\d+), totalSent=(\d+)")
VERSIONS = (("VPP", re.compile(r"(?:VPP [Vv]ersion:|return STDOUT Version:)\s*(\S+)")), ("DPDK", re.compile(r"DPDK [Vv]ersion:\s*'?(?:DPDK )?([0-9][\w.\-~+]*)")))
KINDS = {"NDRPDR": "ndrpdr", "MRR": "mrr", "BMRR": "mrr", "SOAK": "soak"}


def read(data: bytes, file: str) -> tuple[list[Run], list[Problem]]:
    """Every performance test of the output.xml: the runs that passed, and one problem for each that
    failed or holds no result (errors when nothing passed, warnings otherwise)."""
    tests, versions, problems = _tests(data, file)
    if problems:
        return [], problems
    runs, failed = [], []
    for test in tests:
        run, probs = _run(test, versions, file)
        if run is not None:
            runs.append(run)
        failed += probs
    if not tests:
        failed.append(Problem(file, None, "robot", "a Robot Framework output.xml without any test", RULE))
    if runs:
        failed = [Problem(p.file, p.line, p.field, p.message, p.rule, "warning") for p in failed]
    return runs, failed


class _Test:
    def __init__(self, where: str, element_id: str, name: str, suites: list[str]):
        self.where, self.id, self.name, self.suites = where, element_id, name, list(suites)
        self.tags: list[str] = []
        self.status: dict = {}
        self.message = ""
        self.trials: list[tuple[float, int, int]] = []


def _tests(data: bytes, file: str) -> tuple[list[_Test], dict, list[Problem]]:
    """The tests of the file (name, suites, tags, status, trial logs) and the DUT versions its messages state."""
    tests, versions, stack, suites = [], {}, [], []
    current: _Test | None = None
    try:
        for n, (event, elem) in enumerate(safe.iterparse(io.BytesIO(data), events=("start", "end"), forbid_dtd=True)):
            if n > 2 * MAX_ELEMENTS:
                return [], {}, [Problem(file, None, "", f"more than {MAX_ELEMENTS:,} XML elements", "limit.rows")]
            if event == "start":
                if not stack and elem.tag != "robot":
                    return [], {}, [Problem(file, None, f"<{elem.tag[:40]}>", "expected a Robot Framework output.xml: a <robot> root element", RULE)]
                stack.append(elem)
                if len(stack) > MAX_DEPTH:
                    return [], {}, [Problem(file, None, _path(stack), f"XML nested deeper than {MAX_DEPTH} levels", "limit.depth")]
                if elem.tag == "suite":
                    suites.append(str(elem.get("name", "")).strip())
                elif elem.tag == "test" and current is None:
                    tid = str(elem.get("id", "")).strip()
                    current = _Test(f"test[@id='{tid}']" if tid else _path(stack), tid, str(elem.get("name", "")).strip(), suites)
                continue
            parent = stack[-2] if len(stack) > 1 else None
            grand = stack[-3] if len(stack) > 2 else None
            text = (elem.text or "")[:MAX_MESSAGE]
            if current is not None:
                if elem.tag == "tag" and (parent is not None and (parent.tag == "test" or (parent.tag == "tags" and grand is not None and grand.tag == "test"))):
                    current.tags.append(text.strip())
                elif elem.tag == "status" and parent is not None and parent.tag == "test":
                    current.status, current.message = dict(elem.attrib), text.strip()
                elif elem.tag == "msg" and (m := TRIAL.search(text)):
                    current.trials.append((float(m.group(1)), int(m.group(2)), int(m.group(3))))
            if elem.tag == "msg":
                for dut, pattern in VERSIONS:
                    if dut not in versions and (m := pattern.search(text)):
                        versions[dut] = m.group(1)
            if elem.tag == "test" and current is not None and elem is stack[-1]:
                tests.append(current)
                current = None
            elif elem.tag == "suite" and suites:
                suites.pop()
            stack.pop()
            if parent is not None:
                parent.remove(elem)  # the stream keeps only the open elements in memory
    except defusedxml.DTDForbidden:
        return [], {}, [Problem(file, None, "<!DOCTYPE>", "an XML document type declaration: refused (entities are never resolved)", "import.xml")]
    except (defusedxml.EntitiesForbidden, defusedxml.ExternalReferenceForbidden):
        return [], {}, [Problem(file, None, "<!ENTITY>", "an XML entity declaration: refused (entities are never resolved)", "import.xml")]
    except (LookupError, ValueError) as exc:  # an encoding the XML declaration names that Python does not know
        return [], {}, [Problem(file, 1, "<?xml?>", f"an XML declaration Python cannot read: {str(exc)[:80]}", "import.xml")]
    except ET.ParseError as exc:
        if str(exc).startswith("no element found") and stack:
            return [], {}, [Problem(file, None, _path(stack), "the XML ends inside this element (a cut file)", "import.xml")]
        line = exc.position[0] if getattr(exc, "position", None) else None
        return [], {}, [Problem(file, line, _path(stack), f"not well-formed XML: {str(exc).split(':')[0]}", "import.xml")]
    if stack:
        return [], {}, [Problem(file, None, _path(stack), "the XML ends inside this element (a cut file)", "import.xml")]
    return tests, versions, []


def _path(stack) -> str:
    return "/".join(e.tag for e in stack)[-200:]


def test_id(test: _Test) -> str:
    """CSIT's test id: suite names and test name in lower case, spaces as underscores, without the
    tcNN- number prefix of old test names (as CSIT's PAL and UTI export write it)."""
    longname = ".".join([*test.suites, test.name]).lower().replace(" ", "_")
    return re.sub(r"(^|\.)tc\d{2}-", r"\1", longname)


def _run(test: _Test, versions: dict, file: str) -> tuple[Run | None, list[Problem]]:
    up = {t.upper() for t in test.tags}
    tid = test_id(test)
    where = f"{test.where}/status"
    kind = next((KINDS[t] for t in ("NDRPDR", "MRR", "BMRR", "SOAK") if t in up), None)
    if "PERFTEST" not in up and kind is None:
        return None, [Problem(file, None, test.where, f"test {test.name!r} is not a CSIT performance test (no PERFTEST, NDRPDR, MRR or SOAK tag)", RULE)]
    if kind is None:
        return None, [Problem(file, None, test.where, f"test {test.name!r}: a CSIT performance test of a kind not imported (expected an NDRPDR, MRR or SOAK tag)", RULE)]
    status = str(test.status.get("status", "")).strip().upper()
    if status != "PASS":
        first = test.message.strip().splitlines()[0] if test.message.strip() else "no message"
        state = "FAILED" if status == "FAIL" else f"did not pass ({status or 'no status'})"
        return None, [Problem(file, None, where, f"test {test.name!r} {state}: {first[:300]}{_trial_summary(test)}: "
                                                 "a failed test states no result, so it is not imported", RULE)]
    run = Run("Robot output.xml", test.where, kind=kind, test_id=tid, suite=suite_of(tid), name=name_of(tid), tags=test.tags, passed=True,
              start=iso(test.status.get("starttime") or test.status.get("start")), end=iso(test.status.get("endtime")))
    run.message = test.message
    family = tid.split(".")[1].upper() if tid.count(".") >= 2 else ""
    run.dut = (family, versions[family]) if family in versions else (next(iter(versions.items())) if len(versions) == 1 else None)
    problems = parse_message(run, test.message, where, file)
    return (run if not any(p.severity == "error" for p in problems) else None), problems


def _trial_summary(test: _Test) -> str:
    if not test.trials:
        return ""
    received = sum(rx for _, rx, _ in test.trials)
    sent = sum(tx for _, _, tx in test.trials)
    if received == 0:
        return f"; its {len(test.trials)} traffic trials received 0 of {sent:,} frames sent"
    return f"; its {len(test.trials)} traffic trials received {received:,} of {sent:,} frames sent"


def parse_message(run: Run, message: str, where: str, file: str) -> list[Problem]:
    """The result a passed CSIT test's status message states, into run (bounds, latency, trials)."""
    if run.kind == "mrr":
        m = MRR.search(message)
        if m is None:
            return [Problem(file, None, where, "expected 'Maximum Receive Rate trial results in packets per second: [...]' in the test message", RULE)]
        if m.group(1).strip() != "packets per second":
            return [Problem(file, None, where, f"MRR trial results in {m.group(1).strip()}: wirespeed imports frame rates (pps)", RULE)]
        problems = []
        for i, text in enumerate(t.strip() for t in m.group(2).split(",") if t.strip()):
            v, probs = number(text.strip("'\""), f"{where} trial {i + 1}", "a receive rate in packets per second", file, absent=())
            problems += probs
            if v is not None:
                run.trials.append(Figure(v, "pps", f"{where} trial {i + 1}"))
        if not run.trials and not problems:
            problems.append(Problem(file, None, where, "the MRR trial results list is empty", RULE))
        return problems
    pattern = PLR if run.kind == "soak" else BOUND
    problems = []
    for m in pattern.finditer(message):
        if run.kind == "soak":
            variant, side, value, unit, gbps = "critical-rate", m.group(1), m.group(2), m.group(3), m.group(4)
        else:
            variant, side, value, unit, gbps = m.group(1).lower(), (m.group(2) or "LOWER").lower(), m.group(3), m.group(4), m.group(5)
        if unit.lower() == "cps":
            return [Problem(file, None, where, f"{m.group(0).split(':')[0]} in CPS (connections per second): wirespeed imports frame rates (pps); "
                                               "CSIT's connection-rate tests are not imported", RULE)]
        place = f"{where} {m.group(0).split(':')[0]}"
        bw = Figure(float(gbps), "gbps", f"{place} Gbps") if gbps else None
        run.bounds.setdefault(variant, {})[side] = Bound(Figure(float(value), "pps", place), bw)
    if run.kind == "ndrpdr":
        problems += _latencies(run, message, where, file)
    missing = [v for v in (("ndr", "pdr") if run.kind == "ndrpdr" else ("critical-rate",)) if "lower" not in run.bounds.get(v, {})]
    if missing:
        expected = "NDR_LOWER and PDR_LOWER (or NDR and PDR)" if run.kind == "ndrpdr" else "PLRsearch lower bound"
        problems.append(Problem(file, None, where, f"expected {expected} in the test message of a passed test", RULE))
    return problems


def _latencies(run: Run, message: str, where: str, file: str) -> list[Problem]:
    """Latency lists: 'LATENCY … per stream' after NDR_LOWER / PDR_LOWER (the load of that bound:
    ndr-100, pdr-100), 'Latency at N% PDR' (pdr-N; N% NDR: ndr-N; 0 %: CSIT's minimal rate)."""
    problems = []
    for m in LATENCY.finditer(message):
        if m.group(1) is not None:
            load = f"{(m.group(2) or 'PDR').lower()}_{int(m.group(1))}"
        else:
            before = [b for b in BOUND.finditer(message[: m.start()])]
            if not before or before[-1].group(2) not in (None, "LOWER"):
                continue
            load = f"{before[-1].group(1).lower()}_100"
        streams = re.findall(r"'([^']*)'", m.group(3))
        for direction, text in zip(("forward", "reverse"), streams):
            parts = text.split("/", 3)
            place = f"{where} {m.group(0).split(':')[0].strip()} {direction}"
            if len(parts) < 3:
                problems.append(Problem(file, None, place, f"expected 'min/avg/max[/hdrh]', found {text[:40]!r}", RULE))
                continue
            lat = Latency(place)
            for key, value in zip(("min", "avg", "max"), parts[:3]):
                v, probs = number(value, f"{place} {key}", "a latency in microseconds", file, absent=(-1, 4294967295))
                problems += probs
                setattr(lat, key, v)
            lat.hdrh = parts[3].strip() if len(parts) == 4 and parts[3].strip() else None
            rounded(lat)
            if lat.max is not None or lat.hdrh:
                run.latency[(direction, load)] = lat
    return problems
