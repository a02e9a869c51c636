"""pcap, pcapng and ERF files to per-frame arrays, read in chunks (pread or a memory map).

A file is read in chunks (pcap: pread into one buffer of READ_BYTES, which stays in the core's L2
cache while it is decoded; a record cut by the chunk's end is moved to the front and completed by
the next read; pcapng: a read-only memory map in chunks of `chunk_bytes`, a record that straddles a
chunk boundary is read whole by the chunk it starts in; ERF, which has no magic number, is
recognised by its first records (erf.py) and read through the memory map as pcapng is). The compiled scanners (scan.py) find and
decode the records of one chunk into the free tail of the output columns, and only those columns
(35 bytes a frame) are kept, so a capture larger than memory is streamed through the page cache.
"""

from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass, field

import numpy as np

from wirespeed.capture import decode as dec
from wirespeed.capture import scan
from wirespeed.resultset import erf
from wirespeed.capture.errors import CaptureError
from wirespeed.resultset import limits

CHUNK_BYTES = 64 << 20
READ_BYTES = 1 << 20  # pcap is read in pieces that stay in the core's 1 MiB L2 cache while they are decoded
PCAP_MAGIC = {  # first four bytes -> (byte-swapped?, nanosecond?)
    b"\xd4\xc3\xb2\xa1": (False, False), b"\xa1\xb2\xc3\xd4": (True, False),
    b"\x4d\x3c\xb2\xa1": (False, True), b"\xa1\xb2\x3c\x4d": (True, True),
}
PCAPNG_SHB = b"\x0a\x0d\x0d\x0a"


@dataclass
class Frames:
    """Decoded frames of one capture, in file order. ts in ns since the Unix epoch (-1: none)."""

    file: str
    ts: np.ndarray
    size: np.ndarray
    flags: np.ndarray
    key: np.ndarray
    seq: np.ndarray
    txts: np.ndarray
    format: str = "pcap"
    linktypes: list[int] = field(default_factory=list)
    resolution: str = ""
    skipped_blocks: int = 0
    lost_records: int = 0  # ERF: the records the capture card counted as lost (loss counters)

    def __len__(self) -> int:
        return int(self.ts.size)


class _Columns:
    """The decoded columns of one capture, filled in place by the scanners.

    Each scanner call writes into views of the free tail of the arrays; they grow (realloc, which
    moves large arrays by remapping pages, not copying) when a chunk could hold more records than
    are free, and are cut to the frames found at the end: no per-chunk parts, no final concatenation."""

    NAMES = ("ts", "size", "flags", "key", "seq", "txts")
    DTYPES = (np.int64, np.uint16, np.uint8, np.uint64, np.int64, np.int64)

    def __init__(self, capacity: int):
        self.n = 0
        self.arrays = [np.empty(max(1024, capacity), d) for d in self.DTYPES]

    def tail(self, need: int) -> tuple:
        """Views of the free slots (at least `need`) and their number, as the scanners take them."""
        cap = self.arrays[0].size
        if cap - self.n < need:
            for a in self.arrays:
                a.resize(max(2 * cap, self.n + need), refcheck=False)  # no view of them is alive here
            cap = self.arrays[0].size
        return (*(a[self.n:] for a in self.arrays), cap - self.n)

    def too_large(self) -> int:
        """The size a scanner that stopped at a frame too large left in the seq slot of that frame."""
        return int(self.arrays[4][self.n]) if self.n < self.arrays[4].size else 0

    def frames(self, **kw) -> Frames:
        for a in self.arrays:
            a.resize(self.n, refcheck=False)
        return Frames(**dict(zip(self.NAMES, self.arrays)), **kw)


def _linktype(file: str, place: str, lt: int) -> int:
    if lt not in dec.LINKTYPES:
        known = ", ".join(f"{v} ({k})" for k, v in dec.LINKTYPES.items())
        raise CaptureError(file, place, f"link type {lt} is not supported; supported: {known}", "capture.linktype")
    return lt


