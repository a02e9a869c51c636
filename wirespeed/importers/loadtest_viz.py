"""trex-loadtest-viz HTML reports → per-second ramps, one per device × direction × profile.

The report page (written by trex-loadtest-viz from T-Rex ramp loadtests) has, per traffic
profile, an `<h2>Profile: NAME</h2>` and two `<div class="loadtest-graph">` whose attributes hold
JSON: `data-ltdata` = `{"yprefix": "M", "data": [["ideal", v0, v1, …], ["DEVICE 0→1 rx", …], …]}`
(received packet rates, one value per second, divided by the prefix: M = 10⁶) and `data-errdata` =
`{"data": [["txrate", …], ["DEVICE 0→1 err", …]], "ft": 0.001}` (loss as a fraction (tx − rx)/tx,
clipped at 0). The "ideal"/"txrate" series is the highest transmitted rate of any device of the
profile at that second: it is kept as offered_rate of every ramp of the profile, as the page states it.
Each profile's "Performance max" table (per device and channel: the received rate at the first
second whose loss passed the threshold, "Mpps at <0.10% loss"; the highest received rate; the
highest receive utilisation "%LR") gives one measurement row per device × direction × profile:
throughput (at that loss tolerance, stated as loss_tolerance_pct) and forwarding_rate; %LR is kept
in the extracted JSON as the page states it (it is the peak utilisation, not the throughput's).
Each device × direction × profile is one ramp, never merged: samples keyed by variant (the device),
port (the direction, "0→1") and frame size (the profile: "64B" → 64-byte Ethernet frames, "imix" →
IMIX id "imix", declared as T-Rex's stl/imix.py mix, the profile the visualiser names "imix").

**Why the HTML is not kept in the set.** A result set is published, and HTML is active content:
the attachment/native allowlist (`wirespeed.resultset.attachments`) refuses `.html`. So the page is
parsed at import time with the standard library's `html.parser` (never rendered, scripts never
run) and the series are extracted into a plain JSON document (`extract`), which is what the set
keeps as its native file (declared with this importer, re-read by `convert` at load time). The
HTML's name and SHA-256 are recorded in that JSON (`source`) as provenance.
"""

from __future__ import annotations

import hashlib
import json
import re
from decimal import Decimal
from html.parser import HTMLParser

from wirespeed.importers.common import parse_json
from wirespeed.importers.markup import unclosed_tag
from wirespeed.importers.records import Record, figure
from wirespeed.problems import Problem

RULE = "import.loadtest-viz"
FORMAT = "trex-loadtest-viz"
PREFIX = {"": Decimal(1), "k": Decimal(1000), "K": Decimal(1000), "M": Decimal(10**6), "G": Decimal(10**9)}
_SERIES = re.compile(r"^(?P<device>.+) (?P<src>\d+)\s*(?:→|->)\s*(?P<dst>\d+) (?P<what>rx|err)$")
MAX_POINTS = 100_000


