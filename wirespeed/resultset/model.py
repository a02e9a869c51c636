"""The in-memory model of a loaded result set."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wirespeed.engine.figures import Figure
from wirespeed.engine.imix import Imix
from wirespeed.engine.linerate import Link, frame_bytes
from wirespeed.engine.units import Unit


@dataclass(frozen=True)
class Cell:
    """One published number: as printed (figure, unit) and in the canonical unit."""

    figure: Figure
    unit: Unit
    canonical: Figure


@dataclass
class Row:
    """One CSV row: where it came from, its keys and its values."""

    kind: str  # measurements | samples | histograms
    file: str
    line: int
    keys: dict[str, Any]
    cells: dict[str, Cell]
    place: str = ""  # a row an importer made (line 0): where in the native file it comes from (a JSON path), for messages

    @property
    def test(self) -> str:
        return self.keys["test"]

    def value(self, metric: str) -> float | None:
        cell = self.cells.get(metric)
        return float(cell.canonical.value) if cell else None


@dataclass
class TestSpec:
    """A test with its methodology resolved (set-level defaults merged with the test's own)."""

    id: str
    meta: dict[str, Any]
    methodology: dict[str, Any]
    link: Link
    imixes: dict[str, Imix] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.meta["title"]

    @property
    def convention(self) -> str:
        default = "ip-packet" if self.link.media == "pos" else "ethernet-frame"
        return self.methodology.get("frame_size_convention", default)

    @property
    def encapsulation_bytes(self) -> int:
        return int(self.meta.get("encapsulation_bytes", 0))

    def frame(self, frame_size: int | str) -> float:
        """On-wire frame length for a frame_size key (bytes or an IMIX id)."""
        tags = int(self.methodology.get("vlan_tags", 0))
        if isinstance(frame_size, str):
            return self.imixes[frame_size].average_frame(tags)
        return frame_bytes(frame_size, self.convention, tags)


@dataclass
class ResultSet:
    """A validated result set."""

    path: Path
    meta: dict[str, Any]
    tests: dict[str, TestSpec]
    rows: list[Row]
    file_hashes: dict[str, str]

    @property
    def slug(self) -> str:
        return self.meta["slug"]

    @property
    def content_hash(self) -> str:
        import hashlib

        h = hashlib.sha256()
        for name in sorted(self.file_hashes):
            h.update(f"{name}\0{self.file_hashes[name]}\n".encode())
        return h.hexdigest()

    def measurements(self) -> list[Row]:
        return [r for r in self.rows if r.kind == "measurements"]

    def samples(self) -> list[Row]:
        return [r for r in self.rows if r.kind == "samples"]

    def histograms(self) -> list[Row]:
        return [r for r in self.rows if r.kind == "histograms"]
