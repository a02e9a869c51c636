"""Semantic rules of result.toml beyond its schema: numbers, dates, jumbo frames, native file specs.

- every number is finite and at most 10^15 in magnitude (TOML allows inf, nan and huge integers);
- every date is a real calendar date (2022-02-30 is not), and none but embargo_until lies in the future
  (after today in the latest time zone, UTC+14);
- frame sizes above the standard maximum (methodology.frame_sizes, IMIX sizes, native files) need
  methodology.max_frame_bytes (see wirespeed.engine.jumbo);
- a native file's frame size and direction are possible for its test;
- a set that is published (or embargoed) states its licence (not SPDX's NOASSERTION, the collectors'
  default) and is not synthetic (source.kind = "synthetic": made by a simulator, never published).
"""

from __future__ import annotations

import calendar
import datetime as _dt
import math
from typing import Any, Iterator

from wirespeed.engine.jumbo import oversize
from wirespeed.engine.linerate import streams
from wirespeed.problems import Problem
from wirespeed.resultset.model import TestSpec

MAX_MAGNITUDE = 1e15
FUTURE_ALLOWED = {"embargo_until"}  # a date whose purpose is to lie in the future


def _numbers(value: Any, path: str) -> Iterator[tuple[str, float | int]]:
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _numbers(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _numbers(v, f"{path}[{i}]")


def check_numbers(doc: dict[str, Any], file: str) -> list[Problem]:
    """Every number of result.toml is finite and within ±10^15 (before the schema sees it)."""
    problems = []
    for path, v in _numbers(doc, ""):
        if isinstance(v, float) and not math.isfinite(v):
            problems.append(Problem(file, None, path, f"{v} is not a finite number", "toml.number"))
        elif abs(v) > MAX_MAGNITUDE:
            shown = f"{v:.3g}" if isinstance(v, float) else (str(v) if len(str(v)) <= 24 else f"a {len(str(v))}-digit number")
            problems.append(Problem(file, None, path, f"{shown} is beyond the largest magnitude accepted ({MAX_MAGNITUDE:.0e})", "toml.number"))
    return problems


def date_fields(schema: dict[str, Any]) -> list[tuple[str, ...]]:
    """Paths of every date field of the schema's objects (found by their reference to $defs/date)."""
    defs = schema.get("$defs", {})
    out: list[tuple[str, ...]] = []

    def walk(node: dict[str, Any], path: tuple[str, ...], depth: int) -> None:
        if depth > 8:
            return
        for name, sub in node.get("properties", {}).items():
            ref = sub.get("$ref", "")
            if ref == "#/$defs/date":
                out.append((*path, name))
            elif ref.startswith("#/$defs/") and defs.get(ref.split("/")[-1], {}).get("type") == "object":
                walk(defs[ref.split("/")[-1]], (*path, name), depth + 1)

    walk(schema, (), 0)
    return out


def _calendar(text: str) -> _dt.date | None:
    """The first day of a YYYY, YYYY-MM or YYYY-MM-DD date; None if no such day exists."""
    parts = [int(p) for p in text.split("-")]
    year, month, day = parts[0], parts[1] if len(parts) > 1 else 1, parts[2] if len(parts) > 2 else 1
    if year < 1 or not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return _dt.date(year, month, day)


def latest_today() -> _dt.date:
    """Today's date where it is latest on Earth (UTC+14): a date written in local time is never 'in the future'."""
    return (_dt.datetime.now(_dt.timezone.utc) + _dt.timedelta(hours=14)).date()


def check_dates(doc: dict[str, Any], schema: dict[str, Any], file: str, today: _dt.date | None = None) -> list[Problem]:
    """Dates are real calendar dates, and none lies in the future (embargo_until excepted)."""
    today = today or latest_today()
    problems = []
    for path in date_fields(schema):
        value: Any = doc
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if not isinstance(value, str):
            continue
        field = ".".join(path)
        first = _calendar(value)
        if first is None:
            problems.append(Problem(file, None, field, f"{value} is not a date in the calendar", "semantic.date"))
            continue
        if path[-1] not in FUTURE_ALLOWED and first > today:
            problems.append(Problem(file, None, field, f"{value} is in the future (it is at most {today.isoformat()} anywhere on Earth)", "semantic.date-future"))
    return problems


NO_LICENCE = "NOASSERTION"  # SPDX: no licence stated (what a collector writes when the lab named none)


def check_publishable(doc: dict[str, Any], file: str) -> list[Problem]:
    """A set that is or will be published (status published or embargoed) is not synthetic and states its licence."""
    status = doc.get("status")
    if status not in ("published", "embargoed"):
        return []
    problems = []
    if (doc.get("source") or {}).get("kind") == "synthetic":
        problems.append(Problem(file, None, "status", f"{status}: a synthetic set (source.kind = \"synthetic\": made by a simulator, not measured "
                                "on a device) can never be published; keep status = \"draft\"", "publish.synthetic"))
    if doc.get("licence") == NO_LICENCE:
        problems.append(Problem(file, None, "licence", f"{NO_LICENCE} (no licence stated) cannot be {status}: state the data's licence as an SPDX "
                                "identifier, e.g. licence = \"CC-BY-4.0\" (wirespeed collect --licence)", "publish.licence"))
    return problems


def _method_place(doc: dict[str, Any], test_index: int, key: str) -> str:
    """Where a test's merged methodology field comes from: the test's own or the set's default."""
    own = doc["tests"][test_index].get("methodology", {})
    return f"tests[{test_index}].methodology.{key}" if key in own else f"methodology.{key}"


def check_frame_sizes(doc: dict[str, Any], tests: dict[str, TestSpec], file: str) -> list[Problem]:
    """Declared frame sizes and IMIX sizes above the standard maximum need methodology.max_frame_bytes."""
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    index = {t["id"]: i for i, t in enumerate(doc["tests"])}
    for test in tests.values():
        i, media = index[test.id], test.link.media
        sizes = [s for s in test.methodology.get("frame_sizes", []) if isinstance(s, int)]
        checks = [(_method_place(doc, i, "frame_sizes"), f"test {test.id!r}", sizes, test.convention)]
        checks += [(f"{_method_place(doc, i, 'imix')}[{j}].sizes", f"test {test.id!r}, IMIX {imix_id!r}", list(mix.sizes), mix.convention)
                   for j, (imix_id, mix) in enumerate(test.imixes.items())]
        for place, what, sizes, convention in checks:
            # one line per place: the largest size that is refused
            for size in sorted(sizes, reverse=True):
                if why := oversize(size, convention, media, test.methodology):
                    if (place, why) not in seen:
                        seen.add((place, why))
                        problems.append(Problem(file, None, place, f"{what}: {why}", "semantic.jumbo-frames"))
                    break
    return problems


def check_native_specs(doc: dict[str, Any], tests: dict[str, TestSpec], file: str) -> list[Problem]:
    """A native file's frame size is an IMIX of its test or a size the test accepts; its direction is possible."""
    problems = []
    for i, spec in enumerate(doc["files"].get("native", [])):
        test = tests.get(spec["test"])
        if test is None:
            continue
        place = f"files.native[{i}]"
        size = spec.get("frame_size")
        if isinstance(size, str) and size not in test.imixes:
            problems.append(Problem(file, None, f"{place}.frame_size", f"{size!r} is not an IMIX id of test {test.id!r}", "semantic.frame-size"))
        elif isinstance(size, int) and (why := oversize(size, test.convention, test.link.media, test.methodology)):
            problems.append(Problem(file, None, f"{place}.frame_size", why, "semantic.jumbo-frames"))
        direction = spec.get("direction")
        if direction is not None:
            try:
                streams(test.meta["topology"], test.meta["ports"], direction, test.meta.get("receivers"))
            except ValueError as exc:
                problems.append(Problem(file, None, f"{place}.direction", f"{direction} traffic is impossible for test {test.id!r}: {exc}", "semantic.direction"))
    return problems
