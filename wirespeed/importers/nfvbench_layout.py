"""Where NFVbench runs sit in a file, and which runs make one test.

NFVbench (opnfv/nfvbench) writes one result per run: `{date, nfvbench_version, config, benchmarks}`
(nfvbench/nfvbench.py), with `benchmarks.network.service_chain.<chain>.result.result` holding one
object per frame size ("64", "IMIX") and, after an NDR/PDR search that saw the generator fall
short, a `warning` string beside them (chain_runner.py). The same result arrives wrapped:

- by the NFVbench server: `{status, result}` (docs/user/server.rst);
- by the behave tests in an OPNFV TestAPI record (behave_tests/features/steps/steps.py):
  `{project_name, case_name, pod_name, start_date, …, details: {results: {throughput: [run, …],
  latency: [run, …]}}}`, each run `{input, output: {status, result}, synthesis}`; older records
  keep one result directly as `details`;
- on a TestAPI results page: `{pagination, results: [record, …]}`.

A page holds many runs, one NFVbench invocation each (one frame size, one flow count, one rate).
They become tests by what they share: the record, the service chain, the flow count, the chain
count, the direction and the kind of run (NDR/PDR search or fixed rate); the frame sizes (and, for
fixed-rate runs, the loads) of one group are the rows of its test. `part` (a [files].native key)
names the group as `Group.part` spells it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from wirespeed.engine.figures import Figure
from wirespeed.importers.common import keyed, parse_json
from wirespeed.problems import Problem

RULE = "import.nfvbench"
SEARCH, FIXED = "search", "fixed-rate"


@dataclass(frozen=True)
class Run:
    """One NFVbench result in the file."""

    where: str  # JSON path of the result ("" for a bare result)
    label: str  # how messages name it ("" for a bare result)
    result: dict
    record: dict  # the TestAPI record holding it, or {}
    record_where: str  # "results[1]" on a page, "" otherwise


@dataclass(frozen=True)
class Entry:
    """One frame size of one service chain of one run."""

    run: Run
    chain: str
    chain_result: dict  # benchmarks.network.service_chain.<chain>.result
    size_key: str
    body: dict
    where: str  # JSON path of body

    @property
    def kind(self) -> str:
        return FIXED if isinstance(self.body.get("run_config"), dict) else SEARCH

    @property
    def config(self) -> dict:
        c = self.run.result.get("config")
        return c if isinstance(c, dict) else {}

    @property
    def bidirectional(self) -> bool:
        b = self.chain_result.get("bidirectional", keyed(self.config, "traffic", "bidirectional"))
        return b is not False

    @property
    def flows(self) -> int | None:
        f = self.chain_result.get("flow_count", self.config.get("flow_count"))
        return f if isinstance(f, int) and not isinstance(f, bool) and f > 0 else None

    @property
    def chain_count(self) -> int:
        n = self.chain_result.get("service_chain_count", self.config.get("service_chain_count"))
        return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1

    @property
    def part(self) -> str:
        """The group's name: the `part` of its [files].native entry."""
        flows = f"{self.flows} flows" if self.flows else "flows not stated"
        chains = f" ×{self.chain_count}" if self.chain_count > 1 else ""
        kind = "NDR/PDR search" if self.kind == SEARCH else "fixed rate"
        where = f"{self.run.record_where}: " if self.run.record_where else ""
        return f"{where}{self.chain} chain{chains}, {flows}, {'bidirectional' if self.bidirectional else 'unidirectional'}, {kind}"


def _wrapped(node) -> dict | None:
    """The NFVbench result a node is or holds: bare, or as `result` of {status, result}."""
    if not isinstance(node, dict):
        return None
    if "benchmarks" in node:
        return node
    inner = node.get("result")
    return inner if isinstance(inner, dict) and "benchmarks" in inner else None


def _result_at(node, where: str) -> tuple[dict, str] | None:
    """(result, its JSON path) of a run: the node itself, its `result`, or its `output`'s."""
    if (result := _wrapped(node)) is not None:
        return result, where if result is node else f"{where}.result"
    output = node.get("output") if isinstance(node, dict) else None
    if (result := _wrapped(output)) is not None:
        return result, f"{where}.output" if result is output else f"{where}.output.result"
    return None


