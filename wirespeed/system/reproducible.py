"""Byte-stable outputs: the same inputs give the same bytes, whichever process or day built them.

Two outputs are not stable as their tools write them: vl-convert's PDFs (dictionary keys in hash
order, which changes with every process) and papermill's executed notebooks (random cell ids, start
and end times, the temporary folder the run wrote into). Both are rewritten here.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from typing import Any

# papermill's per-run fields: clocks, durations and the temporary paths it read from and wrote to.
_PAPERMILL_RUN_FIELDS = ("start_time", "end_time", "duration", "input_path", "output_path", "exception", "status")
_ADDRESS = re.compile(r" (?:object )?at 0x[0-9a-fA-F]+>")


def stable_pdf(data: bytes) -> bytes:
    """The PDF rewritten by qpdf: dictionary keys sorted, objects renumbered in order, /ID from the content.

    A tool's own /ID goes first: qpdf keeps its first half, and cairo (Graphviz) draws it from the clock and the path."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        if "/ID" in pdf.trailer:
            del pdf.trailer["/ID"]
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return out.getvalue()


def cell_id(name: str, index: int) -> str:
    """A notebook cell's id from the notebook's name and the cell's position (nbformat allows 1–64 of [A-Za-z0-9-_])."""
    return hashlib.sha256(f"{name}:{index}".encode()).hexdigest()[:12]


def stable_notebook(nb: dict[str, Any], name: str, replace: dict[str, str]) -> dict[str, Any]:
    """An executed notebook (nbformat JSON) without what differs between runs of the same inputs.

    Cell ids become `cell_id(name, index)`; papermill's clocks and durations, the kernel's execution
    timestamps and papermill's input/output paths are dropped; every string of `replace` (the
    temporary output folder) is replaced by its final value, in sources, outputs and metadata. A cell's
    consecutive stream outputs of one name (stdout, stderr) become one, in lines: how the kernel split
    its printing into messages depends on timing, what it printed does not.
    """
    text = json.dumps(nb, ensure_ascii=False)
    for old, new in replace.items():
        text = text.replace(json.dumps(old)[1:-1], json.dumps(new)[1:-1])
    nb = json.loads(text)
    for field in _PAPERMILL_RUN_FIELDS:
        nb.get("metadata", {}).get("papermill", {}).pop(field, None)
    for i, cell in enumerate(nb.get("cells", [])):
        cell["id"] = cell_id(name, i)
        meta = cell.get("metadata", {})
        meta.pop("execution", None)
        for field in _PAPERMILL_RUN_FIELDS:
            meta.get("papermill", {}).pop(field, None)
        if meta.get("papermill") == {}:
            del meta["papermill"]
        if "outputs" in cell:
            cell["outputs"] = _joined_streams(cell["outputs"])
        for output in cell.get("outputs", []):
            plain = output.get("data", {}).get("text/plain")
            if plain is not None:  # default reprs print a memory address: "<module.Class at 0x7f…>"
                output["data"]["text/plain"] = _ADDRESS.sub(">", plain) if isinstance(plain, str) else [_ADDRESS.sub(">", x) for x in plain]
    return nb


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def _joined_streams(outputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Outputs with each run of consecutive stream outputs of one name joined into one, its text as lines."""
    out: list[dict[str, Any]] = []
    for output in outputs:
        if output.get("output_type") == "stream":
            prev = out[-1] if out else None
            if prev is not None and prev.get("output_type") == "stream" and prev.get("name") == output.get("name"):
                prev["text"] = _text(prev["text"]) + _text(output.get("text", ""))
                continue
            output = {**output, "text": _text(output.get("text", ""))}
        out.append(output)
    for output in out:
        if output.get("output_type") == "stream":
            output["text"] = output["text"].splitlines(keepends=True)
    return out
