"""k8s-netperf CSV archives (cloud-bulldozer/k8s-netperf, pkg/archive/archive.go), read by header name
so every schema version reads (External Server, UDN/Bridge/SR-IOV/Macvlan/Localnet Info and VM mode
were added over time):

- `result-<time>.csv`: one row per scenario (driver, profile, same node, host network, service, …,
  duration, parallelism, samples, message size, burst): `Avg Throughput` is the mean over the samples
  in its `Throughput Metric` (Mb/s → goodput, a layer-4 payload rate; OP/s → transactions per
  second), `99%tile Observed Latency` the mean of the samples' 99th percentile round-trip time in µs
  (0 when the driver measured none, e.g. a stream test: left out). The 95 % confidence bounds are
  not imported (no column holds them; 0 and 0 when there was one sample).
- `loss-rt-result-<time>.csv`: `UDP Percent Loss` (→ loss) and `TCP Retransmissions` (→ retransmits,
  the mean over the samples) per scenario. A file of the header alone holds no result: refused.
- `vswitch-result-<time>.csv`: ovs-vswitchd's CPU use on the client's and the server's node
  (→ cpu_avg, component "ovs-vswitchd on the client node"; percent of one core, so above 100 % it is
  refused by the column's bound); its memory (bytes) has no column and is not imported.

One test per driver, profile and message size; the scenario flags become the test's variants.
"""

from __future__ import annotations

from wirespeed.importers.common import base_keys, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.importers.tabular import CellError, csv_rows, number
from wirespeed.problems import Problem
from wirespeed.resultset.csvtable import decode_utf8

RULE = "import.k8s-netperf"
COMMON = ("Driver", "Profile", "Duration", "Parallelism", "# of Samples", "Message Size")
KINDS = {"result": ("Avg Throughput", "Throughput Metric"), "loss-rt": ("Type", "Value"), "vswitch": ("Role", "CPU Utilization")}
FLAGS = (("Same node", "same-node", "across-nodes"), ("Host Network", "host-network", "pod-network"), ("VM mode", "vm", ""),
         ("Service", "service", ""), ("External Server", "external-server", ""))
INFOS = ("UDN Info", "Bridge Info", "SR-IOV Info", "Macvlan Info", "Localnet Info")


def _kind(header: list[str]) -> str | None:
    for kind, needed in KINDS.items():
        if all(h in header for h in needed + COMMON):
            return kind
    return None