class _Interfaces:
    """The interface description blocks read so far (all sections): per-interface columns the pcapng
    scanner indexes, grown by doubling (amortised constant time an interface, however the blocks
    alternate with packets), and at most capture_interfaces of them."""

    def __init__(self, file: str):
        self.file, self.n = file, 0
        self.cols = [np.empty(16, np.int64) for _ in range(4)]  # if_tsresol, if_tsoffset, snaplen, link type
        self.linktypes: list[int] = []
        self.resolutions: set[int] = set()

    def add(self, place: str, resol: int, offset: int, snaplen: int, linktype: int) -> None:
        if self.n >= limits.value("capture_interfaces"):
            raise CaptureError(self.file, place, f"more interface description blocks than the limit of {limits.describe('capture_interfaces')}", "limit.interfaces")
        if self.n == self.cols[0].size:  # new arrays: views the scanner was given stay valid
            self.cols = [np.concatenate([c, np.empty(c.size, np.int64)]) for c in self.cols]
        for col, v in zip(self.cols, (resol, offset, snaplen, linktype)):
            col[self.n] = v
        self.n += 1
        self.linktypes.append(linktype)
        self.resolutions.add(resol)

    def views(self) -> tuple:
        return tuple(c[:self.n] for c in self.cols)


def _fail(file: str, status: int, pos: int, size: int, what: str, frame: int = 0):
    if status == scan.TOO_LARGE:
        raise CaptureError(file, f"byte {pos}", f"a frame of {frame:,} bytes on the wire: above the largest frame a result set takes "
                           f"({limits.describe('frame_bytes')}, the schema's largest max_frame_bytes)", "limit.frame")
    if status == scan.TRUNCATED:
        raise CaptureError(file, f"byte {pos}", f"{what} runs past the end of the file ({size} bytes): the capture is truncated", "capture.truncated")
    raise CaptureError(file, f"byte {pos}", f"{what} has an impossible length", "capture.record")


def read_frames(path: str | os.PathLike, name: str | None = None, chunk_bytes: int = CHUNK_BYTES) -> Frames:
    """All frames of a pcap, pcapng or ERF file; CaptureError (one line) for anything unreadable.

    pcap is read with pread() in 1 MiB pieces into one reusable buffer (measured faster than a
    memory map: the copy from the page cache is sequential, the scan then runs in cache); pcapng, whose
    blocks need Python between sections, is read through a read-only memory map."""
    file = name or str(path)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        size = os.fstat(fd).st_size
        head = os.pread(fd, 24, 0)
        if len(head) < 4:
            raise CaptureError(file, "byte 0", f"{size} bytes: too short for a pcap, pcapng or ERF header", "capture.truncated")
        if head[:4] in PCAP_MAGIC:
            frames = _stream_pcap(fd, head, file, *PCAP_MAGIC[head[:4]], chunk_bytes)
            if len(frames) == 0:
                raise CaptureError(file, "", "the capture holds no frames", "capture.empty")
            return frames
        mm = mmap.mmap(fd, size, access=mmap.ACCESS_READ)
    finally:
        os.close(fd)
    try:
        buf = np.frombuffer(mm, dtype=np.uint8)
        frames = _frames(buf, file, chunk_bytes)
        del buf
    finally:
        try:
            mm.close()
        except BufferError:  # a view is still alive in a traceback; the map goes with it
            pass
    return frames


