"""IMIX traffic mixes: frame sizes and weights → average frame size.

Built-in profiles:
- trex-imix: T-Rex's stl/imix.py, packets of 60, 590 and 1514 bytes at 28:16:4 packets/s
  (T-Rex packets exclude the FCS: frames of 64, 594 and 1518 bytes).
- simple-imix: the classic 7:4:1 mix of 64, 594 and 1518-byte Ethernet frames.
- RFC 6985 genome strings: one letter per packet in sequence (a=64, b=128, c=256, d=512,
  e=1024, f=1280, g=1518, h=2112, i=9000, j=16000, z=MTU), e.g. "aaaaaaadddg".
"""

from __future__ import annotations

from dataclasses import dataclass

from wirespeed.engine.linerate import frame_bytes

GENOME = {"a": 64, "b": 128, "c": 256, "d": 512, "e": 1024, "f": 1280, "g": 1518, "h": 2112, "i": 9000, "j": 16000}


@dataclass(frozen=True)
class Imix:
    """A mix of sizes with relative packet weights, in a frame-size convention."""

    sizes: tuple[float, ...]
    weights: tuple[float, ...]
    convention: str = "ethernet-frame"

    def __post_init__(self):
        if len(self.sizes) != len(self.weights) or not self.sizes:
            raise ValueError("an IMIX needs one weight per size")
        if any(w <= 0 for w in self.weights) or any(s <= 0 for s in self.sizes):
            raise ValueError("IMIX sizes and weights must be positive")

    def average_size(self) -> float:
        """Weighted mean size, in the mix's own convention."""
        return sum(s * w for s, w in zip(self.sizes, self.weights)) / sum(self.weights)

    def average_frame(self, vlan_tags: int = 0) -> float:
        """Weighted mean on-wire Ethernet frame length (FCS included)."""
        return frame_bytes(self.average_size(), self.convention, vlan_tags)


PROFILES: dict[str, Imix] = {
    "trex-imix": Imix((60, 590, 1514), (28, 16, 4), "trex-packet"),
    "simple-imix": Imix((64, 594, 1518), (7, 4, 1), "ethernet-frame"),
}


def from_genome(genome: str, mtu: int | None = None) -> Imix:
    """An IMIX from an RFC 6985 genome string (the packet sequence, one letter per packet)."""
    counts: dict[float, int] = {}
    for letter in genome:
        if letter == "z":
            if mtu is None:
                raise ValueError("genome letter z needs the MTU")
            size = mtu
        elif letter in GENOME:
            size = GENOME[letter]
        else:
            raise ValueError(f"unknown RFC 6985 genome letter {letter!r}")
        counts[size] = counts.get(size, 0) + 1
    if not counts:
        raise ValueError("empty genome")
    sizes = tuple(sorted(counts))
    return Imix(sizes, tuple(float(counts[s]) for s in sizes), "ethernet-frame")
