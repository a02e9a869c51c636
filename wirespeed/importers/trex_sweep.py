"""Fixed-rate sweeps written by custom T-Rex STL scripts: a JSON array of runs, read through a
declared column mapping instead of code per script.

Every lab's script writes its own field names (`tx_pps` or `txPps`, `size` or `pkt_len`, rates
as 10 or "10%"), so the importer takes a **mapping** — data, not code: a table whose keys are
columns of the result-set vocabulary and whose values are the run's field holding them (a dotted
path into nested objects). It is declared in result.toml on the native entry
(`native = [{path = "raw/sweep.json", importer = "trex-sweep", test = "…", mapping = {…}}]`,
documented in the schema) and, at import time, read from a TOML file beside the sweep
(`sweep.mapping.toml` for `sweep.json`):

    frame_size = "size"            # key columns: frame_size, load_pct, trial, direction, variant
    load_pct = "rate"              # "10%", 10 and "10 %" are the same load
    trial = "rep"                  # without it, repeated runs are numbered 1, 2, … in file order
    offered_rate_pps = "tx_pps"    # value columns: <metric>_<unit>, as in the CSV tables
    forwarding_rate_pps = "rx_pps"
    lost_frames = "lost"

Each run becomes one measurement row. Frame sizes are read in the set's convention (Ethernet frames,
FCS included, unless the test says `frame_size_convention = "trex-packet"`: scripts differ). Cells may be numbers or strings with `N/A`, thousands
separators or the column's unit as suffix; two runs with the same keys are a duplicated run.
"""

from __future__ import annotations

import tomllib
from typing import Any

from wirespeed.engine.columns import KEYS, METRICS, TABLE_METRICS
from wirespeed.importers.common import parse_json
from wirespeed.importers.records import Record, duplicate_problems, figure
from wirespeed.importers.tabular import CellError, number
from wirespeed.problems import Problem
from wirespeed.engine.units import split_column

RULE = "import.trex-sweep"
KEY_COLUMNS = ("frame_size", "load_pct", "trial", "direction", "variant")


def mapping_problems(mapping: Any, file: str, field: str = "mapping") -> list[Problem]:
    """Problems of a declared mapping: unknown columns, metrics not in the vocabulary, bad paths."""
    if not isinstance(mapping, dict) or not mapping:
        return [Problem(file, None, field, "expected a table {column = \"field of a run\"} naming at least one value column", RULE)]
    out = []
    for col, path in mapping.items():
        if not isinstance(path, str) or not path.strip() or len(path) > 200:
            out.append(Problem(file, None, f"{field}.{col}", "expected the name of a field of a run (a dotted path)", RULE))
        if col in KEY_COLUMNS:
            continue
        split = split_column(col)
        if split is None or split[0] not in TABLE_METRICS["measurements"] or METRICS[split[0]].dimension != split[1].dimension:
            out.append(Problem(file, None, f"{field}.{col}", f"expected a key column ({', '.join(KEY_COLUMNS)}) or a measurement column <metric>_<unit> of the vocabulary", RULE))
    if not any(c not in KEY_COLUMNS for c in mapping):
        out.append(Problem(file, None, field, "expected at least one value column (e.g. forwarding_rate_pps)", RULE))
    return out


def read_mapping(data: bytes, file: str) -> tuple[dict | None, list[Problem]]:
    """A mapping TOML file (the one beside the sweep at import time)."""
    try:
        mapping = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return None, [Problem(file, None, "", f"expected a TOML column mapping: {exc}", RULE)]
    probs = mapping_problems(mapping, file, "")
    return (None, probs) if probs else (mapping, [])


def _get(run: dict, path: str):
    cur: Any = run
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def sniff(head: bytes, name: str) -> float:
    text = head.decode("utf-8", "replace").lstrip()
    if text.startswith("[") and ("pps" in text or "bps" in text) and any(k in text for k in ('"tx', '"rx', '"lost')):
        return 0.6
    return 0.0


