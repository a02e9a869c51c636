"""Every real tool output of tests/real/ that imports today, one set each (tests/realsets.py), and the sets of several
tool files each that tests declare (tests/multifile.py), built once per test session into one site and its PDFs, as
tests/pipeline.py builds the examples: in the folder named by WIRESPEED_TEST_REAL, which conftest.py creates once per
session and pytest-xdist workers share. The tests that read it never change it."""

from __future__ import annotations

import fcntl
import json
import os
import traceback
from pathlib import Path

import multifile
import realsets
import workdir
from conftest import REAL_ENV

ROOT = Path(os.environ[REAL_ENV])
WORK = ROOT / "site"
LOCK = ROOT / ".real.lock"
RECORD = ROOT / "imported.json"  # what the import made: the slugs, the files refused and the importer each file went to
STEPS = (["build"],)  # the whole pipeline in one process, as `make` runs it: validate, ingest, analyse, site data, reports, site


def _build() -> dict:
    WORK.mkdir()
    w = workdir.make_without_reviews(WORK)  # the reviews cite the bundled examples, which are not here
    slugs, refused, chosen = realsets.import_all(w)
    groups, failed = multifile.import_all(w, realsets.run)
    if failed:
        return {"error": "sets of several files did not import: " + "; ".join(f"{k}: {v}" for k, v in failed.items())}
    for step in STEPS:
        proc = workdir.wirespeed(w, *step)
        if proc.returncode != 0 or "Traceback" in proc.stdout + proc.stderr:
            return {"error": f"wirespeed {' '.join(step)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"}
    return {"slugs": slugs, "refused": refused, "chosen": chosen, "groups": groups}


def build() -> tuple[Path, list[str], dict[str, str], dict[str, str]]:
    """The session's real-files build, made by the first worker that asks (the others wait for it): its working folder,
    the slugs of the one-file sets made, each refused file's one-line reason and the importer `import auto` chose for
    each file it imported (the sets of several files: groups()). A failed build fails every test that reads it with the
    same message."""
    ROOT.mkdir(parents=True, exist_ok=True)
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not RECORD.exists():
            try:
                record = _build()
            except Exception:  # noqa: BLE001 - recorded, so that every test that reads the build fails with it
                record = {"error": "the real-files build stopped:\n" + traceback.format_exc()}
            RECORD.write_text(json.dumps(record, indent=1), encoding="utf-8")
        record = json.loads(RECORD.read_text(encoding="utf-8"))
    if "error" in record:
        raise AssertionError(record["error"])
    return WORK, record["slugs"], record["refused"], record["chosen"]


def groups() -> list[str]:
    """The slugs of the sets of several files (tests/multifile.py) in the session's real-files build, made if not yet."""
    build()
    return json.loads(RECORD.read_text(encoding="utf-8"))["groups"]
