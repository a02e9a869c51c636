"""Captures too large for the repository, kept outside the result set (`wirespeed import pcap --keep-outside`).

A capture above the set's size limit (file_size.pcap) is analysed at import from the local file,
streamed (capture/reader.py: any size), and is not copied into the set. The set keeps instead:
- `native/<name>.capture.json`: the figures of the analysis (per frame-size group: the measured
  values, the one-second samples and the latency histogram; or one capture's counts and rates),
  converted into rows whenever the set is loaded, like any native file;
- in its [files].native entry, `outside = [{file, sha256, size, location}]`, one per capture: what
  the figures were computed from and where that file is kept (a URL or a storage note). The JSON
  names the same files, digests and sizes; validation compares the two (rule capture.outside), and
  needs neither capture. The test's methodology notes state them, so the page and the PDF do too.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from wirespeed.capture.analysis import signature_of
from wirespeed.capture.decode import SIGNATURE
from wirespeed.capture.errors import CaptureError
from wirespeed.capture.metrics import Group, one_capture
from wirespeed.capture.reader import read_frames
from wirespeed.importers.contract import ImportPlan
from wirespeed.problems import Problem

FORMAT = "wirespeed-capture-figures"
RULE = "capture.outside"


def _digest(path: Path, shown: str) -> tuple[str, int]:
    """SHA-256 and size of a plain file (a symbolic link is refused), read in 1 MiB pieces."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise CaptureError(shown, "", f"cannot read: {exc.strerror}", "import.read") from None
    if not stat.S_ISREG(st.st_mode):
        raise CaptureError(shown, "", "not a plain file (a symbolic link, folder or device is not read)", "import.read")
    h = hashlib.sha256()
    with open(path, "rb", buffering=0) as f:
        for piece in iter(lambda: f.read(1 << 20), b""):
            h.update(piece)
    return h.hexdigest(), st.st_size


def _group(g: Group) -> dict:
    return {"frame_size": g.frame_size, "values": g.values, "samples": g.samples, "histogram": [list(h) for h in g.histogram]}


def describe_outside(paths: list[Path], shown: list[str], location: str) -> ImportPlan:
    """The plan of one capture or a pair (before, after the device) kept at `location`: analysed here,
    its figures as the converted file, the captures' digests in the native entry."""
    from wirespeed.importers.pcap import _plan, pair_clock, skipped

    location = " ".join(location.split())
    if not location or len(location) > 500:
        return ImportPlan("pcap", problems=[Problem("--keep-outside", None, "LOCATION", "where the captures are kept (a URL or a "
                                                    "storage note), 1 to 500 characters", RULE)])
    try:
        captures = []
        for p, s in zip(paths, shown):
            digest, size = _digest(p, s)
            captures.append({"file": Path(p).name, "sha256": digest, "size": size})
        if len({c["file"] for c in captures}) < len(captures):
            raise CaptureError(shown[1], "", "the two captures have the same file name; rename one", RULE)
        frames = [read_frames(p, s) for p, s in zip(paths, shown)]
        entry, warn = {}, []
        if len(frames) == 2:
            a, entry, warn = pair_clock(frames[0], frames[1], shown[1])
        elif ((frames[0].flags & SIGNATURE) != 0).any() and (frames[0].txts >= 0).any():
            a = signature_of(frames[0])
        else:
            a = None
    except CaptureError as exc:
        return ImportPlan("pcap", problems=[exc.problem])
    figures = {"format": FORMAT, "version": 1, "captures": captures}
    if a:
        figures["groups"] = [_group(g) for g in a.result.groups]
    else:
        figures["single"] = one_capture(frames[0].ts, frames[0].size)
    plan = _plan(a, frames[0], shown)
    kept = "; ".join(f"{c['file']} ({c['size']:,} bytes, SHA-256 {c['sha256']})" for c in captures)
    method = plan.tests[0].fields["methodology"]
    method["notes"] += (f" The {'captures are' if len(captures) > 1 else 'capture is'} too large for the repository and "
                        f"kept outside the set, at {location}: {kept}; the set holds the figures computed from them.")
    plan.tests[0].native = [{**entry, "outside": [{**c, "location": location} for c in captures]}]
    plan.converted = (f"{Path(paths[0]).stem}.capture.json", json.dumps(figures, indent=1).encode())
    plan.problems += warn + skipped(frames)
    return plan


def _fail(file: str, field: str, message: str) -> tuple[list, list[Problem], int]:
    return [], [Problem(file, None, field, message, RULE)], 0


def convert_figures(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """The rows of an entry whose captures are kept outside: from the figures file `path`, after
    checking that it was computed from the files `outside` names (same names, digests, sizes)."""
    from wirespeed.importers.pcap import _rows, _single_rows

    try:
        doc = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return _fail(file, "", f"not the JSON figures of captures kept outside the set ({exc}); `outside` entries "
                     "take the .capture.json file `wirespeed import pcap --keep-outside` writes")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != 1:
        return _fail(file, "format", f"not a {FORMAT} file of version 1")
    named = [{k: c.get(k) for k in ("file", "sha256", "size")} for c in spec["outside"]]
    if doc.get("captures") != named:
        return _fail(file, "captures", f"the figures were computed from {_names(doc.get('captures'))}, but the entry's outside "
                     f"names {_names(named)}: the file, SHA-256 and size must be the same")
    try:
        if "single" in doc:
            rows = _single_rows(doc["single"], file, test.id)
        else:
            groups = [Group(g["frame_size"], g["values"], g["samples"], [tuple(h) for h in g["histogram"]]) for g in doc["groups"]]
            rows = _rows(groups, file, test.id)
    except (KeyError, TypeError, ValueError) as exc:
        return _fail(file, "groups", f"the figures are incomplete or malformed ({type(exc).__name__}: {exc})")
    return rows, [], len(rows)


def _names(captures) -> str:
    if not isinstance(captures, list):
        return "nothing"
    return ", ".join(f"{c.get('file')} ({str(c.get('sha256'))[:12]}…, {c.get('size')} bytes)" if isinstance(c, dict) else "?" for c in captures)
