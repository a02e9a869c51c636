"""Where each result set stands in the build: per set and step (analyse, site, report), whether it
failed, why (in one line) and the log that keeps the full traceback.

Steps treat sets independently: a set whose step fails is named in one line, left out of what
follows (the site and the reports) and shown as failed by `wirespeed summary`; the other sets
still publish. The record lives in build/status/<slug>.json, the logs in build/logs/<slug>/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from wirespeed.pipeline import paths
from wirespeed.system import atomic

STATUS_ROOT = paths.STATUS
LOG_ROOT = paths.LOGS
STEPS = ("analyse", "site", "report")
# The exit statuses of the build steps (validate, ingest, analyse, site, report), which `make` reads (Makefile):
EXIT_LEFT_OUT = 1  # some result sets (or articles) were left out, each named in one line; everything else was built
EXIT_STEP_FAILED = 3  # the step itself could not run (a missing tool, a broken notebook, template or article): the site
# cannot be built. An internal error exits 2 (wirespeed.cli.main), an interrupt 130.
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_SAFE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def _file(slug: str, root: Path) -> Path | None:
    return root / f"{slug}.json" if _SAFE.match(slug) else None


def read(slug: str, root: Path = STATUS_ROOT) -> dict[str, Any]:
    """A set's step records: step → {"ok", "what", "cause", "log"}."""
    f = _file(slug, root)
    if f is None or not f.is_file():
        return {}
    try:
        return json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def record(slug: str, step: str, failure: dict[str, str] | None, root: Path = STATUS_ROOT) -> None:
    """Record that a set's step succeeded (failure None) or failed ({"what", "cause", "log"})."""
    f = _file(slug, root)
    if f is None:
        return
    status = read(slug, root)
    status[step] = {"ok": True} if failure is None else {"ok": False, **failure}
    atomic.write_text(f, json.dumps(status, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def failed_steps(slug: str, steps: tuple[str, ...] = STEPS, root: Path = STATUS_ROOT) -> list[str]:
    """The steps among `steps` whose last run failed for this set."""
    status = read(slug, root)
    return [s for s in steps if s in status and not status[s].get("ok", True)]


def write_log(slug: str, step: str, name: str, text: str, root: Path = LOG_ROOT) -> Path:
    """Keep a failure's full text (traceback, tool output) in build/logs/<slug>/<step>-<name>.log; returns its path."""
    safe = slug if _SAFE.match(slug) else "_invalid"
    path = root / safe / f"{step}-{re.sub(r'[^A-Za-z0-9._-]', '_', name)}.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, _ANSI.sub("", text).rstrip() + "\n")
    return path


def line(slug: str, step: str, failure: dict[str, str]) -> str:
    """The one line a failure is reported in: set, step, notebook or template, cause, log."""
    return f"{slug}: {step} failed in {failure['what']}: {failure['cause']} (left out of the site and reports; full traceback: {failure['log']})"


def describe(slug: str, root: Path = STATUS_ROOT) -> str:
    """'ok', or the failed steps of a set, for `wirespeed summary`."""
    bad = failed_steps(slug, root=root)
    return "ok" if not bad else "failed: " + ", ".join(bad)