def parse(data: bytes, file: str, mapping: dict) -> tuple[list[Record], list[Problem]]:
    """Records of a sweep through its mapping (mapping problems are named at the mapping's place)."""
    probs = mapping_problems(mapping, file)
    if probs:
        return [], probs
    doc, problems = parse_json(data, file)
    if doc is None:
        return [], problems
    if not isinstance(doc, list) or not doc or not all(isinstance(r, dict) for r in doc):
        return [], [Problem(file, None, "", "expected a JSON array of runs (one object per run)", RULE)]
    recs: list[Record] = []
    trials: dict[tuple, int] = {}
    for i, run in enumerate(doc):
        where = f"[{i}]"
        keys: dict[str, Any] = {}
        values: dict[str, tuple] = {}
        bad = False
        for col, path in mapping.items():
            raw = _get(run, path)
            try:
                if col in ("direction", "variant"):
                    if raw is not None:
                        keys[col] = str(raw).strip()
                elif col == "frame_size":
                    v = raw if isinstance(raw, (int, float)) and not isinstance(raw, bool) else number(raw, "bytes") if raw is not None else None
                    if v is None or v != int(v) or v < 1:
                        raise CellError(f"{raw!r} is not a frame size in whole bytes")
                    keys[col] = int(v)
                elif col == "load_pct":
                    v = raw if isinstance(raw, (int, float)) and not isinstance(raw, bool) else number(raw, "pct")
                    if v is None or not 0 < v <= 100:
                        raise CellError(f"{raw!r} is not a load in (0, 100] %")
                    keys[col] = figure(int(v) if v == int(v) else v)
                elif col == "trial":
                    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 1:
                        raise CellError(f"{raw!r} is not a trial number from 1")
                    keys[col] = raw
                else:
                    metric, unit = split_column(col)
                    v = raw if isinstance(raw, (int, float)) and not isinstance(raw, bool) else number(raw, unit.name)
                    if v is not None and v < 0:
                        raise CellError(f"{raw!r} is negative")
                    values[metric] = (v, unit.name)
            except CellError as exc:
                problems.append(Problem(file, None, f"{where}.{path}", f"{col}: {exc}", RULE))
                bad = True
        if bad:
            continue
        if all(v is None for v, _ in values.values()):
            problems.append(Problem(file, None, where, f"expected at least one of {', '.join(mapping[c] for c in mapping if c not in KEY_COLUMNS)}: none found", RULE))
            continue
        if "trial" not in mapping:
            group = tuple(sorted((k, str(v)) for k, v in keys.items()))
            trials[group] = trials.get(group, 0) + 1
            keys["trial"] = trials[group]
        recs.append(Record("measurements", where, 0, keys, values))
    problems += duplicate_problems(recs, file, RULE)
    return recs, problems


def mapping_beside(name: str) -> tuple[dict | None, list[Problem], str]:
    """The mapping TOML beside a sweep at import time (`sweep.mapping.toml` for `sweep.json`)."""
    from pathlib import Path

    p = Path(name)
    mp = p.with_name(p.stem + ".mapping.toml")
    if not mp.is_file() or mp.is_symlink():
        return None, [Problem(name, None, "", f"no column mapping: expected {mp.name} beside the file (see `wirespeed plugins importers`)", RULE)], str(mp)
    if mp.stat().st_size > 65536:
        return None, [Problem(str(mp), None, "", "larger than 64 KiB: expected a small column mapping", RULE)], str(mp)
    mapping, probs = read_mapping(mp.read_bytes(), str(mp))
    return mapping, probs, str(mp)


def describe(data: bytes, name: str):
    from wirespeed.importers.contract import ImportPlan, TestPlan
    from wirespeed.importers.records import methodology, unstated

    plan = ImportPlan("trex-sweep")
    mapping, plan.problems, _ = mapping_beside(name)
    if mapping is None:
        return plan
    recs, plan.problems = parse(data, name, mapping)
    if any(p.severity == "error" for p in plan.problems):
        return plan
    meth = methodology(recs)  # frame sizes as the script wrote them: Ethernet frames unless the contributor says trex-packet
    durations = {r.values["duration"][0] for r in recs if r.values.get("duration", (None,))[0] is not None}
    if len(durations) == 1:
        meth["trial_duration_s"] = durations.pop()
    plan.tests.append(TestPlan("fixed-rate-sweep", {"title": "Fixed-rate sweep (T-Rex STL script)", "rfc": ["vendor"], "methodology": meth},
                               native=[{"mapping": mapping}]))
    plan.instrument = {"vendor": "Cisco (open source)", "product": "T-Rex traffic generator"}
    plan.unstated = unstated("fixed-rate-sweep", plan.tests[0].fields, "instrument.software")
    return plan


def _read(data: bytes, file: str, spec: dict):
    return parse(data, file, spec.get("mapping"))


def _importer():
    from wirespeed.importers.contract import Importer
    from wirespeed.importers.records import converter

    return Importer(summary="Fixed-rate sweeps of custom T-Rex STL scripts (JSON array of runs) through a declared column mapping",
                    sniff=sniff, describe=describe, convert=converter(_read), examples=("docs/importers/examples/trex-sweep/sweep.json",))


IMPORTER = _importer()