class _Page(HTMLParser):
    """Collects (profile, attribute, JSON text, line) from the page; nothing is executed."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_h2 = False
        self.h2 = ""
        self.profile: str | None = None
        self.graphs: list[tuple[str | None, str, str, int]] = []
        self.config: dict[str, str] = {}
        self._cells: list[str] = []
        self._in_td = False
        self._in_th = False
        self.headers: dict[str, list[str]] = {}  # profile -> <th> texts of its "Performance max" table
        self.maxima: list[tuple[str, list[str], int]] = []  # (profile, [device, 6 cells], line)

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.in_h2, self.h2 = True, ""
        elif tag == "td":
            self._in_td = True
            self._cells.append("")
        elif tag == "th" and self.profile is not None:
            self._in_th = True
            self.headers.setdefault(self.profile, []).append("")
        elif tag == "tr":
            self._cells = []
        for name, value in attrs:
            if name in ("data-ltdata", "data-errdata") and value is not None:
                self.graphs.append((self.profile, name, value, self.getpos()[0]))

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
            text = " ".join(self.h2.split())
            self.profile = text.split(":", 1)[1].strip() if text.lower().startswith("profile:") else self.profile
        elif tag == "td":
            self._in_td = False
        elif tag == "th":
            self._in_th = False
        elif tag == "tr" and len(self._cells) == 2 and self.profile is None:
            self.config[self._cells[0].strip()] = self._cells[1].strip()
        elif tag == "tr" and self._cells and self.profile is not None:
            self.maxima.append((self.profile, [" ".join(c.split()) for c in self._cells], self.getpos()[0]))

    def handle_data(self, data):
        if self.in_h2:
            self.h2 += data
        if self._in_td and self._cells:
            self._cells[-1] += data
        if self._in_th and self.profile is not None:
            self.headers[self.profile][-1] += data


def sniff(head: bytes, name: str) -> float:
    text = head.decode("utf-8", "replace")
    if "<" in text and ("data-ltdata=" in text or "data-errdata=" in text):
        return 0.95
    if text.lstrip().startswith("{") and f'"format": "{FORMAT}"' in text:
        return 0.95
    return 0.0


def extract(data: bytes, name: str) -> tuple[dict | None, list[Problem]]:
    """Parse the HTML page into the JSON document a result set keeps (see the module docstring)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem(name, None, "", f"not UTF-8 at byte offset {exc.start}: expected a trex-loadtest-viz HTML page", RULE)]
    unclosed = unclosed_tag(text, name, RULE)  # html.parser rescans the page for each unclosed tag: minutes for 200 KB
    if unclosed is not None:
        return None, [unclosed]
    page = _Page()
    page.feed(text)
    page.close()
    if not page.graphs:
        return None, [Problem(name, None, "", "no data-ltdata/data-errdata attribute: expected a trex-loadtest-viz HTML report", RULE)]
    profiles: dict[str, dict] = {}
    problems: list[Problem] = []
    for profile, attr, raw, line in page.graphs:
        where = f"{attr} of profile {profile!r}"
        if profile is None:
            problems.append(Problem(name, line, attr, "graph before any <h2>Profile: …</h2>: expected each graph under its profile", RULE))
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            problems.append(Problem(name, line, attr, f"not valid JSON ({exc.msg} at column {exc.colno}): expected the series of profile {profile!r}", RULE))
            continue
        except ValueError as exc:  # an integer of more digits than int() reads
            problems.append(Problem(name, line, attr, f"not readable JSON ({str(exc)[:80]}): expected the series of profile {profile!r}", RULE))
            continue
        series = obj.get("data") if isinstance(obj, dict) else None
        prefix = obj.get("yprefix", "") if isinstance(obj, dict) else ""
        if not isinstance(series, list) or prefix not in PREFIX:
            problems.append(Problem(name, line, attr, f"expected {{\"yprefix\": one of {sorted(PREFIX)}, \"data\": [[name, values…], …]}}", RULE))
            continue
        prof = profiles.setdefault(profile, {"profile": profile, "offered_pps": None, "ramps": {}})
        if attr == "data-errdata" and isinstance(obj.get("ft"), (int, float)):
            prof["fail_threshold"] = obj["ft"]
        for s in series:
            if not isinstance(s, list) or not s or not isinstance(s[0], str) or len(s) > MAX_POINTS:
                problems.append(Problem(name, line, attr, "expected each series as [name, value, value, …]", RULE))
                continue
            vals = []
            for i, v in enumerate(s[1:]):
                if v is None or isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                    problems.append(Problem(name, line, f"{attr}: {s[0]}[{i}]", f"expected a number of 0 or more, found {v!r}", RULE))
                    vals = None
                    break
                vals.append(float(Decimal(repr(float(v))) * (PREFIX[prefix] if attr == "data-ltdata" else 100)))
            if vals is None:
                continue
            if s[0] in ("ideal", "txrate"):
                if attr == "data-ltdata":
                    prof["offered_pps"] = vals
                continue
            m = _SERIES.match(s[0].strip())
            if not m or (attr == "data-ltdata") != (m["what"] == "rx"):
                problems.append(Problem(name, line, f"{attr}: {s[0]!r}", "expected a series named \"DEVICE N→M rx\" (ltdata) or \"DEVICE N→M err\" (errdata)", RULE))
                continue
            ramp = prof["ramps"].setdefault((m["device"], f"{m['src']}→{m['dst']}"), {"device": m["device"], "direction": f"{m['src']}→{m['dst']}"})
            key = "rx_pps" if m["what"] == "rx" else "loss_pct"
            if key in ramp:
                problems.append(Problem(name, line, f"{attr}: {s[0]!r}", f"duplicated series in profile {profile!r}: expected each device × direction once", RULE))
                continue
            ramp[key] = vals
    maxima, threshold = _maxima(page, name, problems)
    ramps = []
    for prof in profiles.values():
        for ramp in prof["ramps"].values():
            n = len(ramp.get("rx_pps", ramp.get("loss_pct", [])))
            if any(len(v) != n for v in (ramp.get("loss_pct"), prof["offered_pps"]) if v is not None):
                problems.append(Problem(name, None, f"profile {prof['profile']!r}", f"series of {ramp['device']} {ramp['direction']} differ in length: expected one value per second in each", RULE))
                continue
            ramps.append({"profile": prof["profile"], **ramp, "offered_pps": prof["offered_pps"]})
    if not ramps and not problems:
        problems.append(Problem(name, None, "", "no device series in the graphs: expected \"DEVICE 0→1 rx\" series", RULE))
    doc = {"format": FORMAT, "source": {"name": name.rsplit("/", 1)[-1], "sha256": hashlib.sha256(data).hexdigest()},
           "config": page.config, "loss_threshold_pct": threshold, "maxima": maxima, "ramps": ramps}
    return (None if problems else doc), problems