def _record_runs(rec: dict, where: str) -> list[tuple[str, object]]:
    """(JSON path, node) of every run a TestAPI record holds."""
    details = rec.get("details")
    if _wrapped(details) is not None:
        return [(f"{where}details", details)]
    lists = keyed(details, "results")
    if not isinstance(lists, dict):
        return []
    out = []
    for kind, runs in lists.items():
        if isinstance(runs, list):
            out += [(f"{where}details.results.{kind}[{i}]", run) for i, run in enumerate(runs)]
    return out


def _shape(doc) -> str:
    if isinstance(doc, dict):
        return f"a JSON object with {', '.join(list(doc)[:6]) or 'no keys'}" + (", …" if len(doc) > 6 else "")
    return f"a JSON {type(doc).__name__.replace('dict', 'object').replace('list', 'array')}"


def runs(doc, file: str) -> tuple[list[Run], list[Problem], list[str]]:
    """Every NFVbench result in the file, the problems (one per run without results), and notes on
    runs that hold no result because they failed (the TestAPI keeps failed runs too)."""
    if _wrapped(doc) is not None:
        return [Run("" if doc is _wrapped(doc) else "result", "", _wrapped(doc), {}, "")], [], []
    page = isinstance(doc, dict) and isinstance(doc.get("results"), list)
    records = [(f"results[{i}]", r) for i, r in enumerate(doc["results"])] if page else [("", doc)] if isinstance(doc, dict) and "details" in doc else []
    if not records:
        expected = ("expected NFVbench results: a result {date, nfvbench_version, config, benchmarks.network.service_chain}, "
                    "a TestAPI record {project_name, details.results} or a TestAPI page {pagination, results: [record, …]}")
        return [], [Problem(file, None, "", f"{expected}; found {_shape(doc)}", RULE)], []
    found = []
    problems = []
    for rwhere, rec in records:
        if not isinstance(rec, dict):
            problems.append(Problem(file, None, rwhere, f"expected a TestAPI record (an object with details), found {_shape(rec)}", RULE))
            continue
        got = _record_runs(rec, f"{rwhere}." if rwhere else "")
        if not got:
            problems.append(Problem(file, None, f"{rwhere}.details".lstrip("."), "expected NFVbench runs in details.results (throughput, latency: [{input, output}]) or a result as details", RULE))
        found += [(rwhere, rec, w, node) for w, node in got]
    what = f"NFVbench TestAPI {'page' if page else 'record'} with {len(found)} run{'s' * (len(found) != 1)}"
    out, notes = [], []
    for n, (rwhere, rec, where, node) in enumerate(found, 1):
        label = f"{what}: run {n}"
        got = _result_at(node, where)
        if got is not None:
            out.append(Run(got[1], label, got[0], rec, rwhere))
            continue
        status = keyed(node, "output", "status")
        if isinstance(status, str) and status.strip().upper() not in ("", "OK"):
            message = keyed(node, "output", "error_message")
            inp = node.get("input") if isinstance(node.get("input"), dict) else {}
            what_run = ", ".join(f"{k} {inp[k]}" for k in ("frame_sizes", "flow_count", "rate") if k in inp)
            notes.append(f"{label} ({where}{': ' + what_run if what_run else ''}) failed with status {status.strip()}"
                         + (f" ({str(message).strip()[:200]})" if message else "") + " and holds no result.")
            continue
        problems.append(Problem(file, None, where, f"{label} has no NFVbench result: expected output.result with benchmarks.network.service_chain, found {_shape(node)}", RULE))
    return out, problems, notes


