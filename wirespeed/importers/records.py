"""Records: what a parser reads from a native file, before it becomes rows of a result set.

The parsers of the traffic-generator formats (T-Rex, trex-loadtest-viz, Spirent TestCenter,
Keysight IxNetwork) are pure functions from bytes to records: a kind (measurements, samples,
histograms), the place in the file it came from (for messages), its keys in the column vocabulary
(test excepted: it comes from the [files].native entry) and its values as {metric: (value, unit)}
in the unit the file wrote. `to_rows` turns them into `Row`s at load time; `duplicate_problems`
refuses two records with the same keys (a duplicated run), naming both places.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wirespeed.engine.figures import Figure
from wirespeed.importers.common import row
from wirespeed.problems import Problem


@dataclass
class Record:
    """One row as a parser read it."""

    kind: str
    place: str  # "line 12", "stats.latency.7": where it is in the file
    line: int  # 0 when the place is not a line
    keys: dict[str, Any] = field(default_factory=dict)
    values: dict[str, tuple[float | None, str]] = field(default_factory=dict)


def figure(x: float | int) -> Figure:
    """A key value (load_pct, t_s, bucket edges) as a Figure, the way the CSV reader keys rows."""
    return Figure.parse(repr(float(x)) if isinstance(x, float) else str(x))


def ident(rec: Record) -> tuple:
    return (rec.kind, tuple(sorted((k, str(v.value) if isinstance(v, Figure) else str(v)) for k, v in rec.keys.items())))


def duplicate_problems(records: list[Record], file: str, rule: str, what: str = "run") -> list[Problem]:
    """One problem per record whose keys repeat an earlier one's (a duplicated run)."""
    seen: dict[tuple, Record] = {}
    out = []
    for rec in records:
        k = ident(rec)
        if k in seen:
            keys = ", ".join(f"{a}={b}" for a, b in k[1])
            out.append(Problem(file, rec.line or None, "" if rec.line else rec.place,
                               f"duplicated {what} ({keys}): same keys as {seen[k].place}; expected each {what} once", rule))
        else:
            seen[k] = rec
    return out


def table_end(recs: list[Record], problems: list[Problem], file: str, view: str, rule: str) -> None:
    """After a table's last row: its duplicated rows, or that it had none."""
    problems += duplicate_problems(recs, file, rule, "row")
    if not recs and not problems:
        problems.append(Problem(file, None, "", f"no data rows under the {view} header", rule))


def to_rows(records: list[Record], file: str, spec: dict, test_id: str) -> list:
    """Rows of one [files].native entry: the entry's keys (frame_size, variant, direction, load_pct)
    fill what a record does not state and select the records that match what it does state."""
    rows = []
    for rec in records:
        keys: dict[str, Any] = {"test": test_id}
        skip = False
        for k in ("frame_size", "variant", "direction", "load_pct"):
            if k not in spec:
                continue
            want = figure(spec[k]) if k == "load_pct" else spec[k]
            have = rec.keys.get(k)
            if have is None:
                if k != "load_pct" or rec.kind != "samples":
                    keys[k] = want
            elif str(getattr(have, "value", have)) != str(getattr(want, "value", want)):
                skip = True
        if skip:
            continue
        keys.update({k: v for k, v in rec.keys.items() if v is not None})
        rows.append(row(rec.kind, file, rec.line, keys, rec.values))
    return rows


def converter(read):
    """A load-time `convert` from a parser `read(data, file) -> (records, problems)`: the rows of the
    [files].native entry, or none at all when the file has an error (never half a file)."""

    def convert(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
        recs, problems = read(data, file, spec)
        if any(p.severity == "error" for p in problems):
            return [], problems, len(recs)
        return to_rows(recs, file, spec, test.id), problems, len(recs)

    return convert


def sizes_and_loads(recs: list[Record]) -> tuple[list, list[float], int]:
    """Frame sizes, loads (%) and the largest trial number the records state."""
    sizes = sorted({r.keys["frame_size"] for r in recs if isinstance(r.keys.get("frame_size"), int)})
    loads = sorted({float(r.keys["load_pct"].value) for r in recs if r.keys.get("load_pct") is not None})
    trials = max((r.keys.get("trial", 0) for r in recs), default=0)
    return sizes, loads, trials


def methodology(recs: list[Record]) -> dict:
    sizes, loads, trials = sizes_and_loads(recs)
    out: dict = {}
    if sizes:
        out["frame_sizes"] = sizes
    if loads:
        out["offered_loads_pct"] = [int(x) if x == int(x) else x for x in loads]
    if trials:
        out["trials"] = trials
    return out


def unstated(test_id: str, fields: dict, *more: str) -> list[str]:
    """The test fields a traffic-generator export seldom states, named when the file did not."""
    out = [f"tests.{test_id}.{f}" for f in ("port_speed", "ports", "scenario", "topology", "direction") if f not in fields]
    if not (fields.get("methodology") or {}).get("frame_sizes"):
        out.append(f"tests.{test_id}.methodology.frame_sizes")
    return out + list(more)