def _stream_pcap(fd: int, head: bytes, file: str, swap: bool, nano: bool, chunk_bytes: int) -> Frames:
    lt = _pcap_header(head, file, swap)
    buf = np.empty(max(min(chunk_bytes, READ_BYTES), 4096), np.uint8)
    view = memoryview(buf)
    cols = _Columns(os.fstat(fd).st_size // 64)
    base, have, eof = 24, 0, False  # file offset of buf[0], bytes in buf
    while not eof or have:
        while not eof and have < buf.size:
            n = os.preadv(fd, [view[have:]], base + have)
            eof, have = n == 0, have + n
        pos, status = 0, scan.OK
        while pos < have:
            n, pos, status = scan.scan_pcap(buf[:have], pos, have, swap, nano, lt, limits.value("frame_bytes"), *cols.tail(have // 16 + 1))
            cols.n += n
            if status != scan.OK:
                break
        if status in (scan.BAD_LENGTH, scan.TOO_LARGE) or (status == scan.TRUNCATED and eof):
            _fail(file, status, base + pos, base + have, "the record at this place", cols.too_large())
        buf[:have - pos] = buf[pos:have]
        base, have = base + pos, have - pos
        if have == buf.size:  # one record larger than the buffer (at most MAX_RECORD): grow it
            buf = np.concatenate([buf, np.empty(buf.size, np.uint8)])
            view = memoryview(buf)
    return cols.frames(file=file, format="pcap", linktypes=[lt], resolution="ns" if nano else "µs")


def _pcap_header(head: bytes, file: str, swap: bool) -> int:
    if len(head) < 24:
        raise CaptureError(file, "byte 0", f"{len(head)} bytes: the 24-byte pcap file header is cut off", "capture.truncated")
    _snaplen, lt = struct.unpack((">" if swap else "<") + "II", head[16:24])
    return _linktype(file, "link type", lt & 0x0FFFFFF)


def frames_from_bytes(data: bytes, file: str, chunk_bytes: int = CHUNK_BYTES) -> Frames:
    """All frames of a capture already in memory (a result set's native file, read safely)."""
    if len(data) < 4:
        raise CaptureError(file, "byte 0", f"{len(data)} bytes: too short for a pcap, pcapng or ERF header", "capture.truncated")
    return _frames(np.frombuffer(data, dtype=np.uint8), file, chunk_bytes)


def _frames(buf: np.ndarray, file: str, chunk_bytes: int) -> Frames:
    head = bytes(buf[:4])
    if head in PCAP_MAGIC:
        frames = _read_pcap(buf, file, *PCAP_MAGIC[head], chunk_bytes)
    elif head == PCAPNG_SHB:
        frames = _read_pcapng(buf, file, chunk_bytes)
    elif erf.looks_like(bytes(buf[:erf.HEAD])):
        frames = _read_erf(buf, file, chunk_bytes)
    else:
        raise CaptureError(file, "byte 0", f"magic 0x{head.hex()} is neither pcap nor pcapng, and the first records are not ERF records",
                           "capture.format")
    if len(frames) == 0:
        raise CaptureError(file, "", "the capture holds no frames", "capture.empty")
    return frames


def _read_pcap(buf, file, swap, nano, chunk_bytes) -> Frames:
    size = buf.size
    lt = _pcap_header(bytes(buf[:24]), file, swap)
    cols = _Columns(size // 64)
    pos = 24
    while pos < size:
        n, pos, status = scan.scan_pcap(buf, pos, pos + chunk_bytes, swap, nano, lt, limits.value("frame_bytes"),
                                        *cols.tail(min(chunk_bytes, size - pos) // 16 + 2))
        cols.n += n
        if status != scan.OK:
            _fail(file, status, pos, size, "the record at this place", cols.too_large())
    return cols.frames(file=file, format="pcap", linktypes=[lt], resolution="ns" if nano else "µs")


def _read_erf(buf, file, chunk_bytes) -> Frames:
    size = buf.size
    cols = _Columns(size // 64)
    pos, skipped, lost = 0, 0, 0
    max_frame = limits.value("frame_bytes")
    while pos < size:
        n, pos, status, sk, lo, _ = scan.scan_erf(buf, pos, pos + chunk_bytes, max_frame, *cols.tail(min(chunk_bytes, size - pos) // 16 + 2))
        cols.n, skipped, lost = cols.n + n, skipped + sk, lost + lo
        if status == scan.UNSUPPORTED:
            raise CaptureError(file, f"byte {pos + 8}", f"ERF record type {erf.type_name(int(buf[pos + 8]))} carries no frame this reader "
                               f"decodes; supported: {erf.SUPPORTED}", "capture.linktype")
        if status != scan.OK:
            _fail(file, status, pos, size, "the ERF record at this place", cols.too_large())
    return cols.frames(file=file, format="erf", linktypes=[dec.ETHERNET], resolution="2^-32 s", skipped_blocks=skipped, lost_records=lost)


def _options(body: bytes, fmt: str):
    p = 0
    while p + 4 <= len(body):
        code, length = struct.unpack(fmt + "HH", body[p:p + 4])
        if code == 0:
            return
        yield code, body[p + 4:p + 4 + length]
        p += 4 + length + (-length % 4)


def _read_pcapng(buf, file, chunk_bytes) -> Frames:
    size = buf.size
    cols = _Columns(size // 64)
    ifaces = _Interfaces(file)
    pos, swap, if_base, skipped = 0, False, 0, 0
    arrays = None
    max_frame = limits.value("frame_bytes")
    while pos < size:
        if pos + 12 > size:
            _fail(file, scan.TRUNCATED, pos, size, "the block at this place")
        btype = bytes(buf[pos:pos + 4])
        if btype == PCAPNG_SHB:
            bom = bytes(buf[pos + 8:pos + 12])
            if bom not in (b"\x4d\x3c\x2b\x1a", b"\x1a\x2b\x3c\x4d"):
                raise CaptureError(file, f"byte {pos + 8}", f"byte-order magic 0x{bom.hex()} of a section header is wrong", "capture.format")
            swap = bom == b"\x1a\x2b\x3c\x4d"
            if_base = ifaces.n
        fmt = ">" if swap else "<"
        btype_n, blen = struct.unpack(fmt + "II", bytes(buf[pos:pos + 8]))
        if blen < 12 or blen % 4 or pos + blen > size:
            _fail(file, scan.TRUNCATED if pos + blen > size else scan.BAD_LENGTH, pos, size, f"the block of type 0x{btype_n:x} at this place")
        if btype_n == 1:  # interface description block
            if blen < 20:
                _fail(file, scan.BAD_LENGTH, pos, size, "the interface description block at this place")
            lt, _, sl = struct.unpack(fmt + "HHI", bytes(buf[pos + 8:pos + 16]))
            lt = _linktype(file, f"byte {pos + 8}: interface {ifaces.n - if_base} link type", lt)
            r, o = 6, 0
            for code, value in _options(bytes(buf[pos + 16:pos + blen - 4]), fmt):
                if code == 9 and value:
                    r = value[0]
                elif code == 14 and len(value) == 8:
                    o = struct.unpack(fmt + "q", value)[0]
            if (r & 0x7F) > (62 if r & 0x80 else 18):
                raise CaptureError(file, f"byte {pos}", f"if_tsresol {r} is out of range", "capture.format")
            ifaces.add(f"byte {pos}", r, o, sl, lt)
            arrays = None
        if btype_n in (1, 0x0A0D0D0A):
            pos += blen
            continue
        if arrays is None:
            arrays = ifaces.views()
        n_if = ifaces.n - if_base
        n, pos, status, sk, _ = scan.scan_pcapng(buf, pos, pos + chunk_bytes, swap, if_base, n_if, *arrays, max_frame,
                                                 *cols.tail(min(chunk_bytes, size - pos) // 16 + 2))
        skipped += sk
        cols.n += n
        if status in (scan.TRUNCATED, scan.BAD_LENGTH, scan.TOO_LARGE):
            _fail(file, status, pos, size, "the packet block at this place", cols.too_large())
    res = sorted({(f"2^-{r & 0x7F} s" if r & 0x80 else f"10^-{r} s") for r in ifaces.resolutions})
    return cols.frames(file=file, format="pcapng", linktypes=ifaces.linktypes, resolution=", ".join(res), skipped_blocks=skipped)