_MAX_HEADER = re.compile(r"^([kKMG]?)pps at <\s*(\d+(?:\.\d+)?)% loss$")


def _maxima(page: _Page, name: str, problems: list[Problem]) -> tuple[list[dict], float | None]:
    """The "Performance max" table of each profile: per device and direction, the received rate at the
    first second whose loss passed the threshold (max_ok_pps), the highest received rate (max_pps)
    and the highest receive utilisation in % of line rate (max_lr_pct, kept as the page states it)."""
    out: list[dict] = []
    threshold = None
    for profile, cells, line in page.maxima:
        heads = page.headers.get(profile, [])
        m = next((_MAX_HEADER.match(" ".join(h.split())) for h in heads if _MAX_HEADER.match(" ".join(h.split()))), None)
        if len(cells) != 7 or m is None:
            problems.append(Problem(name, line, f"Performance max of profile {profile!r}", "expected a row: test name, then per channel 0→1 and 1→0 "
                                    "\"pps at <X% loss\", pps and %LR (under a header naming the unit)", RULE))
            continue
        threshold = float(m.group(2))
        scale = PREFIX[m.group(1)]
        try:
            vals = [Decimal(c.rstrip("%")) for c in cells[1:]]
        except ArithmeticError:
            problems.append(Problem(name, line, f"Performance max of profile {profile!r}", f"expected numbers, found {cells[1:]!r}", RULE))
            continue
        for k, direction in enumerate(("0→1", "1→0")):
            ok, mx, lr = vals[3 * k: 3 * k + 3]
            out.append({"profile": profile, "device": cells[0], "direction": direction,
                        "max_ok_pps": float(ok * scale), "max_pps": float(mx * scale), "max_lr_pct": float(lr)})
    return out, threshold


def frame_size(profile: str) -> int | str | None:
    m = re.fullmatch(r"(\d+)\s*[bB]", profile.strip())
    if m:
        return int(m.group(1))
    return "imix" if profile.strip().lower() == "imix" else None


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "device"


def parse(data: bytes, file: str) -> tuple[list[Record], list[Problem], int]:
    """Samples from the extracted JSON document (what the set keeps)."""
    doc, problems = parse_json(data, file)
    if doc is None:
        return [], problems, 0
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("ramps"), list):
        return [], [Problem(file, None, "format", f"expected the JSON extracted from a trex-loadtest-viz report (format = {FORMAT!r}, ramps = [...]); an HTML page is imported with `wirespeed import`", RULE)], 0
    recs: list[Record] = []
    for i, mx in enumerate(doc.get("maxima") or []):
        if not isinstance(mx, dict) or not isinstance(mx.get("device"), str) or not isinstance(mx.get("profile"), str):
            problems.append(Problem(file, None, f"maxima[{i}]", "expected {profile, device, direction, max_ok_pps, max_pps}", RULE))
            continue
        keys = {"variant": slug(mx["device"]), "port": str(mx.get("direction", ""))}
        if frame_size(mx["profile"]) is not None:
            keys["frame_size"] = frame_size(mx["profile"])
        values = {m: (mx.get(k) if isinstance(mx.get(k), (int, float)) and not isinstance(mx.get(k), bool) else None, "pps")
                  for m, k in (("throughput", "max_ok_pps"), ("forwarding_rate", "max_pps"))}
        recs.append(Record("measurements", f"maxima[{i}]", 0, keys, values))
    for i, ramp in enumerate(doc["ramps"]):
        where = f"ramps[{i}]"
        if not isinstance(ramp, dict) or not isinstance(ramp.get("device"), str) or not isinstance(ramp.get("profile"), str):
            problems.append(Problem(file, None, where, "expected {profile, device, direction, rx_pps, loss_pct, offered_pps}", RULE))
            continue
        keys = {"variant": slug(ramp["device"]), "port": str(ramp.get("direction", ""))}
        fs = frame_size(ramp["profile"])
        if fs is not None:
            keys["frame_size"] = fs
        cols = {m: ramp.get(k) for m, k in (("rx_rate", "rx_pps"), ("loss", "loss_pct"), ("offered_rate", "offered_pps"))}
        n = max((len(v) for v in cols.values() if isinstance(v, list)), default=0)
        for t in range(n):
            values = {}
            for m, series in cols.items():
                v = series[t] if isinstance(series, list) and t < len(series) else None
                values[m] = (v if isinstance(v, (int, float)) and not isinstance(v, bool) else None, "pct" if m == "loss" else "pps")
            recs.append(Record("samples", f"{where}[{t}]", 0, {**keys, "t_s": figure(t)}, values))
    return recs, problems, len(recs)


