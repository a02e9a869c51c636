"""Semantic checks of a loaded result set, registered under the entry-point group wirespeed.checks.

A check is a callable `(rs: ResultSet) -> Iterable[Finding]` whose docstring's first line says
what it checks. A finding a result set's [[errata]] acknowledges is reported, not failed; the
erratum says why (`cause`: the source printed it so, or a known artefact of the measurement).

The checks named in PHYSICS are the physics gate: `wirespeed validate` and `wirespeed import`
(wirespeed.checks.gate) refuse a set that fails any of them, with the same lines. Their one
tolerance for clock error is wirespeed.checks.tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from wirespeed.problems import Problem, display_path, internal_problem
from wirespeed.resultset.model import ResultSet, Row


@dataclass(frozen=True)
class Finding:
    """What a check found about one row (or the set): severity error or warning."""

    check: str
    row: Row | None
    metric: str
    message: str
    severity: str = "error"

    def test(self) -> str | None:
        return self.row.test if self.row else None

    def problem(self, severity: str | None = None, default_file: str = "") -> Problem:
        file, line = (self.row.file, self.row.line) if self.row else (default_file, None)
        field = self.metric
        if self.row is not None and not line:  # a row an importer made: named by its keys (or the place it gave)
            field = f"{row_place(self.row)}: {self.metric}"
        return Problem(file, line or None, field, self.message, self.check, severity or self.severity)


# The physics gate: impossible figures, errors at validate and at import (wirespeed.checks.gate).
PHYSICS = ("throughput-above-line-rate", "rate-above-line-rate", "rate-frames-duration", "requested-as-achieved", "frame-counts",
           "negative-loss", "latency-order", "zero-measurement")

CAUSES = {"source": "erratum", "measurement": "known measurement artefact"}


def row_place(row: Row) -> str:
    """A row without a line (made by an importer from a native file): the place the importer names, else its keys."""
    if getattr(row, "place", ""):
        return row.place
    keys = ", ".join(f"{k} {getattr(v, 'text', v)}" for k, v in row.keys.items() if k != "test")
    return f"{row.kind} row of test {row.test}" + (f" ({keys})" if keys else "")


def acknowledged_by(finding: Finding, rs: ResultSet) -> int | None:
    """Index of the erratum that acknowledges a finding, if any."""
    row = finding.row
    for i, e in enumerate(rs.meta.get("errata", [])):
        if e["check"] != finding.check or row is None or e["test"] != row.test:
            continue
        if "frame_size" in e and e["frame_size"] != row.keys.get("frame_size"):
            continue
        if "metric" in e and e["metric"] != finding.metric:
            continue
        return i
    return None


def run_checks(rs: ResultSet, only: tuple[str, ...] | None = None) -> list[Problem]:
    """Run every registered check (or those named in `only`); acknowledged findings become 'acknowledged' problems."""
    from wirespeed.extensions import registry

    problems: list[Problem] = []
    used: set[int] = set()
    rfile = display_path(rs.path / "result.toml")
    for name, check in registry("checks").items():
        if only is not None and name not in only:
            continue
        try:
            findings = list(check(rs))
        except Exception as exc:  # noqa: BLE001 - a failing check is reported on its set; the other checks still run
            problems.append(internal_problem(rs.path / "result.toml", f"running check {name}", exc))
            continue
        for f in findings:
            idx = acknowledged_by(f, rs)
            if idx is None:
                problems.append(f.problem(default_file=rfile))
            else:
                used.add(idx)
                erratum = rs.meta["errata"][idx]
                cause = CAUSES[erratum.get("cause", "source")]
                problems.append(replace(f.problem("acknowledged", rfile), message=f"{f.message} — {cause}: {erratum['note']}"))
    for i, e in enumerate(rs.meta.get("errata", [])):
        if i not in used and (only is None or e["check"] in only):
            problems.append(Problem(rfile, None, f"errata[{i}]", f"erratum for check {e['check']!r} on test {e['test']!r} matches no finding", "errata.unused", "warning"))
    return problems
