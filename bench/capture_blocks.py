"""pcapng whose interface description blocks alternate with packet blocks: reading time against file size.

Issue 28 measured 2.7 / 10.2 / 21.0 s for 1 / 2 / 3 MiB before the reader grew its per-interface arrays by
doubling (it rebuilt them from lists at every interface block: quadratic). This script writes such files of
1, 2, 4 and 8 MiB (benchmark input, never published data), reads each with the interface limit lifted so that
the reader's own growth is what is measured, and prints seconds, seconds per MiB and the ratio of each size's
time to the 1 MiB time next to the ratio of sizes: linear reading keeps the two close, quadratic reading
squares it. Then the 32 MiB file is read with the limit in force (capture_interfaces): it is refused after
1,024 interface blocks, and the time to that one line is printed.

    .venv/bin/python bench/capture_blocks.py
"""

from __future__ import annotations

import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import save  # noqa: E402
from wirespeed.capture.errors import CaptureError  # noqa: E402
from wirespeed.capture.reader import frames_from_bytes  # noqa: E402
from wirespeed.resultset import limits  # noqa: E402

T0 = 1_790_000_000 * 10**9
FRAME = (b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00"
         + struct.pack(">BBHHHBBH4s4s", 0x45, 0, 46, 0, 0x4000, 64, 17, 0, bytes([198, 18, 0, 1]), bytes([198, 19, 0, 1]))
         + struct.pack(">HHHH", 49152, 7, 26, 0) + b"WSPD" + bytes(14))


def _block(btype: int, body: bytes) -> bytes:
    body += bytes(-len(body) % 4)
    return struct.pack("<II", btype, len(body) + 12) + body + struct.pack("<I", len(body) + 12)


def alternating(size: int) -> bytes:
    """A section header, then interface block, packet block, interface block, … up to `size` bytes."""
    shb = _block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    idb = _block(1, struct.pack("<HHI", 1, 0, 0) + struct.pack("<HH", 9, 1) + bytes([9, 0, 0, 0]) + struct.pack("<HH", 0, 0))
    out, n, i = [shb], len(shb), 0
    while n < size:
        ts = T0 + i * 1000
        epb = _block(6, struct.pack("<IIIII", i, ts >> 32, ts & 0xFFFFFFFF, len(FRAME), len(FRAME)) + FRAME)
        out += [idb, epb]
        n += len(idb) + len(epb)
        i += 1
    return b"".join(out)


def main() -> None:
    results: dict = {}
    frames_from_bytes(alternating(4096), "warm-up.pcapng")  # compiled scanners loaded before timing
    limit = limits.LIMITS["capture_interfaces"]
    limits.LIMITS["capture_interfaces"] = limits.Limit(limit.key, 10**9, limit.unit, limit.rule, limit.what, limit.why)
    base = None
    try:
        for mib in (1, 2, 4, 8):
            data = alternating(mib << 20)
            t = time.perf_counter()
            f = frames_from_bytes(data, f"{mib}MiB.pcapng")
            dt = time.perf_counter() - t
            base = base or dt
            results[f"{mib} MiB"] = {"interfaces": len(f.linktypes), "frames": len(f), "seconds": round(dt, 3),
                                     "s_per_MiB": round(dt / mib, 3), "time_ratio": round(dt / base, 2), "size_ratio": mib}
    finally:
        limits.LIMITS["capture_interfaces"] = limit
    data = alternating(32 << 20)
    t = time.perf_counter()
    try:
        frames_from_bytes(data, "32MiB.pcapng")
        outcome = "read"
    except CaptureError as exc:
        outcome = str(exc)
    results["32 MiB, limit in force"] = {"seconds": round(time.perf_counter() - t, 3), "outcome": outcome}
    save("capture_blocks", results)


if __name__ == "__main__":
    main()