def describe(data: bytes, name: str):
    """Profiles (frame sizes), devices (variants) and the ramp parameters; the HTML becomes JSON."""
    from wirespeed.importers.contract import ImportPlan, TestPlan

    plan = ImportPlan(FORMAT)
    if data.lstrip()[:1] == b"{":  # the JSON this importer extracted earlier: checked like at load time
        _recs, plan.problems, _n = parse(data, name)
        doc = json.loads(data) if not plan.problems else None
        raw = data
    else:
        doc, plan.problems = extract(data, name)
        raw = json.dumps(doc, ensure_ascii=False, indent=1).encode() if doc else b""
    if doc is None or any(p.severity == "error" for p in plan.problems):
        return plan
    stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    plan.converted = (f"{slug(stem)}.loadtest.json", raw)
    devices = {slug(r["device"]): r["device"] for r in doc["ramps"]}
    sizes = sorted({frame_size(r["profile"]) for r in doc["ramps"] if frame_size(r["profile"]) is not None}, key=str)
    # the report names profiles by frame: "64B" (udp_1pkt_simple*.py) and "imix" (T-Rex's stl/imix.py)
    meth: dict = {"search": "ramp", "frame_size_convention": "ethernet-frame"}
    if sizes:
        meth["frame_sizes"] = sizes
    if isinstance(doc.get("loss_threshold_pct"), (int, float)):
        meth["loss_tolerance_pct"] = doc["loss_threshold_pct"]
    if "imix" in sizes:
        meth["imix"] = [{"id": "imix", "profile": "trex-imix", "sizes": [64, 594, 1518], "weights": [28, 16, 4]}]
    cfg = doc.get("config") or {}
    for key, fld in (("warmup_duration", "warmup_s"), ("rampup_duration", "rampup_s"), ("hold_duration", "hold_s"), ("rampup_target", "ramp_target_pct")):
        try:
            meth[fld] = float(str(cfg[key]).strip().rstrip("%s"))
        except (KeyError, ValueError):
            pass
    plan.tests.append(TestPlan("loadtest-ramp", {"title": "Ramp loadtest (trex-loadtest-viz report)", "rfc": ["loadtest-ramp"],
                                                 "direction": "bidirectional", "ports": 2, "variants": devices, "methodology": meth}))
    plan.instrument = {"vendor": "Cisco (open source)", "product": "T-Rex traffic generator (ramp loadtest)"}
    plan.unstated = ["tests.loadtest-ramp.port_speed", "tests.loadtest-ramp.scenario", "tests.loadtest-ramp.topology"]
    return plan


def _read(data: bytes, file: str, spec: dict):
    recs, problems, _n = parse(data, file)
    return recs, problems


def _importer():
    from wirespeed.importers.contract import Importer
    from wirespeed.importers.records import converter

    return Importer(summary="trex-loadtest-viz HTML reports (data-ltdata/data-errdata series) → per-second ramps per device × direction × profile, kept as extracted JSON",
                    sniff=sniff, describe=describe, convert=converter(_read), converts=("html",),
                    examples=("docs/importers/examples/trex-loadtest-viz/report.html",))


IMPORTER = _importer()
