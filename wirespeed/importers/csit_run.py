"""One FD.io CSIT test run, whatever file it came from (a UTI info.json of any model version, a
Robot output.xml, a row of the trending Parquet): the shape every CSIT reader produces and the
rows and the import plan are made from.

Rates are CSIT's: aggregate over both directions (unless the profile is unidirectional), in
packets per second; bandwidth is the figure CSIT computed beside it (layer 1 in every version
seen, checked against the frame size before it is published).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from wirespeed.importers.common import lenient
from wirespeed.problems import Problem

RULE = "import.csit"
LOADS = ("pdr_0", "pdr_10", "pdr_50", "pdr_90")
KINDS = ("ndrpdr", "mrr", "soak")


@dataclass
class Figure:
    """A value as the file states it, with its unit and where it is (a JSON path or XML element)."""

    value: float | int
    unit: str
    where: str


@dataclass
class Bound:
    """One bound of a search result: the rate and CSIT's bandwidth beside it."""

    rate: Figure
    bandwidth: Figure | None = None


@dataclass
class Latency:
    """Latency of one direction at one load: CSIT's rounded min/avg/max (µs) and the HDR histogram."""

    where: str
    min: int | float | str | None = None  # str: "<0.5" (rounded to 0 by CSIT)
    avg: int | float | str | None = None
    max: int | float | None = None
    hdrh: str | None = None


@dataclass
class Run:
    """One CSIT test run."""

    source: str  # what the file is, for messages: "UTI 1.5.1 info.json", "Robot output.xml", …
    where: str  # the place of the run in its file ("" for a file that is one run)
    kind: str = ""  # ndrpdr | mrr | soak
    test_id: str | None = None
    suite: str | None = None  # 2n1l-25ge2p1xxv710-ethip4-ip4base-ndrpdr
    name: str | None = None  # 64b-2t1c-ethip4-ip4base-ndrpdr, or test_name_long
    short: str | None = None  # test_name_short: ethip4-ip4base
    tags: list[str] = field(default_factory=list)
    passed: bool | None = None
    status_at: str = "passed"  # where the status is (passed, status, test.execution.status)
    message: str = ""
    start: str | None = None  # ISO 8601 date and time (UTC)
    end: str | None = None
    dut: tuple[str, str] | None = None  # (type, version)
    tg: tuple[str, str] | None = None
    model: str | None = None  # UTI model version
    job: str | None = None
    build: str | None = None
    bounds: dict[str, dict[str, Bound]] = field(default_factory=dict)  # ndr|pdr|critical-rate → lower|upper → Bound
    latency: dict[tuple[str, str], Latency] = field(default_factory=dict)  # (forward|reverse, pdr_N) → Latency
    trials: list[Figure] = field(default_factory=list)  # MRR receive rate of each trial
    trial_avg: Figure | None = None
    trial_stdev: Figure | None = None

    def place(self, field: str) -> str:
        """A place in the file as messages name it: a Parquet row's column, else the path as read."""
        if self.source == "CSIT Parquet":
            return f"{self.where} {field.replace('.', '_')}".strip()
        return field

    def label(self) -> str:
        """The run as messages name it."""
        name = self.test_id or self.name or self.short or "the test"
        return f"{self.where}: {name}" if self.where else name


def number(value, where: str, what: str, file: str, absent=(-1,)) -> tuple[float | int | None, list[Problem]]:
    """A value a CSIT file states: a finite number ≥ 0, None when absent (null, or -1: CSIT's
    "not measured"), or one problem naming the place."""
    if value is None or (not isinstance(value, bool) and isinstance(value, (int, float)) and value in absent):
        return None, []
    v = lenient(value) if not isinstance(value, bool) else None
    if v is None or not math.isfinite(v):
        return None, [Problem(file, None, where, f"expected {what}, found {str(value)[:40]!r}", RULE)]
    if v in absent:
        return None, []
    if v < 0:
        return None, [Problem(file, None, where, f"{what} cannot be negative: {value!r}", RULE)]
    return v, []


OTHER_RATES = {"cps": "connections per second", "rps": "requests per second", "bps": "bits per second"}


