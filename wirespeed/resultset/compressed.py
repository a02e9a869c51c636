"""Compressed native files (gzip, Zstandard) read transparently, within a bound on what they hold.

`unpack` is the one place a compressed file is opened, for `wirespeed import` (sniff, describe,
convert) and for loading a set: it decompresses in a stream and stops as soon as the output passes
the `decompressed_size` limit (wirespeed.resultset.limits), so a compression bomb costs at most that
much memory. A file that is not compressed is returned as it is.
"""

from __future__ import annotations

import zlib

from wirespeed.problems import Problem
from wirespeed.resultset.limits import describe, value

GZIP, ZSTD = b"\x1f\x8b", b"\x28\xb5\x2f\xfd"
_STEP = 1 << 20


def compression_of(data: bytes) -> str | None:
    """"gzip", "zstd" or None, from the magic number."""
    if data.startswith(GZIP):
        return "gzip"
    if data.startswith(ZSTD):
        return "zstd"
    return None


class _TooBig(Exception):
    pass


class _Broken(Exception):
    pass


def _gunzip(data: bytes, limit: int) -> bytes:
    out = bytearray()
    rest = data
    while rest:
        if not rest.startswith(GZIP):
            if rest.strip(b"\x00"):  # zero padding after the last member is what gzip(1) accepts
                raise _Broken(f"{len(rest)} bytes after the compressed data are not a gzip member")
            break
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        chunk = rest
        while chunk and not d.eof:
            try:
                out += d.decompress(chunk, _STEP)
            except zlib.error as exc:
                raise _Broken(f"corrupt gzip data ({exc})") from None
            if len(out) > limit:
                raise _TooBig
            chunk = d.unconsumed_tail
        if not d.eof:
            raise _Broken("the gzip data ends early (a truncated file)")
        rest = d.unused_data
    return bytes(out)


def _unzstd(data: bytes, limit: int) -> bytes:
    try:
        from compression import zstd  # Python 3.14
    except ImportError:
        from backports import zstd
    out = bytearray()
    rest = data
    while rest:
        d = zstd.ZstdDecompressor(options={zstd.DecompressionParameter.window_log_max: 25})  # a 32 MiB window at most
        chunk = rest
        while not d.eof:
            try:
                out += d.decompress(chunk, max_length=_STEP)
            except zstd.ZstdError as exc:
                raise _Broken(f"corrupt Zstandard data ({exc})") from None
            if len(out) > limit:
                raise _TooBig
            if not d.needs_input:
                chunk = b""
                continue
            break
        if not d.eof:
            raise _Broken("the Zstandard data ends early (a truncated file)")
        rest = d.unused_data
    return bytes(out)


def unpack(data: bytes, file: str) -> tuple[bytes | None, str | None, list[Problem]]:
    """(the bytes a file holds, its compression or None, problems): decompressed when compressed,
    never beyond the decompressed_size limit."""
    kind = compression_of(data)
    if kind is None:
        return data, None, []
    limit = value("decompressed_size")
    try:
        out = (_gunzip if kind == "gzip" else _unzstd)(data, limit)
    except _TooBig:
        return None, kind, [Problem(file, None, "", f"{kind}-compressed: holds more than the limit of {describe('decompressed_size')} "
                                    "(reading stopped there)", "limit.decompressed-size")]
    except _Broken as exc:
        return None, kind, [Problem(file, None, "", f"{kind}-compressed, but cannot be read: {exc}", "import.compressed")]
    if compression_of(out):
        return None, kind, [Problem(file, None, "", f"{kind}-compressed twice: expected one compression around the tool's file", "import.compressed")]
    return out, kind, []
