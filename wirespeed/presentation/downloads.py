"""Download labels in words with their format and size: "Results: baseline.csv, CSV, 1.2 kB"."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

ROLES = {"measurements": "Results", "samples": "Per-second samples", "histograms": "Latency histograms", "metadata": "Metadata",
         "attachment": "Attachment", "native": "Native tool output", "other": "Native tool output"}
FORMATS = {".csv": "CSV", ".toml": "TOML", ".json": "JSON", ".txt": "text", ".pcap": "pcap", ".pcapng": "pcapng", ".parquet": "Parquet",
           ".html": "HTML page", ".ipynb": "Jupyter notebook", ".pdf": "PDF", ".png": "PNG", ".svg": "SVG"}


def role_title(role: str, path: str, attachment_titles: dict[str, str]) -> str:
    """What a result-set file is, in words."""
    if path in attachment_titles:
        return f"{attachment_titles[path]} ({PurePosixPath(path).name})"
    return f"{ROLES.get(role, 'File')}: {path}"


def size_text(n: int) -> str:
    """'312 bytes', '4.7 kB', '12 kB', '1.5 MB' (decimal units, two significant digits below ten)."""
    if n < 1000:
        return f"{n} bytes"
    for unit, factor in (("kB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        v = n / factor
        if v < 1000 or unit == "GB":
            return f"{v:.1f} {unit}" if v < 10 else f"{v:.0f} {unit}"
    raise AssertionError(n)


def label(downloads: list[dict[str, Any]], static_root: Path) -> list[dict[str, Any]]:
    """Each download with its format and, for a file already under static_root, its size in bytes and in words."""
    out = []
    for d in downloads:
        suffixes = [x.lower() for x in PurePosixPath(d["url"]).suffixes[-2:]]
        if len(suffixes) == 2 and suffixes[1] == ".gz" and suffixes[0] in FORMATS:  # a capture published compressed
            fmt = f"{FORMATS[suffixes[0]]}, gzip-compressed"
        else:
            fmt = FORMATS.get(PurePosixPath(d["url"]).suffix.lower(), PurePosixPath(d["url"]).suffix.lstrip(".").upper())
        entry = {**d, "format": fmt}
        path = static_root / d["url"]
        if path.is_file():
            entry["bytes"] = path.stat().st_size
            entry["size"] = size_text(entry["bytes"])
        out.append(entry)
    return out