def unit_problem(unit, where: str, file: str) -> Problem | None:
    """None for a rate in packets per second; else one problem (a connection or request rate by name)."""
    text = str(unit if unit is not None else "").strip()
    if text == "pps":
        return None
    if text.lower() in OTHER_RATES:
        return Problem(file, None, where, f"a rate in {text} ({OTHER_RATES[text.lower()]}): wirespeed imports frame rates (pps); "
                                          "CSIT's connection, request and goodput tests are not imported", RULE)
    return Problem(file, None, where, f"expected a rate in pps, found the unit {unit!r}", RULE)


def rate(obj, where: str, file: str) -> tuple[Figure | None, list[Problem]]:
    """A {value, unit} rate in packets per second; a connection or request rate is refused by name."""
    if not isinstance(obj, dict):
        return None, [Problem(file, None, where, f"expected a rate {{value, unit}}, found {_kind(obj)}", RULE)]
    if bad := unit_problem(obj.get("unit"), f"{where}.unit", file):
        return None, [bad]
    value, problems = number(obj.get("value"), f"{where}.value", "a rate in packets per second", file)
    if value is None and not problems:
        problems = [Problem(file, None, f"{where}.value", "expected a rate in packets per second, found none", RULE)]
    return (Figure(value, "pps", f"{where}.value") if value is not None else None), problems


def bandwidth(obj, where: str, file: str) -> tuple[Figure | None, list[Problem]]:
    """An optional {value, unit: bps} bandwidth."""
    if obj is None:
        return None, []
    if not isinstance(obj, dict):
        return None, [Problem(file, None, where, f"expected a bandwidth {{value, unit}}, found {_kind(obj)}", RULE)]
    unit = str(obj.get("unit", "")).strip()
    if unit != "bps":
        return None, [Problem(file, None, f"{where}.unit", f"expected bps, found {obj.get('unit')!r}", RULE)]
    value, problems = number(obj.get("value"), f"{where}.value", "a bandwidth in bits per second", file)
    return (Figure(value, "bps", f"{where}.value") if value is not None else None), problems


def bound(obj, where: str, file: str) -> tuple[Bound | None, list[Problem]]:
    """{rate: {value, unit}, bandwidth: {value, unit}} → Bound."""
    if not isinstance(obj, dict):
        return None, [Problem(file, None, where, f"expected {{rate, bandwidth}}, found {_kind(obj)}", RULE)]
    r, problems = rate(obj.get("rate"), f"{where}.rate", file)
    bw, probs = bandwidth(obj.get("bandwidth"), f"{where}.bandwidth", file)
    return (Bound(r, bw) if r is not None else None), problems + probs


def latency(obj, where: str, file: str, unit_where: str | None = None, unit=None) -> tuple[Latency | None, list[Problem]]:
    """{min, avg, max, hdrh[, unit]} in microseconds; -1 (and a max of 0, CSIT's sign that the
    generator got no latency) are "not measured"."""
    if not isinstance(obj, dict):
        return None, [Problem(file, None, where, f"expected {{min, avg, max, hdrh}}, found {_kind(obj)}", RULE)]
    unit = obj.get("unit", unit if unit is not None else "us")
    if str(unit).strip() != "us":
        return None, [Problem(file, None, unit_where or f"{where}.unit", f"expected us, found {unit!r}", RULE)]
    lat, problems = Latency(where), []
    for key in ("min", "avg", "max"):
        value, probs = number(obj.get(key), f"{where}.{key}", "a latency in microseconds", file)
        problems += probs
        setattr(lat, key, value)
    hdrh = obj.get("hdrh")
    lat.hdrh = hdrh.strip() if isinstance(hdrh, str) and hdrh.strip() else None
    rounded(lat)
    if lat.min is None and lat.avg is None and lat.max is None and lat.hdrh is None:
        return None, problems
    return lat, problems


def rounded(lat: Latency) -> None:
    """CSIT rounds T-Rex's latencies to whole microseconds: a max of 0 is its sign that the generator
    got no latency (the schema: "one of symptoms of Traffic Generator failing"), a min or avg of 0
    beside a real max is less than half a microsecond ("<0.5"), never a latency of zero."""
    if lat.max == 0:  # the histogram of such a trial is not trusted either
        lat.min = lat.avg = lat.max = lat.hdrh = None
        return
    for key in ("min", "avg"):
        if getattr(lat, key) == 0:
            setattr(lat, key, "<0.5")


def _kind(obj) -> str:
    return {dict: "an object", list: "a list", str: "text", type(None): "null", bool: "true/false"}.get(type(obj), "a number")
