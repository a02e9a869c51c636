"""Problems found in input: one line each, naming the file, the place and the rule."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    """One finding about one place of one file."""

    file: str
    line: int | None
    field: str
    message: str
    rule: str
    severity: str = "error"  # error | warning | acknowledged

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        field = f" {self.field}:" if self.field else ""
        tag = "" if self.severity == "error" else f"{self.severity}: "
        return one_line(f"{where}:{field} {tag}{self.message} [{self.rule}]")


def one_line(text: str) -> str:
    """Text with every control, format or separator character shown as an escape: a problem stays one inert line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in text)


def internal_problem(file: Path | str, step: str, exc: BaseException) -> Problem:
    """An unexpected failure while handling one input, as one line naming the file (rule: internal)."""
    detail = str(exc)
    detail = detail if len(detail) <= 200 else detail[:200] + "…"
    return Problem(display_path(file), None, "", f"internal error while {step}: {type(exc).__name__}: {detail}", "internal")


class InputError(Exception):
    """Raised when input cannot be used at all; carries the problems that say why."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def display_path(path: Path | str) -> str:
    """A path relative to the working directory when it is below it, for messages.

    The path is made absolute lexically (no symbolic link is followed: a link loop in a contributed set
    must still be named), then, when that is not below the working directory, with its links resolved."""
    p = Path(path)
    try:
        cwd = Path.cwd()
    except OSError:  # the working directory was removed
        return str(p)
    for here, there in ((lambda: Path(os.path.abspath(p))), (lambda: cwd)), ((lambda: p.resolve()), (lambda: cwd.resolve())):
        try:
            return str(here().relative_to(there()))
        except (ValueError, OSError, RuntimeError):  # not below it; a link loop (RuntimeError before Python 3.13)
            continue
    return str(p)