def entries(run: Run, file: str) -> tuple[list[Entry], list[Problem]]:
    """Every frame size of every service chain of a run; `warning` keys are NFVbench's notes, not frame sizes."""
    base = f"{run.where}." if run.where else ""
    name = f"{run.label} has" if run.label else "the result has"
    chains = keyed(run.result, "benchmarks", "network", "service_chain")
    if not isinstance(chains, dict) or not chains:
        return [], [Problem(file, None, f"{base}benchmarks.network.service_chain", f"{name} no service chain results: expected benchmarks.network.service_chain.<chain>.result.result", RULE)]
    out, problems = [], []
    for chain, body in chains.items():
        at = f"{base}benchmarks.network.service_chain.{chain}.result"
        chain_result = body.get("result") if isinstance(body, dict) else None
        sizes = chain_result.get("result") if isinstance(chain_result, dict) else None
        if not isinstance(sizes, dict):
            problems.append(Problem(file, None, f"{at}.result", f"{name} no results per frame size for the {chain} chain: expected an object keyed by frame size", RULE))
            continue
        for key, fsr in sizes.items():
            if key == "warning":
                continue
            if not isinstance(fsr, dict):
                problems.append(Problem(file, None, f"{at}.result.{key}", f"expected the results of frame size {key!r} (an object), found {_shape(fsr)}", RULE))
                continue
            out.append(Entry(run, str(chain).strip(), chain_result, str(key).strip(), fsr, f"{at}.result.{key}"))
    return out, problems


def warnings_of(entry: Entry) -> dict[str, str]:
    """NFVbench's warnings about an entry's runs, by block (ndr, pdr, run_config): the generator sent
    less than 90 % of the rate asked of it (traffic_client.compare_tx_rates). The warning NFVbench
    also puts beside the frame sizes is a copy of the last search block's; it counts for every
    search block of the result when no block carries its own."""
    out = {}
    for block in ("ndr", "pdr"):
        w = keyed(entry.body, block, "stats", "warning")
        if isinstance(w, str) and w.strip():
            out[block] = w.strip()
    w = keyed(entry.body, "run_config", "warning")
    if isinstance(w, str) and w.strip():
        out["run_config"] = w.strip()
    shared = entry.chain_result.get("result", {}).get("warning")
    if isinstance(shared, str) and shared.strip() and not out and entry.kind == SEARCH:
        out.update({b: shared.strip() for b in ("ndr", "pdr") if isinstance(entry.body.get(b), dict)})
    return out


def found_nothing(block: dict) -> bool:
    """Whether an NDR/PDR block is NFVbench's "not found": every load tried lost too much, and it
    writes rates and counters of 0 (traffic_client.__range_search)."""
    return block.get("rate_pps") == 0 and not keyed(block, "stats", "overall", "tx_pkts")


def at_ceiling(block: dict) -> bool:
    """Whether an NDR/PDR search ended at its ceiling, line rate in each direction: the device lost no
    more than the threshold at any load tried (traffic_client.__range_search stops at 100 %)."""
    load = block.get("load_percent_per_direction")
    return isinstance(load, (int, float)) and not isinstance(load, bool) and load >= 100


def load_of(entry: Entry) -> Figure | None:
    """A fixed-rate run's load: the rate SENT in percent of line rate per direction (NFVbench's
    run_config tx rate_percent: both directions added, halved for the aggregate of two)."""
    rc = entry.body["run_config"]
    pct = keyed(rc, "direction-total" if entry.bidirectional else "direction-forward", "tx", "rate_percent")
    if isinstance(pct, bool) or not isinstance(pct, (int, float)) or not 0 < pct <= (200 if entry.bidirectional else 100):
        return None
    load = Decimal(repr(pct)) / (2 if entry.bidirectional else 1)
    return Figure.parse(format(load.normalize(), "f"))


@dataclass(frozen=True)
class Reading:
    """A whole file read once: its runs, their entries, the problems, and the notes on failed runs."""

    runs: tuple[Run, ...]
    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...]
    failed: tuple[str, ...]


@lru_cache(maxsize=2)
def read(data: bytes, file: str) -> Reading:
    """The file's runs and entries. Loading a set converts one file once per test it holds: the file is
    parsed once (nothing here is changed by its readers)."""
    doc, problems = parse_json(data, file)
    if doc is None:
        return Reading((), (), tuple(problems), ())
    found, problems, failed = runs(doc, file)
    everything = []
    for run in found:
        got, probs = entries(run, file)
        everything += got
        problems += probs
    return Reading(tuple(found), tuple(everything), tuple(problems), tuple(failed))