def _slug(text: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def scenario(cells: dict[str, str]) -> tuple[str, str, str]:
    """(test id, variant id, variant description) of a row."""
    test = _slug(f"{cells['Driver']} {cells['Profile']} {cells['Message Size']}b")
    parts, words = [], []
    for column, yes, no in FLAGS:
        value = cells.get(column, "").strip().lower()
        if value in ("true", "false"):
            word = yes if value == "true" else no
            if word:
                parts.append(word)
            words.append(f"{column.lower()} {value}")
    for column in INFOS:
        if cells.get(column, "").strip():
            parts.append(_slug(cells[column]))
            words.append(f"{column} {cells[column].strip()}")
    parts.append(f"p{cells['Parallelism']}") if cells.get("Parallelism", "1") not in ("", "1") else None
    if cells.get("Burst", "0") not in ("", "0"):
        parts.append(f"burst-{cells['Burst']}")
    words += [f"parallelism {cells.get('Parallelism', '?')}", f"burst {cells.get('Burst', '?')}"]
    return test, "-".join(parts) or "default", "; ".join(words)


def read(data: bytes, file: str) -> tuple[str | None, list[tuple[int, dict]], list[Problem]]:
    """(kind, [(line, cells by header name)], problems)."""
    text, problems = decode_utf8(data, file)
    if text is None:
        return None, [], problems
    rows = csv_rows(text)
    if not rows:
        return None, [], [Problem(file, None, "", "empty file: expected a k8s-netperf CSV with its header", RULE)]
    ln, header = rows[0]
    kind = _kind(header)
    if kind is None:
        return None, [], [Problem(file, ln, "", f"not a k8s-netperf result, loss-rt or vswitch CSV: expected the columns {', '.join(COMMON)} "
                                                f"and one of {'; '.join(' + '.join(v) for v in KINDS.values())}", RULE)]
    out = []
    for n, cells in rows[1:]:
        if len(cells) != len(header):
            problems.append(Problem(file, n, "", f"{len(cells)} cells under a header of {len(header)} columns", RULE))
            continue
        out.append((n, dict(zip(header, cells))))
    if not out and not problems:
        problems.append(Problem(file, None, "", f"the header alone: the k8s-netperf {kind} file holds no result", RULE))
    return kind, out, problems


def _values(kind: str, cells: dict, file: str, n: int) -> tuple[dict, list[Problem]]:
    try:
        if kind == "result":
            metric = cells["Throughput Metric"].strip()
            value = cells["Avg Throughput"].strip()
            number(value)
            if metric == "Mb/s":
                values = {"goodput": (value, "mbps")}
            elif metric == "OP/s":
                values = {"transaction_rate": (value, "tps")}
            else:
                return {}, [Problem(file, n, "Throughput Metric", f"{metric!r}: expected Mb/s or OP/s", RULE)]
            latency = cells.get("99%tile Observed Latency", "").strip()
            if cells.get("Latency Metric", "usec").strip() != "usec":
                return {}, [Problem(file, n, "Latency Metric", f"{cells['Latency Metric']!r}: expected usec", RULE)]
            if latency and number(latency):  # 0: the driver measured no latency
                values["rtt_p99"] = (latency, "us")
        elif kind == "loss-rt":
            what, value = cells["Type"].strip(), cells["Value"].strip()
            number(value)
            if what == "UDP Percent Loss":
                values = {"loss": (value, "pct")}
            elif what == "TCP Retransmissions":
                values = {"retransmits": (value, "segments")}
            else:
                return {}, [Problem(file, n, "Type", f"{what!r}: expected UDP Percent Loss or TCP Retransmissions", RULE)]
        else:
            value = cells["CPU Utilization"].strip()
            number(value)
            values = {"cpu_avg": (value, "pct")}
        if "Duration" in cells and number(cells["Duration"]):
            values["duration"] = (cells["Duration"].strip(), "s")
    except CellError as exc:
        return {}, [Problem(file, n, "", f"{exc}: expected a number", RULE)]
    return values, []


def convert(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    kind, found, problems = read(data, file)
    if any(p.severity == "error" for p in problems):
        return [], problems, len(found)
    rows = []
    for n, cells in found:
        test_id, variant, _ = scenario(cells)
        if test_id != spec.get("part", test_id):
            continue
        values, probs = _values(kind, cells, file, n)
        problems += probs
        if probs:
            continue
        keys = {**base_keys(spec, test.id), "variant": variant}
        if kind == "vswitch":
            keys["component"] = f"ovs-vswitchd on the {cells['Role'].strip().lower()} node"
        rows.append(row("measurements", file, n, keys, values))
    return rows, problems, len(rows)  # the rows of this entry's scenario


def describe(data: bytes, name: str) -> ImportPlan:
    plan = ImportPlan("k8s-netperf")
    kind, found, plan.problems = read(data, name)
    if any(p.severity == "error" for p in plan.problems):
        return plan
    tests: dict[str, dict] = {}
    for n, cells in found:
        test_id, variant, words = scenario(cells)
        t = tests.setdefault(test_id, {"cells": cells, "variants": {}})
        t["variants"][variant] = words
    suffix = {"result": "", "loss-rt": "-loss-rt", "vswitch": "-vswitch"}[kind]
    for test_id, t in tests.items():
        cells = t["cells"]
        what = {"result": "throughput and latency", "loss-rt": "UDP loss and TCP retransmissions", "vswitch": "ovs-vswitchd CPU use on the client's and server's nodes"}[kind]
        methodology = {"search": "fixed-rate"}
        try:
            if number(cells["# of Samples"]):
                methodology["trials"] = int(number(cells["# of Samples"]))
            if number(cells["Duration"]):
                methodology["trial_duration_s"] = number(cells["Duration"])
        except CellError:
            pass
        fields = {"title": f"k8s-netperf {cells['Driver']} {cells['Profile']}, {cells['Message Size']}-byte messages ({what})", "rfc": ["vendor"],
                  "description": f"k8s-netperf runs {cells['Driver']} {cells['Profile']} between pods with {cells['Message Size']}-byte messages; "
                                 f"each figure is the mean over the samples (trials). From its {kind} CSV: {what}.",
                  "variants": t["variants"], "methodology": methodology,
                  "direction": "unidirectional" if "STREAM" in cells["Profile"].upper() else "bidirectional"}
        plan.tests.append(TestPlan(test_id + suffix, fields, [{"part": test_id}]))
    plan.instrument = {"vendor": "Red Hat cloud-bulldozer (open source)", "product": "k8s-netperf"}
    plan.unstated = ["instrument.software"]
    return plan


def sniff(head: bytes, name: str) -> float:
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace").strip().split(",")
    return 0.9 if _kind(first) else 0.0


IMPORTER = Importer(
    summary="k8s-netperf CSV archives (result, loss-rt and vswitch files, every schema version): goodput or transactions/s, 99th percentile RTT, UDP loss, retransmits, vswitch CPU per scenario",
    sniff=sniff, describe=describe, convert=convert, kinds=("csv",),
    examples=("docs/importers/examples/k8s-netperf/result.csv", "docs/importers/examples/k8s-netperf/loss-rt-result.csv"),
)
